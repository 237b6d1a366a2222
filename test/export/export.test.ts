import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { fakeServer, makeCall, send, type FakeServer } from './fake-server.js';
import { run } from '../helpers/run.js';
import { tempDir } from './harness.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

async function server(...args: Parameters<typeof fakeServer>): Promise<FakeServer> {
  const s = await fakeServer(...args);
  cleanups.push(() => s.close());
  return s;
}
function dir(): string {
  const t = tempDir();
  cleanups.push(t.remove);
  return t.dir;
}
const env = (s: FakeServer) => ({ VOICECTL_BASE_URL: s.url, VOICECTL_API_KEY: 'sk_test_export' });
const many = (n: number, from = 0) => Array.from({ length: n }, (_, i) => makeCall(from + i));
const ids = (jsonl: string) => jsonl.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { call_id: string }).call_id);
const csvRecords = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

describe('call export: pages', () => {
  it('writes every call once, in the server\'s order, fetching pages concurrently', async () => {
    const s = await server(many(1001));
    const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', '4'], { env: env(s) });
    expect(r.stderr).toContain('Exported 1,001 calls');
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toEqual(many(1001).map((c) => c.call_id));
    const pages = s.requests.filter((q) => q.path === '/calls');
    expect(pages.map((q) => q.query.get('limit'))).toEqual(Array(6).fill('200'));
    expect(pages.map((q) => Number(q.query.get('offset'))).sort((a, b) => a - b)).toEqual([0, 200, 400, 600, 800, 1000]);
  });

  it('keeps every call exactly once while new ones arrive at the end (oldest first)', async () => {
    const s = await server(many(900), {
      beforePage: (_offset, n) => {
        if (n === 3) s.calls.push(...many(250, 900));
      },
    });
    const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', '2'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    const got = ids(r.stdout);
    expect(new Set(got).size).toBe(got.length);
    expect(got).toEqual(many(1150).map((c) => c.call_id));
  });

  it('keeps every call exactly once while new ones push older ones back (newest first)', async () => {
    const s = await server(many(900), {
      newestFirst: true,
      beforePage: (_offset, n) => {
        // 130 new calls land in front while page 2 is read: every later page shifts by 130.
        if (n === 2) s.calls.push(...many(130, 900));
      },
    });
    const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', '1'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    const got = ids(r.stdout);
    expect(new Set(got).size).toBe(got.length);
    for (const c of many(900)) expect(got).toContain(c.call_id);
  });

  it('misses no call when a later page is served before an earlier one while calls join (pages in flight)', async () => {
    // The page at offset 200 is held back until the one at 400 has been served; then 150
    // calls join near the front, pushing the last calls of that page into the next one,
    // which was already read.
    let servedLater = false;
    const s = await server(many(1000), {
      beforePage: async (offset) => {
        if (offset === 400) servedLater = true;
        if (offset !== 200) return;
        for (let i = 0; i < 200 && !servedLater; i++) await new Promise((r) => setTimeout(r, 5));
        s.calls.splice(50, 0, ...many(150, 5000).map((c, i) => ({ ...c, call_id: `call_mid_${i}` })));
      },
    });
    const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', '3'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    const got = ids(r.stdout);
    expect(new Set(got).size).toBe(got.length);
    const missing = many(1000).map((c) => c.call_id).filter((id) => !got.includes(id));
    expect(missing).toEqual([]);
  });

  it('keeps every call exactly once while calls join the middle of a filtered list', async () => {
    const s = await server(many(1000), {
      beforePage: (_offset, n) => {
        // 150 calls that started early (they just finished, say) join between existing ones.
        if (n === 2) s.calls.splice(100, 0, ...many(150, 5000).map((c, i) => ({ ...c, start_time: many(1, 100)[0]!.start_time, call_id: `call_mid_${i}` })));
      },
    });
    const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', '3'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    const got = ids(r.stdout);
    expect(new Set(got).size).toBe(got.length);
    for (const c of many(1000)) expect(got).toContain(c.call_id);
  });

  it('follows a server that caps the page size without saying so', async () => {
    const s = await server(many(230), { maxLimit: 50, hideLimit: true });
    const r = await run(['call', 'export', '--format', 'jsonl'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toEqual(many(230).map((c) => c.call_id));
  });

  it('reads page after page when the server sends no total', async () => {
    const s = await server(many(450), { hideTotal: true });
    const r = await run(['call', 'export', '--format', 'jsonl'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toHaveLength(450);
    expect(s.requests.filter((q) => q.path === '/calls')).toHaveLength(3);
  });

  it('passes the filters on, times in UTC', async () => {
    const s = await server(many(10));
    const r = await run(['call', 'export', '--campaign', 'camp_1', '--status', 'completed', '--since', '2024-05-01T09:03', '--until', '2024-05-01T09:05:00+00:00'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    const q = s.requests.find((x) => x.path === '/calls')!.query;
    expect(q.get('campaign_id')).toBe('camp_1');
    expect(q.get('status')).toBe('completed');
    expect(q.get('since')).toBe('2024-05-01T09:03:00.000Z');
    expect(q.get('until')).toBe('2024-05-01T09:05:00.000Z');
    expect(csvRecords(r.stdout).map((x) => x.call_id)).toEqual(['call_000003', 'call_000004']);
  });
});

describe('call export: files', () => {
  it('writes --out through a temporary file renamed at the end', async () => {
    const s = await server(many(5));
    const d = dir();
    const out = join(d, 'calls.csv');
    const r = await run(['call', 'export', '--out', out], { env: env(s) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(d)).toEqual(['calls.csv']);
    const rows = csvRecords(readFileSync(out, 'utf8'));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({ call_id: 'call_000000', contact_name: 'Contact 0', 'extra.city': 'Delhi', 'extra.idx': '0' });
  });

  it('leaves nothing at --out when a page fails half-way (exit 1)', async () => {
    const s = await server(many(1000), {
      beforePage: (offset, _n, res) => {
        if (offset === 400) {
          send(res, 500, { error: 'database on fire', status_code: 500 });
          return true;
        }
      },
    });
    const d = dir();
    const out = join(d, 'calls.csv');
    writeFileSync(join(d, 'other.txt'), 'keep me');
    const r = await run(['call', 'export', '--out', out, '--concurrency', '1'], { env: env(s) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('database on fire');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(d)).toEqual(['other.txt']);
  });

  it('keeps an older file at --out untouched when the new export fails', async () => {
    const s = await server(many(300), {
      beforePage: (offset, _n, res) => {
        if (offset === 200) {
          send(res, 500, { error: 'nope', status_code: 500 });
          return true;
        }
      },
    });
    const d = dir();
    const out = join(d, 'calls.jsonl');
    writeFileSync(out, 'yesterday\n');
    const r = await run(['call', 'export', '--out', out], { env: env(s) });
    expect(r.exitCode).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('yesterday\n');
  });

  it('exits 130 on Ctrl-C and removes the temporary file', async () => {
    const ac = new AbortController();
    const s = await server(many(1000), {
      beforePage: async (offset) => {
        if (offset === 400) {
          ac.abort();
          await new Promise((r) => setTimeout(r, 50));
        }
      },
    });
    const d = dir();
    const out = join(d, 'calls.csv');
    const r = await run(['call', 'export', '--out', out, '--concurrency', '1'], { env: env(s), signal: ac.signal });
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('was not written');
    expect(readdirSync(d)).toEqual([]);
  });

  it('picks JSONL from the --out extension', async () => {
    const s = await server(many(3));
    const out = join(dir(), 'calls.jsonl');
    const r = await run(['call', 'export', '--out', out], { env: env(s) });
    expect(r.exitCode).toBe(0);
    expect(ids(readFileSync(out, 'utf8'))).toHaveLength(3);
  });

  it('draws a progress bar only when stderr is a terminal', async () => {
    const s = await server(many(400));
    const out = join(dir(), 'calls.csv');
    const tty = await run(['call', 'export', '--out', out], { env: env(s), tty: { stdout: false, stderr: true } });
    expect(tty.exitCode).toBe(0);
    expect(tty.stderr).toMatch(/Exporting .*\/400 rows/);
    const plain = await run(['call', 'export', '--out', out], { env: env(s) });
    expect(plain.stderr).not.toContain('Exporting');
  });
});

describe('call export: transcripts and recordings', () => {
  it('adds transcripts, one request per call, order kept', async () => {
    const s = await server(many(30));
    const r = await run(['call', 'export', '--format', 'jsonl', '--transcripts', '--concurrency', '5'], { env: env(s) });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { call_id: string; transcript: Array<{ text: string }> });
    expect(lines.map((l) => l.call_id)).toEqual(many(30).map((c) => c.call_id));
    expect(lines.every((l) => l.transcript[0]!.text === `Hello ${l.call_id}`)).toBe(true);
    expect(s.requests.filter((q) => /^\/calls\/call_/.test(q.path))).toHaveLength(30);

    const csv = await run(['call', 'export', '--transcripts'], { env: env(s) });
    expect(csvRecords(csv.stdout)[2]!.transcript).toBe('00:00 Agent: Hello call_000002');
  });

  it('downloads recordings by call id from another host, without the key, skipping files already there', async () => {
    const storage = await server([]);
    const s = await server([...many(4), makeCall(4, { has_recording: false })], {
      recordingBody: (call) => ({ data: { signed_url: `${storage.url}/audio/${call.call_id}?X-Sig=1`, expires_at: '2030-01-01T00:00:00Z' } }),
    });
    const d = dir();
    const rec = join(d, 'rec');
    mkdirSync(rec);
    writeFileSync(join(rec, 'call_000001.wav'), 'already here');
    const r = await run(['call', 'export', '--out', join(d, 'calls.csv'), '--recordings', rec], { env: env(s) });
    expect(r.exitCode).toBe(0);
    expect(readdirSync(rec).sort()).toEqual(['call_000000.mp3', 'call_000001.wav', 'call_000002.mp3', 'call_000003.mp3']);
    expect(readFileSync(join(rec, 'call_000002.mp3'))).toEqual(Buffer.alloc(4096, 'call_000002'));
    expect(r.stderr).toContain('3 recordings downloaded');

    const again = await run(['call', 'export', '--recordings', rec], { env: env(s) });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('0 recordings downloaded, 4 already there');

    expect(storage.requests.length).toBeGreaterThan(0);
    expect(storage.requests.every((q) => q.headers['x-api-key'] === undefined)).toBe(true);
    // A fresh link per call, and none for a call whose file is already there.
    expect(s.requests.filter((q) => q.path.endsWith('/recording-url')).map((q) => q.path).sort()).toEqual(
      ['/calls/call_000000/recording-url', '/calls/call_000002/recording-url', '/calls/call_000003/recording-url'],
    );
  });
});
