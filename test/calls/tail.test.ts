import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { isFinished, LOOKBACK_MS, OPEN_LIMIT_MS, OVERLAP_MS, TailState } from '../../src/calls/tail.js';

const T0 = Date.parse('2026-05-01T10:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const call = (id: string, startMs: number, done: boolean, status = done ? 'completed' : 'initiated'): Call =>
  ({ call_id: id, start_time: at(startMs), end_time: done ? at(startMs + 60_000) : null, status });

describe('call tail: which calls are finished', () => {
  it('an end_time, or a status other than those of a call in progress', () => {
    expect(isFinished(call('a', 0, true))).toBe(true);
    expect(isFinished({ call_id: 'b', status: 'no_answer' })).toBe(true);
    expect(isFinished({ call_id: 'c', status: 'initiated' })).toBe(false);
    expect(isFinished({ call_id: 'd', status: 'in_progress', end_time: null })).toBe(false);
    expect(isFinished({ call_id: 'e' })).toBe(false);
  });
});

describe('call tail: what each poll emits', () => {
  it('emits each call once, when it finishes, in any order, across overlapping polls', () => {
    const s = new TailState(T0, true);
    expect(s.take([call('a', 1000, false), call('b', 2000, true)], {}).map((c) => c.call_id)).toEqual(['b']);
    s.advance(T0 + 5000);
    // The next poll overlaps: b again (already emitted), a now finished, c new and finished.
    expect(s.take([call('a', 1000, true), call('b', 2000, true), call('c', 3000, true)], {}).map((c) => c.call_id)).toEqual(['a', 'c']);
    expect(s.take([call('a', 1000, true), call('c', 3000, true)], {})).toEqual([]);
  });

  it('asks from the earliest call still open, so a long call is not lost when later ones finish', () => {
    const s = new TailState(T0, true);
    s.take([call('long', 1000, false), call('short', 2000, true)], {});
    s.advance(T0 + 20 * 60_000);
    expect(s.since(T0 + 20 * 60_000)).toBe(T0 + 1000 - OVERLAP_MS);
    expect(s.take([call('long', 1000, true)], {}).map((c) => c.call_id)).toEqual(['long']);
    s.advance(T0 + 21 * 60_000);
    // Nothing open: the next poll starts near the last one.
    expect(s.since(T0 + 21 * 60_000)).toBe(T0 + 21 * 60_000 - 2 * OVERLAP_MS);
  });

  it('stops waiting for a call open longer than the limit', () => {
    const s = new TailState(T0, true);
    s.take([call('stuck', 1000, false)], {});
    const later = T0 + OPEN_LIMIT_MS + 10 * 60_000;
    s.advance(later);
    expect(s.since(later)).toBe(later - 2 * OVERLAP_MS);
    expect(s.openCount).toBe(0);
  });

  it('without --since, calls already finished at the first poll are not emitted; calls in progress are followed', () => {
    const s = new TailState(T0 - LOOKBACK_MS, false);
    expect(s.take([call('old', -30 * 60_000, true), call('running', -10 * 60_000, false)], {})).toEqual([]);
    s.advance(T0);
    expect(s.take([call('old', -30 * 60_000, true), call('running', -10 * 60_000, true)], {}).map((c) => c.call_id)).toEqual(['running']);
  });

  it('filters by status itself, having seen the call while it was open', () => {
    const s = new TailState(T0, true);
    s.take([call('a', 1000, false), call('b', 1500, false)], { status: 'completed' });
    s.advance(T0 + 5000);
    const out = s.take([call('a', 1000, true, 'completed'), call('b', 1500, true, 'no_answer')], { status: 'completed' });
    expect(out.map((c) => c.call_id)).toEqual(['a']);
  });
});
