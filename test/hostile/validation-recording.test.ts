/**
 * `call recording --download` when the output cannot take it: a full device, a folder
 * that does not exist or cannot be written. The message names the file and the cause,
 * the exit code is 1, and no partial file is left.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, sharedHarness } from '../helpers/cli.js';
import { givenRecordedCall } from '../helpers/given.js';

const h = sharedHarness();
let callId: string;

beforeAll(async () => {
  chmodSync(h.dir, 0o777);
  callId = await givenRecordedCall(h.api);
});

/** Runs the CLI with stdout on a file descriptor (such as /dev/full), optionally as another user. */
/**
 * Runs the built CLI. `unprivileged`: as root, without the capabilities that let root
 * write anywhere (setpriv drops them for the child alone), so a read-only folder refuses
 * it as it refuses anyone; the checkout may sit in a folder no other user can enter.
 */
function runTo(args: string[], stdoutFd: number | 'pipe', unprivileged = false): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const asRoot = unprivileged && process.getuid?.() === 0;
  const [command, argv] = asRoot
    ? ['setpriv', ['--bounding-set=-dac_override,-dac_read_search', '--', process.execPath, BIN, ...args]]
    : [process.execPath, [BIN, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      env: { ...h.env, HOME: h.dir, VOICECTL_CONFIG_DIR: h.dir },
      stdio: ['ignore', stdoutFd, 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

describe('call recording --download', () => {
  it('to a full device (stdout on /dev/full): ENOSPC named, exit 1', async () => {
    expect(existsSync('/dev/full'), 'this test needs /dev/full (Linux)').toBe(true);
    const fd = openSync('/dev/full', 'w');
    try {
      const r = await runTo(['call', 'recording', callId, '--download', '-'], fd);
      expect(r.stderr).toContain('cannot write the recording to standard output: no space left on the device (ENOSPC)');
      expect(r.stderr).not.toMatch(/unexpected error/);
      expect(r.exitCode).toBe(1);
    } finally {
      closeSync(fd);
    }
  });

  it('into a folder that does not exist: the file and ENOENT named, exit 1', async () => {
    const target = join(h.dir, 'missing', 'rec.wav');
    const r = await runTo(['call', 'recording', callId, '--download', target], 'pipe');
    expect(r.stderr).toContain(`cannot write ${target}: no such file or folder (ENOENT)`);
    expect(r.exitCode).toBe(1);
  });

  it('into a folder it may not write: the file and EACCES named, exit 1, nothing left', async () => {
    const ro = join(h.dir, 'read-only');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const target = join(ro, 'rec.wav');
    const r = await runTo(['call', 'recording', callId, '--download', target], 'pipe', true);
    expect(r.stderr).toContain(`cannot write ${target}: permission denied (EACCES)`);
    expect(r.exitCode).toBe(1);
    expect(readdirSync(ro)).toEqual([]);
  });
});

describe('other output that cannot be written', () => {
  async function toFull(args: string[]) {
    expect(existsSync('/dev/full'), 'this test needs /dev/full (Linux)').toBe(true);
    const fd = openSync('/dev/full', 'w');
    try {
      return await runTo(args, fd);
    } finally {
      closeSync(fd);
    }
  }

  it('a list printed to a full device: exit 1 naming standard output and ENOSPC, not 0', async () => {
    const r = await toFull(['call', 'list', '--json']);
    expect(r.stderr).toContain('cannot write to standard output: no space left on the device (ENOSPC)');
    expect(r.exitCode).toBe(1);
  });

  it('call export to a full device: exit 1 naming ENOSPC', async () => {
    const r = await toFull(['call', 'export']);
    expect(r.stderr).toContain('cannot write the export to standard output: no space left on the device (ENOSPC)');
    expect(r.exitCode).toBe(1);
  });

  it('call export --out into a folder that does not exist: the file and ENOENT named', async () => {
    const target = join(h.dir, 'missing', 'calls.csv');
    const r = await runTo(['call', 'export', '--out', target], 'pipe');
    expect(r.stderr).toContain(`cannot write ${target}: no such file or folder (ENOENT).`);
    expect(r.exitCode).toBe(1);
  });
});
