import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { MarkTracker, readState, writeState, type ExportState } from '../../src/export/state.js';
import { fakeServer, makeCall, manyCalls, type FakeServer } from './fake-server.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const t = scratch('voicectl-export-');
const dir = t.dir;

const now = new Date('2024-05-01T12:00:00Z');
const at = (iso: string, id: string, over: Partial<Call> = {}): Call => makeCall(0, { call_id: id, start_time: iso, ...over });

describe('MarkTracker', () => {
  it('marks the latest start and the ids sharing it', () => {
    const t = new MarkTracker(undefined, now.getTime());
    for (const c of [at('2024-05-01T10:00:00Z', 'a'), at('2024-05-01T11:00:00Z', 'b'), at('2024-05-01T11:00:00Z', 'c'), at('2024-05-01T10:30:00Z', 'd')]) {
      expect(t.decide(c)).toBe('export');
    }
    const s = t.next({}, 4, now);
    expect(s.mark).toBe('2024-05-01T11:00:00.000Z');
    expect(s.ids.sort()).toEqual(['b', 'c']);
  });

  it('skips what the last run exported at the mark, keeps its newcomers, and drops older calls', () => {
    const prev: ExportState = { version: 1, mark: '2024-05-01T11:00:00.000Z', ids: ['b', 'c'], updated_at: '' };
    const t = new MarkTracker(prev, now.getTime());
    expect(t.decide(at('2024-05-01T10:59:59Z', 'old'))).toBe('old');
    expect(t.decide(at('2024-05-01T11:00:00Z', 'b'))).toBe('known');
    expect(t.decide(at('2024-05-01T11:00:00Z', 'late-at-same-time'))).toBe('export');
    const s = t.next({}, 1, now);
    expect(s.mark).toBe('2024-05-01T11:00:00.000Z');
    expect(s.ids.sort()).toEqual(['b', 'late-at-same-time']);
  });

  it('holds calls still in progress and keeps the mark at the earliest of them', () => {
    const t = new MarkTracker(undefined, now.getTime());
    expect(t.decide(at('2024-05-01T11:00:00Z', 'done1'))).toBe('export');
    expect(t.decide(at('2024-05-01T11:05:00Z', 'live', { status: 'initiated', end_time: null }))).toBe('live');
    expect(t.decide(at('2024-05-01T11:10:00Z', 'done2'))).toBe('export');
    const s = t.next({}, 2, now);
    expect(s.mark).toBe('2024-05-01T11:05:00.000Z');
    expect(s.ids).toEqual(['done2']);

    const next = new MarkTracker(s, now.getTime());
    expect(next.decide(at('2024-05-01T11:05:00Z', 'live', { status: 'completed' }))).toBe('export');
    expect(next.decide(at('2024-05-01T11:10:00Z', 'done2'))).toBe('known');
    expect(next.next({}, 1, now).mark).toBe('2024-05-01T11:10:00.000Z');
  });

  it('exports a call stuck "in progress" for hours as it is', () => {
    const t = new MarkTracker(undefined, now.getTime());
    expect(t.decide(at('2024-05-01T02:00:00Z', 'stuck', { status: 'initiated' }))).toBe('export');
  });

  it('keeps the previous mark when nothing was seen', () => {
    const prev: ExportState = { version: 1, mark: '2024-05-01T11:00:00.000Z', ids: ['b'], updated_at: '' };
    const s = new MarkTracker(prev, now.getTime()).next({}, 0, now);
    expect(s).toMatchObject({ mark: prev.mark, ids: ['b'] });
  });
});

describe('state file', () => {
  it('reads nothing when the file does not exist, and round-trips what it wrote', async () => {
    const d = dir();
    const file = join(d, 'state.json');
    expect(await readState(file)).toBeUndefined();
    await writeState(file, { version: 1, mark: '2024-05-01T11:00:00.000Z', ids: ['x'], updated_at: now.toISOString() });
    expect(await readState(file)).toMatchObject({ mark: '2024-05-01T11:00:00.000Z', ids: ['x'] });
    expect(readdirSync(d)).toEqual(['state.json']);
  });

  it('refuses a file that is not a state (exit 2 from the command)', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, '{"hello": 1}');
    await expect(readState(file)).rejects.toThrow(/not a voicectl export state/);
    writeFileSync(file, 'not json');
    await expect(readState(file)).rejects.toThrow(/not valid JSON/);
  });
});

describe('call export --since-last', () => {
  let s: FakeServer;
  const env = () => ({ VOICECTL_BASE_URL: s.url, VOICECTL_API_KEY: 'sk_test' });
  const exported = (text: string) => text.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as Call).call_id);

  it('exports everything first, then only newer calls, never losing calls that share the mark\'s time', async () => {
    s = await t.closing(fakeServer(manyCalls(250)));
    const d = dir();
    const state = join(d, 'state.json');
    const exportSinceLast = () => run(['call', 'export', '--since-last', '--state', state, '--format', 'jsonl'], { env: env(), now: () => new Date('2024-05-01T14:00:00Z') });

    const first = await exportSinceLast();
    expect(first.exitCode).toBe(0);
    expect(exported(first.stdout)).toHaveLength(250);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as ExportState;
    expect(saved.mark).toBe(makeCall(249).start_time);
    expect(saved.ids).toEqual(['call_000249']);

    // A call at exactly the mark's time that the first run could not see, and three newer ones.
    s.calls.push(makeCall(249, { call_id: 'call_same_time' }), makeCall(250), makeCall(251), makeCall(252, { status: 'initiated', end_time: null }));
    const second = await exportSinceLast();
    expect(second.exitCode).toBe(0);
    expect(exported(second.stdout)).toEqual(['call_same_time', 'call_000250', 'call_000251']);
    expect(second.stderr).toContain('1 still in progress');
    expect(s.requests.filter((q) => q.path === '/calls').at(-1)!.query.get('since')).toBe(saved.mark);

    // The live call finishes: the next run exports it and nothing else.
    s.calls[s.calls.length - 1] = makeCall(252);
    const third = await exportSinceLast();
    expect(exported(third.stdout)).toEqual(['call_000252']);
    const fourth = await exportSinceLast();
    expect(exported(fourth.stdout)).toEqual([]);
  });

  it('does not move the mark when the export fails', async () => {
    let fail = false;
    s = await t.closing(fakeServer(manyCalls(450), {
      beforePage: (offset, _n, res) => {
        if (fail && offset === 200) {
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
          return true;
        }
      },
    }));
    const state = join(dir(), 'state.json');
    const args = ['call', 'export', '--since-last', '--state', state, '--format', 'jsonl'];
    writeFileSync(state, JSON.stringify({ version: 1, mark: makeCall(10).start_time, ids: ['call_000010'], updated_at: '' }));
    const before = readFileSync(state, 'utf8');
    fail = true;
    const r = await run(args, { env: env() });
    expect(r.exitCode).toBe(1);
    expect(readFileSync(state, 'utf8')).toBe(before);
  });

  it('warns when the state was made with other filters', async () => {
    s = await t.closing(fakeServer([makeCall(1)]));
    const state = join(dir(), 'state.json');
    const args = ['call', 'export', '--since-last', '--state', state, '--format', 'jsonl'];
    expect((await run(args, { env: env() })).stderr).not.toContain('other filters');
    const r = await run([...args, '--campaign', 'camp_1'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('was written by an export with other filters (no filters); this one has --campaign camp_1');
  });

  it('is a usage error without --state', async () => {
    const r = await run(['call', 'export', '--since-last'], { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'k' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--since-last needs --state');
  });
});
