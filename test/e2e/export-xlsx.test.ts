import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readSheet } from 'read-excel-file/node';
import { seedCalls } from '../../src/sandbox/index.js';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ latencyMs: 5 });
  seedCalls(h.sandbox.world, h.sandbox.world.keys.get(h.sandbox.apiKey)!.org, 3000);
});
afterAll(async () => h.close());

describe('call export --format xlsx, the built binary', () => {
  it('writes the workbook to a pipe', async () => {
    const r = await execa(process.execPath, [BIN, 'call', 'export', '--format', 'xlsx'], { env: h.env, extendEnv: false, reject: false, encoding: 'buffer' });
    expect(r.exitCode).toBe(0);
    const bytes = Buffer.from(r.stdout);
    const [header, ...rows] = await readSheet(bytes);
    expect(rows).toHaveLength(3000);
    const phone = header!.indexOf('phone_number');
    for (const row of rows) expect(String(row[phone])).toMatch(/^\+\d+$/);
  });

  it('ends quietly (exit 0) when the reader of the pipe goes away, like CSV', async () => {
    const child = execa(process.execPath, [BIN, 'call', 'export', '--format', 'xlsx'], { env: h.env, extendEnv: false, reject: false, encoding: 'buffer', buffer: { stdout: false, stderr: true } });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.stdout!.destroy();
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(Buffer.from(r.stderr as Uint8Array).toString()).not.toMatch(/\n\s+at |Error/);
  });

  it('exits 130 on Ctrl-C and leaves no file behind', async () => {
    const t = tempDir();
    try {
      const child = execa(process.execPath, [BIN, 'call', 'export', '--out', join(t.dir, 'calls.xlsx'), '--concurrency', '1'], { env: h.env, extendEnv: false, reject: false });
      const until = Date.now() + 15_000;
      while (!readdirSync(t.dir).some((n) => n.endsWith('.tmp')) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(r.stderr).toContain('calls.xlsx was not written');
      expect(readdirSync(t.dir)).toEqual([]);
    } finally {
      t.remove();
    }
  });
});
