import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { abortAt, envFor, failAt, fakeServer, makeCall, manyCalls, type FakeServer } from './fake-server.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const t = scratch('voicectl-export-');
const server = (...args: Parameters<typeof fakeServer>) => t.closing(fakeServer(...args));
const dir = t.dir;
const ids = (jsonl: string) => jsonl.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { call_id: string }).call_id);
const csvRecords = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

/** Exports everything as JSONL with `concurrency` pages in flight; the ids, each checked to appear once. */
async function exportedOnce(s: FakeServer, concurrency: number): Promise<string[]> {
  const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', String(concurrency)], { env: envFor(s) });
  expect(r.exitCode).toBe(0);
  const got = ids(r.stdout);
  expect(new Set(got).size).toBe(got.length);
  return got;
}

describe('call export: pages', () => {
  it('writes every call once, in the server\'s order, fetching pages concurrently', async () => {
    const s = await server(manyCalls(1001));
    const r = await run(['call', 'export', '--format', 'jsonl', '--concurrency', '4'], { env: envFor(s) });
    expect(r.stderr).toContain('Exported 1,001 calls');
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toEqual(manyCalls(1001).map((c) => c.call_id));
    const pages = s.requests.filter((q) => q.path === '/calls');
    expect(pages.map((q) => q.query.get('limit'))).toEqual(Array(6).fill('200'));
    expect(pages.map((q) => Number(q.query.get('offset'))).sort((a, b) => a - b)).toEqual([0, 200, 400, 600, 800, 1000]);
  });

  it('keeps every call exactly once while new ones arrive at the end (oldest first)', async () => {
    const s = await server(manyCalls(900), {
      beforePage: (_offset, n) => {
        if (n === 3) s.calls.push(...manyCalls(250, 900));
      },
    });
    const got = await exportedOnce(s, 2);
    expect(got).toEqual(manyCalls(1150).map((c) => c.call_id));
  });

  it('keeps every call exactly once while new ones push older ones back (newest first)', async () => {
    const s = await server(manyCalls(900), {
      newestFirst: true,
      beforePage: (_offset, n) => {
        // 130 new calls land in front while page 2 is read: every later page shifts by 130.
        if (n === 2) s.calls.push(...manyCalls(130, 900));
      },
    });
    const got = await exportedOnce(s, 1);
    for (const c of manyCalls(900)) expect(got).toContain(c.call_id);
  });

  it('misses no call when a later page is served before an earlier one while calls join (pages in flight)', async () => {
    // The page at offset 200 is held back until the one at 400 has been served; then 150
    // calls join near the front, pushing the last calls of that page into the next one,
    // which was already read.
    let servedLater = false;
    const s = await server(manyCalls(1000), {
      beforePage: async (offset) => {
        if (offset === 400) servedLater = true;
        if (offset !== 200) return;
        for (let i = 0; i < 200 && !servedLater; i++) await new Promise((r) => setTimeout(r, 5));
        s.calls.splice(50, 0, ...manyCalls(150, 5000).map((c, i) => ({ ...c, call_id: `call_mid_${i}` })));
      },
    });
    const got = await exportedOnce(s, 3);
    const missing = manyCalls(1000).map((c) => c.call_id).filter((id) => !got.includes(id));
    expect(missing).toEqual([]);
  });

  it('keeps every call exactly once while calls join the middle of a filtered list', async () => {
    const s = await server(manyCalls(1000), {
      beforePage: (_offset, n) => {
        // 150 calls that started early (they just finished, say) join between existing ones.
        if (n === 2) s.calls.splice(100, 0, ...manyCalls(150, 5000).map((c, i) => ({ ...c, start_time: manyCalls(1, 100)[0]!.start_time, call_id: `call_mid_${i}` })));
      },
    });
    const got = await exportedOnce(s, 3);
    for (const c of manyCalls(1000)) expect(got).toContain(c.call_id);
  });

  it('follows a server that caps the page size without saying so', async () => {
    const s = await server(manyCalls(230), { maxLimit: 50, hideLimit: true });
    const r = await run(['call', 'export', '--format', 'jsonl'], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toEqual(manyCalls(230).map((c) => c.call_id));
  });

  it('reads page after page when the server sends no total', async () => {
    const s = await server(manyCalls(450), { hideTotal: true });
    const r = await run(['call', 'export', '--format', 'jsonl'], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toHaveLength(450);
    expect(s.requests.filter((q) => q.path === '/calls')).toHaveLength(3);
  });

  it('passes the filters on, times in UTC', async () => {
    const s = await server(manyCalls(10));
    const r = await run(['call', 'export', '--campaign', 'camp_1', '--status', 'completed', '--since', '2024-05-01T09:03', '--until', '2024-05-01T09:05:00+00:00'], { env: envFor(s) });
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
    const s = await server(manyCalls(5));
    const d = dir();
    const out = join(d, 'calls.csv');
    const r = await run(['call', 'export', '--out', out], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(d)).toEqual(['calls.csv']);
    const rows = csvRecords(readFileSync(out, 'utf8'));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({ call_id: 'call_000000', contact_name: 'Contact 0', 'extra.city': 'Delhi', 'extra.idx': '0' });
  });

  it('picks JSONL from the --out extension', async () => {
    const s = await server(manyCalls(3));
    const out = join(dir(), 'calls.jsonl');
    const r = await run(['call', 'export', '--out', out], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    expect(ids(readFileSync(out, 'utf8'))).toHaveLength(3);
  });

  it('draws a progress bar only when stderr is a terminal', async () => {
    const s = await server(manyCalls(400));
    const out = join(dir(), 'calls.csv');
    const tty = await run(['call', 'export', '--out', out], { env: envFor(s), tty: { stdout: false, stderr: true } });
    expect(tty.exitCode).toBe(0);
    expect(tty.stderr).toMatch(/Exporting .*\/400 rows/);
    const plain = await run(['call', 'export', '--out', out], { env: envFor(s) });
    expect(plain.stderr).not.toContain('Exporting');
  });
});

describe.each(['calls.csv', 'calls.jsonl', 'calls.xlsx'])('call export --out %s that does not finish', (name) => {
  it('leaves nothing at --out, and an older file there untouched, when a page fails half-way (exit 1)', async () => {
    const s = await server(manyCalls(1000), { beforePage: failAt(400, 'database on fire') });
    const d = dir();
    const out = join(d, name);
    writeFileSync(join(d, 'other.txt'), 'keep me');
    const r = await run(['call', 'export', '--out', out, '--concurrency', '1'], { env: envFor(s) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('database on fire');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(d)).toEqual(['other.txt']);

    writeFileSync(out, 'yesterday\n');
    expect((await run(['call', 'export', '--out', out], { env: envFor(s) })).exitCode).toBe(1);
    expect(readdirSync(d).sort()).toEqual([name, 'other.txt']);
    expect(readFileSync(out, 'utf8')).toBe('yesterday\n');
  });

  it('exits 130 on Ctrl-C and removes the temporary file', async () => {
    const ac = new AbortController();
    const s = await server(manyCalls(1000), { beforePage: abortAt(400, ac) });
    const d = dir();
    const r = await run(['call', 'export', '--out', join(d, name), '--concurrency', '1'], { env: envFor(s), signal: ac.signal });
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('was not written');
    expect(readdirSync(d)).toEqual([]);
  });
});

describe('call export: transcripts and recordings', () => {
  it('adds transcripts, one request per call, order kept', async () => {
    const s = await server(manyCalls(30));
    const r = await run(['call', 'export', '--format', 'jsonl', '--transcripts', '--concurrency', '5'], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { call_id: string; transcript: Array<{ text: string }> });
    expect(lines.map((l) => l.call_id)).toEqual(manyCalls(30).map((c) => c.call_id));
    expect(lines.every((l) => l.transcript[0]!.text === `Hello ${l.call_id}`)).toBe(true);
    expect(s.requests.filter((q) => /^\/calls\/call_/.test(q.path))).toHaveLength(30);

    const csv = await run(['call', 'export', '--transcripts'], { env: envFor(s) });
    expect(csvRecords(csv.stdout)[2]!.transcript).toBe('00:00 Agent: Hello call_000002');
  });

  it('downloads recordings by call id from another host, without the key, skipping files already there', async () => {
    const storage = await server([]);
    const s = await server([...manyCalls(4), makeCall(4, { has_recording: false })], {
      recordingBody: (call) => ({ data: { signed_url: `${storage.url}/audio/${call.call_id}?X-Sig=1`, expires_at: '2030-01-01T00:00:00Z' } }),
    });
    const d = dir();
    const rec = join(d, 'rec');
    mkdirSync(rec);
    writeFileSync(join(rec, 'call_000001.wav'), 'already here');
    const r = await run(['call', 'export', '--out', join(d, 'calls.csv'), '--recordings', rec], { env: envFor(s) });
    expect(r.exitCode).toBe(0);
    expect(readdirSync(rec).sort()).toEqual(['call_000000.mp3', 'call_000001.wav', 'call_000002.mp3', 'call_000003.mp3']);
    expect(readFileSync(join(rec, 'call_000002.mp3'))).toEqual(Buffer.alloc(4096, 'call_000002'));
    expect(r.stderr).toContain('3 recordings downloaded');

    const again = await run(['call', 'export', '--recordings', rec], { env: envFor(s) });
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
