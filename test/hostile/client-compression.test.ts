/**
 * The compression loop for real: the sandbox compresses JSON answers when the client
 * asks, and voicectl asks and reads them (an export of every call, byte for byte the
 * same as with compression off).
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedCalls, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function sandbox(compress?: boolean): Promise<Sandbox> {
  const sb = await startSandbox({ port: 0, timeScale: 600, seed: 3, startAt: '2026-03-02T06:00:00Z', compress });
  seedCalls(sb.world, sb.world.keys.get(sb.apiKey)!.org, 1500);
  open.push(sb);
  return sb;
}

function raw(url: string, headers: Record<string, string>): Promise<{ encoding?: string; vary?: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sandbox compression', () => {
  it('answers gzip or br only to a client that accepts it', async () => {
    const sb = await sandbox();
    const url = `${sb.url}/calls?limit=200`;
    const key = { 'x-api-key': sb.apiKey };
    const plain = await raw(url, key);
    const gz = await raw(url, { ...key, 'accept-encoding': 'gzip, br' });
    const br = await raw(url, { ...key, 'accept-encoding': 'br' });
    const refused = await raw(url, { ...key, 'accept-encoding': 'gzip;q=0, identity' });
    expect(plain.encoding).toBeUndefined();
    expect(gz).toMatchObject({ encoding: 'gzip', vary: 'accept-encoding' });
    expect(br.encoding).toBe('br');
    expect(refused.encoding).toBeUndefined();
    expect(gz.bytes * 4).toBeLessThan(plain.bytes);
  });

  it('exports the same calls whether the sandbox compresses or not', async () => {
    const t: TempDir = tempDir();
    open.push({ close: t.remove });
    const outputs: string[] = [];
    for (const compress of [true, false]) {
      const sb = await sandbox(compress);
      const out = join(t.dir, `calls-${compress}.jsonl`);
      const r = await runCli(['call', 'export', '--format', 'jsonl', '--out', out], { ...baseEnv(t.dir), VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey });
      expect(r.exitCode).toBe(0);
      const listed = sb.requests.filter((q) => q.path === '/calls');
      expect(listed.length).toBeGreaterThan(1);
      expect(listed.every((q) => q.headers['accept-encoding'] === 'gzip, br')).toBe(true);
      // Seeded times follow the simulated clock, which runs on between the two sandboxes.
      outputs.push(readFileSync(out, 'utf8').replace(/"(start|end)_time":"[^"]*"/g, '"$1_time":"…"'));
      await sb.close();
    }
    expect(outputs[0]!.split('\n').filter(Boolean)).toHaveLength(1500);
    expect(outputs[0]).toBe(outputs[1]);
  });
});
