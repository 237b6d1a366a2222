/**
 * The `call tail` loop in process, on the injected clock: a failed poll is said once and
 * loses nothing, answers no retry can change end it, and Ctrl-C ends it quietly.
 */
import { describe, expect, it } from 'vitest';
import { testContext } from '../../src/context-test.js';
import { ApiError } from '../../src/api/errors.js';
import { NotFoundError } from '../../src/errors.js';
import { runTail } from '../../src/calls/tail-run.js';
import type { TailPage, TailQuery } from '../../src/calls/tail.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');

function call(id: string, start: number, end?: number): Record<string, unknown> {
  return { call_id: id, start_time: new Date(start).toISOString(), end_time: end ? new Date(end).toISOString() : null, status: end ? 'completed' : 'initiated' };
}

function setup(script: Array<(q: TailQuery) => TailPage | Error>, polls = script.length) {
  const abort = new AbortController();
  let now = T0;
  const sleeps: number[] = [];
  const ctx = testContext({
    now: () => new Date(now),
    signal: abort.signal,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
      // Ctrl-C after the scripted polls.
      if (sleeps.length >= polls) abort.abort();
    },
  });
  let i = 0;
  const source = {
    async calls(q: TailQuery): Promise<TailPage> {
      const step = script[Math.min(i++, script.length - 1)]!(q);
      if (step instanceof Error) throw step;
      return step;
    },
  };
  const printed: string[] = [];
  return { ctx, sleeps, source, printed, onCall: (c: { call_id: string }) => { printed.push(c.call_id); } };
}

const http = (status: number) => new ApiError({ kind: 'http', status, method: 'GET', url: 'http://127.0.0.1:1/calls', message: `status ${status}` });

describe('runTail', () => {
  it('says a failing poll once, keeps the window, and says when polling recovered', async () => {
    const s = setup([
      () => ({ items: [], total: 0 }),
      () => ({ items: [call('a', T0 + 1000), call('b', T0 + 1500)], total: 2 }),
      () => http(503),
      () => new ApiError({ kind: 'network', method: 'GET', url: 'http://127.0.0.1:1/calls', message: 'connection refused' }),
      () => ({ items: [call('a', T0 + 1000, T0 + 5000), call('b', T0 + 1500, T0 + 4000)], total: 2 }),
      () => ({ items: [call('a', T0 + 1000, T0 + 5000), call('b', T0 + 1500, T0 + 4000)], total: 2 }),
    ]);
    await runTail(s.ctx, s.source, { intervalMs: 2000, onCall: s.onCall });
    expect(s.printed).toEqual(['b', 'a']);
    expect(s.ctx.stderrText().match(/poll failed/g)).toHaveLength(1);
    expect(s.ctx.stderrText()).toContain('HTTP 503');
    expect(s.ctx.stderrText()).toContain('Polling recovered.');
    expect(s.sleeps.every((ms) => ms === 2000)).toBe(true);
    expect(s.ctx.stdoutText()).toBe('');
  });

  it('ends on a refused key, and names the campaign on a 404', async () => {
    const auth = setup([() => http(401)]);
    await expect(runTail(auth.ctx, auth.source, { intervalMs: 1000, onCall: auth.onCall })).rejects.toMatchObject({ status: 401 });
    const missing = setup([() => http(404)]);
    const err = await runTail(missing.ctx, missing.source, { intervalMs: 1000, campaignId: 'c-1', onCall: missing.onCall }).catch((e) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toContain('no campaign with id c-1');
  });

  it('an answer that is not the API\'s ends it before any poll has succeeded, and is retried after', async () => {
    const odd = () => new ApiError({ kind: 'unexpected', method: 'GET', url: 'http://127.0.0.1:1/calls', message: 'expected {calls: [...], total, limit, offset}, got a string' });
    const first = setup([odd]);
    await expect(runTail(first.ctx, first.source, { intervalMs: 1000, onCall: first.onCall })).rejects.toMatchObject({ kind: 'unexpected' });
    const later = setup([() => ({ items: [], total: 0 }), odd, () => ({ items: [], total: 0 })]);
    await runTail(later.ctx, later.source, { intervalMs: 1000, onCall: later.onCall });
    expect(later.ctx.stderrText()).toContain('poll failed');
    expect(later.ctx.stderrText()).toContain('Polling recovered.');
  });

  it('Ctrl-C during a poll ends it without an error', async () => {
    const s = setup([() => ({ items: [], total: 0 })], 100);
    const abort = new AbortController();
    const ctx = testContext({ io: s.ctx.io, now: () => new Date(T0), signal: abort.signal, sleep: async () => {} });
    const source = {
      calls: (_q: TailQuery, signal?: AbortSignal) => new Promise<TailPage>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')));
        setTimeout(() => abort.abort(), 10);
      }),
    };
    await expect(runTail(ctx, source, { intervalMs: 1000, onCall: s.onCall })).resolves.toBeUndefined();
    expect(s.ctx.stderrText()).toBe('');
  });
});
