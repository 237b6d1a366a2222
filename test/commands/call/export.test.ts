import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import Papa from 'papaparse';
import { baseEnv, BIN, type Harness, harness, runCli, sharedHarness } from '../../helpers/cli.js';
import { campaignDone, type ContactIn, contacts, givenAgent, givenLaunchedCampaign, listedIds } from '../../helpers/given.js';
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
});
