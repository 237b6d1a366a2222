/**
 * A slow pipe reader: `voicectl … --json | (sleep 5; wc -c)`, `| ssh host 'cat > f'`,
 * `| less`. voicectl's work is done in a fraction of a second, and most of its output is
 * still waiting for the reader; it must exit only once the reader has all of it, with
 * exit 0. Both readers here wait longer than the safety net that ends a process kept
 * alive by a stray handle (3 s), which once cut the output at the pipe's 64 KB.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenAgent, givenCampaign, plantCalls } from '../helpers/given.js';

let h: Harness;
let campaignId: string;

beforeAll(async () => {
  h = await harness();
  const api = clientFor(h.sandbox);
  campaignId = (await givenCampaign(api, (await givenAgent(api)).id, 10_000)).id;
  const now = Date.now();
  plantCalls(h.sandbox, Array.from({ length: 3000 }, (_, i) => now - 7_200_000 + i * 1000));
});
afterAll(() => h.close());

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Read {
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs voicectl with its stdout in a pipe that `reader` reads: it is handed the pipe,
 * paused, and resolves when it has read all it wants to.
 */
function runReadBy(args: string[], reader: (out: NodeJS.ReadableStream) => Promise<void>): Promise<Read> {
  const child = spawn(process.execPath, [BIN, ...args], { env: h.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.pause();
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return reader(child.stdout).then(async () => {
    child.stdout.resume();
    const exitCode = await closed;
    return { exitCode, stdout: Buffer.concat(chunks), stderr };
  });
}

async function expected(args: string[]): Promise<string> {
  const r = await h.run(args);
  expect(r.exitCode).toBe(0);
  return `${r.stdout}\n`;
}

describe.concurrent('a slow pipe reader gets the whole output', () => {
  it('a reader that starts 5 s late: all of `campaign contacts ID --json`, exit 0', async () => {
    const args = ['campaign', 'contacts', campaignId, '--json'];
    const r = await runReadBy(args, () => sleep(5000));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const want = await expected(args);
    expect(Buffer.byteLength(want)).toBeGreaterThan(1_000_000);
    expect(r.stdout.length).toBe(Buffer.byteLength(want));
    expect(r.stdout.toString()).toBe(want);
  });

  it('a reader that pauses 5 s mid-stream: all of `call list --all -o jsonl`, exit 0', async () => {
    const args = ['call', 'list', '--all', '-o', 'jsonl'];
    const r = await runReadBy(args, async (out) => {
      out.resume();
      await new Promise((resolve) => out.once('data', resolve));
      out.pause();
      await sleep(5000);
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const want = await expected(args);
    expect(Buffer.byteLength(want)).toBeGreaterThan(1_000_000);
    expect(r.stdout.toString()).toBe(want);
  });
});
