/**
 * The poll of `listen --from-api`, against a fake API: which events a poll emits, and where
 * the cursor goes (never past a call that may still owe an event).
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { freshCursor, poll } from '../../src/events/from-api.js';
import type { RebuiltEvent } from '../../src/events/rebuild.js';

const T = Date.parse('2026-03-02T05:00:00.000Z');
const iso = (s: number) => new Date(T + s * 1000).toISOString();

function call(id: string, start: number, end?: number, recording = false): Record<string, unknown> {
  return {
    call_id: id, campaign_id: 'k1', status: end === undefined ? 'initiated' : 'completed', start_time: iso(start),
    end_time: end === undefined ? null : iso(end), has_recording: recording, contact: { name: 'A', extra: null },
  };
}

function fakeApi(state: { calls: Array<Record<string, unknown>>; campaign: Record<string, unknown> | null; queries: string[] }): ApiClient {
  return {
    baseUrl: 'http://api.test',
    url: (p: string) => `http://api.test${p}`,
    async *paginate(_path: string, _key: string, o: { query?: Record<string, unknown> }) {
      const since = Date.parse(String(o.query?.since));
      state.queries.push(String(o.query?.since));
      yield* state.calls.filter((c) => Date.parse(String(c.start_time)) >= since);
    },
    async get(path: string) {
      if (!state.campaign) throw new ApiError({ kind: 'http', status: 404, method: 'GET', url: path, message: 'not found' });
      return state.campaign;
    },
  } as unknown as ApiClient;
}

describe('listen --from-api: one poll', () => {
  it('emits each event once, holds the cursor at a call still running, and moves on once it ends', async () => {
    const state = { calls: [call('a', 0), call('b', 10, 40, true)], campaign: { id: 'k1', status: 'running' } as Record<string, unknown> | null, queries: [] as string[] };
    const api = fakeApi(state);
    const seen = new Set<string>();
    const out: RebuiltEvent[] = [];
    const deps = { api, seen, emit: async (e: RebuiltEvent) => (out.push(e), true), now: () => new Date(T + 3_600_000) };
    let r = await poll(freshCursor('http://api.test', new Date(T - 60_000)), deps);
    expect(out.map((e) => `${e.type} ${e.data.call_id}`)).toEqual(['call.ended b', 'call.recording_ready b']);
    expect(r.cursor.since).toBe(iso(0));
    expect(r.cursor.campaigns).toEqual(['k1']);

    state.calls[0] = call('a', 0, 30, true);
    state.campaign = { id: 'k1', status: 'completed', contacts_by_status: { completed: 2 } };
    r = await poll(r.cursor, deps);
    expect(out.map((e) => `${e.type} ${e.data.call_id ?? e.data.id}`)).toEqual([
      'call.ended b', 'call.recording_ready b', 'call.ended a', 'call.recording_ready a', 'campaign.completed k1',
    ]);
    expect(r.cursor.since).toBe(iso(10));
    expect(r.cursor.campaigns).toEqual([]);
    r = await poll(r.cursor, deps);
    expect(out).toHaveLength(5);
    expect(out.every((e) => e.id.startsWith('evt_reconciled_'))).toBe(true);
  });

  it('waits for a recording a while after the end, and holds the cursor at an event that could not be handled', async () => {
    const state = { calls: [call('a', 0, 20), call('b', 30, 60, true)], campaign: null, queries: [] as string[] };
    const api = fakeApi(state);
    let refuse = true;
    const out: string[] = [];
    const deps = {
      api, seen: new Set<string>(), now: () => new Date(T),
      emit: async (e: RebuiltEvent) => {
        if (refuse && e.data.call_id === 'b') return false;
        out.push(`${e.type} ${e.data.call_id}`);
        return true;
      },
    };
    let r = await poll(freshCursor('http://api.test', new Date(T)), deps);
    // a ended 40 s before the newest time seen, without a recording yet: the cursor stays at it.
    expect(r.cursor.since).toBe(iso(0));
    expect(r.cursor.campaigns).toEqual([]); // the campaign read 404: nothing will come of it
    refuse = false;
    state.calls.push(call('c', 1200, 1300));
    r = await poll(r.cursor, deps);
    expect(out).toEqual(['call.ended a', 'call.ended b', 'call.recording_ready b', 'call.ended c']);
    // a's recording is no longer waited for (ended 21 minutes before the newest time); c's is.
    expect(r.cursor.since).toBe(iso(1200));
  });
});
