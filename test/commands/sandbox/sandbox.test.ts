/** `voicectl sandbox`: the emulator as a process; it says how to reach it and stops on Ctrl-C. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, interruptedSandbox, runCli } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'voicectl-sandbox-verb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = baseEnv(dir);

describe('sandbox', () => {
  it('--help exits 0', async () => {
    expect((await runCli(['sandbox', '--help'], env)).exitCode).toBe(0);
  });

  it('serves on a free port, prints the export line for another shell, and stops on Ctrl-C (exit 130)', async () => {
    const r = await interruptedSandbox(env);
    expect(`${r.stdout}${r.stderr}`).toMatch(/export VOICECTL_BASE_URL=http:\/\/127\.0\.0\.1:\d+ VOICECTL_API_KEY=sk_sandbox_/);
    expect(r.exitCode).toBe(130);
  });

  it('a port that is not a number is exit 2', async () => {
    const r = await runCli(['sandbox', '--port', 'abc'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('expected a port number');
  });
});
