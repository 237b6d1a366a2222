import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import Papa from 'papaparse';
import { baseEnv, BIN, type Harness, harness, runCli, sharedHarness } from '../../helpers/cli.js';
import { allCalls, campaignDone, type ContactIn, contacts, givenAgent, givenFinishedCampaign, givenLaunchedCampaign, listedIds, plantCalls } from '../../helpers/given.js';
import { fileMetadata, readFolder } from '../../helpers/parquet-reader.js';
import { fakeServer, makeCall, send } from '../../export/fake-server.js';
import { tempDir, tempDirs } from '../../helpers/temp.js';
import { readSheet } from 'read-excel-file/node';
import { seedCalls } from '../../../src/sandbox/index.js';

describe('the built binary', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0).reverse()) await f();
  });
  const dir = tempDirs('voicectl-export-');
  const csv = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
  /** A campaign launched under one agent of the harness's sandbox (made on first use). */
  const agents = new WeakMap<Harness, Promise<string>>();
  async function launched(h: Harness, list: ContactIn[]): Promise<string> {
    if (!agents.has(h)) agents.set(h, givenAgent(h.api).then((a) => a.id));
    return (await givenLaunchedCampaign(h.api, { agentId: await agents.get(h)!, contacts: list })).id;
  }
  const jsonlIds = (text: string) => text.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { call_id: string }).call_id);

  describe('call export against the sandbox', () => {
    const h = sharedHarness();

    it('escapes formulas and quotes awkward text, with the contact\'s extra as columns', async () => {
      const hostile = [
        { phone_number: '+919812345601', name: '=HYPERLINK("http://evil.example","click")', extra: { note: '+SUM(1,2)', city: 'Pune, MH' } },
        { phone_number: '+919812345602', name: '@import', extra: { note: 'said "call me"\nlater', city: '-1+1' } },
        { phone_number: '+919812345603', name: 'Ravi Kumar', extra: { note: 'plain', city: 'Delhi', vip: true } },
      ];
      const id = await launched(h, hostile);
      await campaignDone(h.api, id);
      const out = join(dir(), 'calls.csv');
      const r = await h.run(['call', 'export', '--campaign', id, '--out', out]);
      expect(r.exitCode).toBe(0);
      const rows = csv(readFileSync(out, 'utf8'));
      expect(rows).toHaveLength(3);
      const byPhone = Object.fromEntries(rows.map((row) => [row.phone_number, row]));
      expect(byPhone['+919812345601']).toMatchObject({ contact_name: '\'=HYPERLINK("http://evil.example","click")', 'extra.note': '\'+SUM(1,2)', 'extra.city': 'Pune, MH' });
      expect(byPhone['+919812345602']).toMatchObject({ contact_name: '\'@import', 'extra.note': 'said "call me"\nlater', 'extra.city': '\'-1+1' });
      expect(byPhone['+919812345603']).toMatchObject({ contact_name: 'Ravi Kumar', 'extra.vip': 'true' });
      // A summary that quotes the contact's name must not turn into a formula either.
      for (const row of rows) for (const v of Object.values(row)) expect(v).not.toMatch(/^[=@]|^\+[^0-9]/);
    });

    it('exports incrementally: the second run has only the calls since the first', async () => {
      const d = dir();
      const state = join(d, 'state.json');
      const a = await launched(h, contacts(25, 100));
      await campaignDone(h.api, a);
      const run = (file: string) => h.run(['call', 'export', '--since-last', '--state', state, '--out', join(d, file), '--format', 'jsonl']);

      const first = await run('1.jsonl');
      expect(first.exitCode).toBe(0);
      const firstIds = jsonlIds(readFileSync(join(d, '1.jsonl'), 'utf8'));
      expect(new Set(firstIds)).toEqual(new Set(await listedIds(h.api)));
      expect(JSON.parse(readFileSync(state, 'utf8')).ids.length).toBeGreaterThan(0);

      const b = await launched(h, contacts(15, 200));
      await campaignDone(h.api, b);
      const second = await run('2.jsonl');
      expect(second.exitCode).toBe(0);
      const secondIds = jsonlIds(readFileSync(join(d, '2.jsonl'), 'utf8'));
      expect(new Set(secondIds)).toEqual(new Set(await listedIds(h.api, { campaign_id: b })));

      const third = await run('3.jsonl');
      expect(third.exitCode).toBe(0);
      expect(readFileSync(join(d, '3.jsonl'), 'utf8')).toBe('');
    });

    it('is exit 2 for --since-last without --state', async () => {
      const r = await h.run(['call', 'export', '--since-last']);
      expect(r.exitCode).toBe(2);
    });

    it('downloads each recorded call\'s audio by call id, and skips it the next time', async () => {
      const id = await launched(h, contacts(8, 300));
      await campaignDone(h.api, id);
      // Recordings are saved a few simulated seconds after each call ends.
      await new Promise((r) => setTimeout(r, 300));
      const d = dir();
      const rec = join(d, 'rec');
      const r = await h.run(['call', 'export', '--campaign', id, '--out', join(d, 'calls.csv'), '--recordings', rec]);
      expect(r.exitCode).toBe(0);
      const recorded = csv(readFileSync(join(d, 'calls.csv'), 'utf8')).filter((row) => row.has_recording === 'true').map((row) => `${row.call_id}.wav`);
      expect(recorded.length).toBeGreaterThan(0);
      expect(readdirSync(rec).sort()).toEqual(recorded.sort());
      expect(readFileSync(join(rec, recorded[0]!)).subarray(0, 4).toString()).toBe('RIFF');
      const again = await h.run(['call', 'export', '--campaign', id, '--recordings', rec]);
      expect(again.stderr).toContain(`0 recordings downloaded, ${recorded.length} already there`);
    });
  });

  describe('call export while calls keep arriving', () => {
    let h: Harness;
    beforeAll(async () => {
      // Slow pages and a moderate clock: campaigns start and calls finish while the export runs.
      h = await harness({ timeScale: 60, latencyMs: 40 });
    });
    afterAll(async () => h.close());

    it('writes every call exactly once, and every call that existed when it started', async () => {
      // Campaigns started a little apart: their calls end in a different order than they
      // started, so `--status completed` gains calls in the middle of the list while it is read.
      const started: string[] = [];
      for (let i = 0; i < 6; i++) {
        started.push(await launched(h, contacts(300, 1000 + i * 300)));
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 800));
      const before = await listedIds(h.api);
      const completedBefore = await listedIds(h.api, { status: 'completed' });
      const d = dir();
      const all = execa(process.execPath, [BIN, 'call', 'export', '--format', 'jsonl', '--out', join(d, 'all.jsonl'), '--concurrency', '4'], { env: h.env, extendEnv: false, reject: false });
      const done = execa(process.execPath, [BIN, 'call', 'export', '--status', 'completed', '--format', 'jsonl', '--out', join(d, 'done.jsonl'), '--concurrency', '2'], { env: h.env, extendEnv: false, reject: false });
      for (let i = 0; i < 4; i++) {
        started.push(await launched(h, contacts(100, 5000 + i * 100)));
        await new Promise((r) => setTimeout(r, 100));
      }
      const [ra, rd] = await Promise.all([all, done]);
      expect(ra.stderr).toContain('Exported');
      expect(ra.exitCode).toBe(0);
      expect(rd.exitCode).toBe(0);

      for (const c of started) await campaignDone(h.api, c);
      const finalAll = new Set(await listedIds(h.api));
      const finalDone = new Set(await listedIds(h.api, { status: 'completed' }));

      const gotAll = jsonlIds(readFileSync(join(d, 'all.jsonl'), 'utf8'));
      expect(new Set(gotAll).size).toBe(gotAll.length);
      const setAll = new Set(gotAll);
      for (const id of before) expect(setAll.has(id)).toBe(true);
      for (const id of gotAll) expect(finalAll.has(id)).toBe(true);

      const gotDone = jsonlIds(readFileSync(join(d, 'done.jsonl'), 'utf8'));
      if (process.env.EXPORT_DIAG) console.log({ before: before.length, completedBefore: completedBefore.length, gotAll: gotAll.length, gotDone: gotDone.length, finalAll: finalAll.size, finalDone: finalDone.size });
      expect(new Set(gotDone).size).toBe(gotDone.length);
      const setDone = new Set(gotDone);
      for (const id of completedBefore) expect(setDone.has(id)).toBe(true);
      for (const id of gotDone) expect(finalDone.has(id)).toBe(true);

      // Re-exported at the end, everything is there once.
      const final = await h.run(['call', 'export', '--format', 'jsonl']);
      const finalIds = jsonlIds(final.stdout);
      expect(finalIds).toHaveLength(finalAll.size);
      expect(new Set(finalIds)).toEqual(finalAll);
    }, 60_000);

    it('exits 130 on Ctrl-C and leaves no file behind', async () => {
      const d = dir();
      const out = join(d, 'calls.csv');
      const child = execa(process.execPath, [BIN, 'call', 'export', '--out', out, '--concurrency', '1'], { env: h.env, extendEnv: false, reject: false });
      // Interrupt once the temporary file exists: the export is under way.
      const until = Date.now() + 15_000;
      while (!readdirSync(d).some((n) => n.endsWith('.tmp')) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(readdirSync(d)).toEqual([]);
    });
  });

  describe('call export against a server that fails half-way', () => {
    it('leaves no file at --out (exit 1)', async () => {
      const s = await fakeServer(Array.from({ length: 1000 }, (_, i) => makeCall(i)), {
        beforePage: (offset, _n, res) => {
          if (offset === 400) {
            send(res, 500, { error: 'internal error', status_code: 500 });
            return true;
          }
        },
      });
      cleanups.push(() => s.close());
      const d = dir();
      const out = join(d, 'calls.csv');
      const r = await runCli(['call', 'export', '--out', out, '--concurrency', '2'], { ...baseEnv(d), VOICECTL_BASE_URL: s.url, VOICECTL_API_KEY: 'sk_test' });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('internal error');
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(d).filter((n) => n.includes('calls.csv'))).toEqual([]);
    });
  });
});

describe('xlsx, the built binary', () => {
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

  describe('call export --format parquet: a folder by UTC start day, each call once', () => {
    // Its own sandbox: 1,500 calls over 30 days, and a campaign whose contacts speak Hindi.
    const h = sharedHarness();
    const dir = tempDirs('voicectl-parquet-');
    let campaignId = '';
    beforeAll(async () => {
      seedCalls(h.sandbox.world, h.sandbox.world.keys.get(h.sandbox.apiKey)!.org, 1500);
      const people = [
        { phone_number: '+919812340001', name: 'प्रिया शर्मा', extra: { city: 'पुणे', lead: { id: 7, tags: ['vip'] } } },
        { phone_number: '+919812340002', name: 'Rahul bhai', extra: { note: 'kal call karo, abhi busy hoon' } },
        { phone_number: '+14155550100', name: 'Ann O\'Neil', extra: 'just text' },
      ];
      campaignId = (await givenFinishedCampaign(h.api, { contacts: people })).id;
    });
    const parquetFiles = (d: string) => (existsSync(d) ? readdirSync(d, { recursive: true }).map(String).filter((n) => n.endsWith('.parquet')) : []);

    it('writes DIR/date=YYYY-MM-DD/*.parquet that DuckDB reads back as exactly the service\'s calls, typed', async () => {
      const d = join(dir(), 'warehouse');
      const r = await h.run(['call', 'export', '--format', 'parquet', '--out', d]);
      expect(r.exitCode, r.stderr).toBe(0);
      const api = await allCalls(h.api);
      expect(r.stderr).toContain(`Exported ${api.length.toLocaleString('en-US')} calls to ${d}`);
      const back = await readFolder(d);
      // Each file sits in the partition of its calls' UTC start day, and every row's date says so.
      for (const f of back.files) expect(f).toMatch(/^date=\d{4}-\d{2}-\d{2}\/part-[0-9TZ]+-[0-9a-f]{6}-\d{4}\.parquet$/);
      for (const row of back.rows) {
        const day = (row.start_time as Date).toISOString().slice(0, 10);
        expect(String(row.filename)).toContain(`/date=${day}/`);
        expect((row.date as Date).toISOString().slice(0, 10)).toBe(day);
      }
      expect(new Set(back.files.map((f) => f.split('/')[0])).size).toBeGreaterThanOrEqual(30);
      expect(back.types).toMatchObject({
        call_id: 'VARCHAR', campaign_id: 'VARCHAR', agent_id: 'VARCHAR', phone_number: 'VARCHAR', status: 'VARCHAR', outcome: 'VARCHAR',
        duration_seconds: 'INTEGER', start_time: 'TIMESTAMP WITH TIME ZONE', end_time: 'TIMESTAMP WITH TIME ZONE', has_recording: 'BOOLEAN',
        summary: 'VARCHAR', contact_name: 'VARCHAR', extra: 'VARCHAR', date: 'DATE',
      });
      expect(back.types).not.toHaveProperty('transcript');
      // Exactly the service's calls: each once, each value as the API has it.
      expect(back.rows).toHaveLength(api.length);
      const byId = new Map(back.rows.map((row) => [row.call_id as string, row]));
      expect([...byId.keys()].sort()).toEqual(api.map((c) => c.call_id).sort());
      for (const c of api) {
        const row = byId.get(c.call_id)!;
        expect(row).toMatchObject({
          campaign_id: c.campaign_id, agent_id: c.agent_id, phone_number: c.phone_number, status: c.status,
          outcome: c.outcome ?? null, summary: c.summary ?? null, contact_name: c.contact?.name ?? null, has_recording: c.has_recording,
          duration_seconds: typeof c.duration_seconds === 'number' ? Math.round(c.duration_seconds) : null,
        });
        expect((row.start_time as Date).getTime()).toBe(Date.parse(c.start_time));
        expect(row.end_time === null ? null : (row.end_time as Date).getTime()).toBe(c.end_time ? Date.parse(c.end_time) : null);
        expect(row.extra === null ? null : JSON.parse(row.extra as string)).toEqual(c.contact?.extra ?? null);
      }
      const hindi = back.rows.find((row) => row.phone_number === '+919812340001')!;
      expect(hindi).toMatchObject({ contact_name: 'प्रिया शर्मा', campaign_id: campaignId });
      expect(JSON.parse(hindi.extra as string)).toEqual({ city: 'पुणे', lead: { id: 7, tags: ['vip'] } });
      expect(await fileMetadata(join(d, back.files[0]!))).toMatchObject({ 'voicectl.schema': 'voicectl.calls/1' });
    });

    it('adds the transcript as JSON text with --transcripts, and the usual filters apply', async () => {
      const d = join(dir(), 'one-campaign');
      const r = await h.run(['call', 'export', '--format', 'parquet', '--out', d, '--campaign', campaignId, '--transcripts']);
      expect(r.exitCode, r.stderr).toBe(0);
      const back = await readFolder(d);
      expect(back.rows.map((row) => row.call_id).sort()).toEqual((await listedIds(h.api, { campaign_id: campaignId })).sort());
      expect(back.types.transcript).toBe('VARCHAR');
      const one = await h.api('GET', `/calls/${back.rows[0]!.call_id as string}`);
      const call = one.body.call ?? one.body;
      expect(JSON.parse(back.rows[0]!.transcript as string)).toEqual(call.transcript);
    });

    it('runs again without writing a call twice: only calls new to the folder are added', async () => {
      const d = join(dir(), 'again');
      const state = join(dir(), 'again.state.json');
      const run = (...extra: string[]) => h.run(['call', 'export', '--format', 'parquet', '--out', d, ...extra]);
      expect((await run('--since-last', '--state', state)).exitCode).toBe(0);
      const before = parquetFiles(d);
      // Nothing new: nothing written, with or without the state file.
      const same = await run('--since-last', '--state', state);
      expect(same.exitCode, same.stderr).toBe(0);
      expect(same.stderr).toContain('0 new files');
      const full = await run();
      expect(full.exitCode).toBe(0);
      expect(full.stderr).toMatch(/Exported 0 calls .*; [\d,]+ calls already in the folder, not written again/);
      expect(parquetFiles(d)).toEqual(before);
      // New calls, on two new days and one old one: only they are added.
      const now = Date.now();
      const planted = plantCalls(h.sandbox, [now + 86_400_000, now + 2 * 86_400_000, now - 3 * 86_400_000], `call_again_${now}_`);
      const more = await run('--since-last', '--state', state);
      expect(more.exitCode, more.stderr).toBe(0);
      expect(more.stderr).toContain('Exported 2 calls');
      // --since-last asks only for calls since its mark: one that appeared with an older start
      // time is not asked for. A run without it reads the whole list and adds just that one.
      expect((await readFolder(d)).rows.map((row) => row.call_id)).not.toContain(planted[2]);
      const whole = await run();
      expect(whole.exitCode, whole.stderr).toBe(0);
      expect(whole.stderr).toContain('Exported 1 call ');
      const back = await readFolder(d);
      const ids = back.rows.map((row) => row.call_id as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual((await listedIds(h.api)).sort());
      for (const id of planted) expect(ids).toContain(id);
    }, 120_000);

    it('leaves each call once after SIGKILL right after a file lands, before the state is saved, and a rerun', async () => {
      const d = join(dir(), 'killed');
      const state = join(dir(), 'killed.state.json');
      const args = [BIN, 'call', 'export', '--format', 'parquet', '--out', d, '--since-last', '--state', state];
      const child = execa(process.execPath, args, { env: h.env, extendEnv: false, reject: false });
      const until = Date.now() + 30_000;
      while (parquetFiles(d).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
      child.kill('SIGKILL');
      const killed = await child;
      expect(killed.signal).toBe('SIGKILL');
      const landed = parquetFiles(d);
      expect(landed.length).toBeGreaterThan(0);
      // Whatever landed is whole: the independent reader reads every file.
      const partial = await readFolder(d);
      expect(partial.files).toEqual(landed.map((f) => f.split(sep).join('/')).sort());
      // Killed before the state was saved (or, had the run ended first, as if it had not been).
      rmSync(state, { force: true });
      const rerun = await h.run(args.slice(1));
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      const back = await readFolder(d);
      const ids = back.rows.map((row) => row.call_id as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual((await listedIds(h.api)).sort());
      // No temporary file is left once a run has finished.
      expect(readdirSync(d, { recursive: true }).map(String).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }, 120_000);

    it('refuses what it cannot do, with the reason and exit 2', async () => {
      const noOut = await h.run(['call', 'export', '--format', 'parquet']);
      expect(noOut.exitCode).toBe(2);
      expect(noOut.stderr).toContain('--format parquet writes a folder of files: it needs --out DIR.');
      const file = join(dir(), 'a-file');
      writeFileSync(file, 'x');
      const onFile = await h.run(['call', 'export', '--format', 'parquet', '--out', file]);
      expect(onFile.exitCode).toBe(2);
      expect(onFile.stderr).toContain('is a file: --format parquet writes a folder of files.');
      // A file that is not an export: the folder cannot say which calls it holds.
      const d = join(dir(), 'foreign');
      mkdirSync(join(d, 'date=2026-01-01'), { recursive: true });
      writeFileSync(join(d, 'date=2026-01-01', 'other.parquet'), 'not parquet at all');
      const foreign = await h.run(['call', 'export', '--format', 'parquet', '--out', d]);
      expect(foreign.exitCode).toBe(2);
      expect(foreign.stderr).toContain(`${join(d, 'date=2026-01-01', 'other.parquet')} cannot be read as a call export`);
      expect(foreign.stderr).not.toMatch(/\n\s+at /);
      for (const r of [noOut, onFile, foreign]) expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  });
});
