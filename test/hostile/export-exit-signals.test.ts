/**
 * `call export --out FILE` stopped by real signals, against a sandbox slowed with
 * latency so the export is mid-way: a second SIGTERM (coreutils `timeout` sends the
 * signal to the process and to its group) exits at once and still removes the temporary
 * file; a SIGKILLed run's temporary file is swept by the next export into that folder,
 * while a running process's is left alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, harness, runCli, type Harness } from '../helpers/cli.js';
import { plantCalls } from '../helpers/given.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { tempPathFor } from '../../src/util/atomic-file.js';

let h: Harness;
const dirs: TempDir[] = [];

beforeAll(async () => {
  // 6,000 calls at --concurrency 1 and 150 ms a response: 30 pages, over four seconds of export.
  h = await harness({ latencyMs: 150 });
  const now = Date.now();
  plantCalls(h.sandbox, Array.from({ length: 6000 }, (_, i) => now - 7_200_000 + i * 1000));
});
afterAll(async () => {
  await h.close();
  for (const d of dirs) d.remove();
});

function folder(): string {
  const d = tempDir();
  dirs.push(d);
  return d.dir;
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

function start(command: string, args: string[]): { child: ChildProcess; done: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stderr: string }> } {
  const child = spawn(command, args, { env: h.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stderr }));
  });
  return { child, done };
}

/** Waits until the export has its temporary file open (it is mid-way from then on). */
async function tempAppears(dir: string): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const t = temps(dir);
    if (t.length > 0) return t[0]!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no temporary file appeared in ${dir}`);
}

const exportArgs = (out: string) => [BIN, 'call', 'export', '--out', out, '--concurrency', '1'];

describe('an export interrupted by signals', () => {
  it('Ctrl-C and SIGTERM handled together (the second means "now"): exits 130, no temporary file, no output file', async () => {
    const dir = folder();
    const out = join(dir, 'calls.csv');
    const { child, done } = start(process.execPath, exportArgs(out));
    await tempAppears(dir);
    // Stopped, the process holds both signals and handles them in one go on SIGCONT: the
    // second arrives before the first one's clean-up can run, which is the forced-exit path.
    child.kill('SIGSTOP');
    child.kill('SIGINT');
    child.kill('SIGTERM');
    child.kill('SIGCONT');
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(temps(dir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('two SIGTERMs in a row: exits 130, no temporary file', async () => {
    const dir = folder();
    const { child, done } = start(process.execPath, exportArgs(join(dir, 'calls.csv')));
    await tempAppears(dir);
    child.kill('SIGTERM');
    child.kill('SIGTERM');
    const r = await done;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(temps(dir)).toEqual([]);
  });

  it('coreutils timeout (SIGTERM to the process and its group): no temporary file left', async () => {
    expect(existsSync('/usr/bin/timeout') || existsSync('/bin/timeout'), 'this test needs coreutils timeout').toBe(true);
    const dir = folder();
    const out = join(dir, 'calls.csv');
    const { done } = start('timeout', ['2.5', process.execPath, ...exportArgs(out)]);
    let seen = false;
    const watch = setInterval(() => (seen ||= temps(dir).length > 0), 20);
    const r = await done;
    clearInterval(watch);
    expect(seen, 'the export was mid-way when timeout stopped it').toBe(true);
    expect(r.exitCode, r.stderr).toBe(124);
    expect(temps(dir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('SIGKILL leaves the temporary file; the next export into the folder sweeps it, and spares a live process\'s', async () => {
    const dir = folder();
    const out = join(dir, 'calls.csv');
    const { child, done } = start(process.execPath, exportArgs(out));
    const left = await tempAppears(dir);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    expect(temps(dir)).toEqual([left]);

    // A temporary file of a process that is running (this test's own): not stale.
    const live = tempPathFor(join(dir, 'other.csv'));
    writeFileSync(live, 'in progress');

    const again = await runCli(['call', 'export', '--out', join(dir, 'calls.jsonl')], h.env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(`left in ${dir} by an export that was killed: ${left}`);
    expect(temps(dir)).toEqual([live.slice(dir.length + 1)]);
    expect(existsSync(join(dir, 'calls.jsonl'))).toBe(true);
  });
});
