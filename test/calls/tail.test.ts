/**
 * The window of `call tail` against an in-memory GET /calls: which calls are reported,
 * when, and only once, with memory and `since` bounded.
 */
import { describe, expect, it } from 'vitest';
import { CallTail, OVERLAP_MS, PAGE_SIZE, WINDOW_MS, type TailPage, type TailQuery } from '../../src/calls/tail.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const MIN = 60_000;

interface FakeCall {
  call_id: string;
  start: number;
  /** Finishes at this time (undefined: never). */
  end?: number;
  status?: string;
}

/** GET /calls over a list of calls, at a clock the test moves; `since` filters on start time, inclusive. */
class FakeCalls {
  now = T0;
  calls: FakeCall[] = [];
  queries: TailQuery[] = [];
  order: 'asc' | 'desc' = 'asc';
  failAt?: number;
  /** Called between pages, to change the listing under the reader. */
  betweenPages?: (q: TailQuery) => void;

  add(call_id: string, start: number, end?: number, status = 'completed'): void {
    this.calls.push({ call_id, start, end, status });
  }

  view(c: FakeCall): Record<string, unknown> {
    const done = c.end !== undefined && c.end <= this.now;
    return {
      call_id: c.call_id,
      start_time: new Date(c.start).toISOString(),
      end_time: done ? new Date(c.end!).toISOString() : null,
      status: done ? c.status : 'initiated',
    };
  }

  async list(q: TailQuery): Promise<TailPage> {
    this.queries.push(q);
    if (this.failAt !== undefined && this.queries.length === this.failAt) throw new Error('connection reset');
    if (q.offset > 0) this.betweenPages?.(q);
    const since = Date.parse(q.since);
    const visible = this.calls.filter((c) => c.start <= this.now && c.start >= since).sort((a, b) => (this.order === 'asc' ? a.start - b.start : b.start - a.start));
    return { items: visible.slice(q.offset, q.offset + q.limit).map((c) => this.view(c)), total: visible.length };
  }
}

function tailOf(fake: FakeCalls, opts: { since?: number; status?: string } = {}): CallTail {
  return new CallTail({ calls: (q) => fake.list(q) }, { now: () => fake.now, ...opts });
}

const ids = (r: { finished: Array<{ call_id: string }> }) => r.finished.map((c) => c.call_id);

/** A tail over an empty listing that has polled once, at T0; `at(t)` moves the clock to t and polls: the ids it reports. */
async function polled(): Promise<{ f: FakeCalls; tail: CallTail; at: (now: number) => Promise<string[]> }> {
  const f = new FakeCalls();
  const tail = tailOf(f);
  expect(ids(await tail.poll())).toEqual([]);
  return { f, tail, at: async (now) => {
    f.now = now;
    return ids(await tail.poll());
  } };
}

describe('call tail window', () => {
  it('reports calls that finish from now on, not those already finished, including calls in progress at the start', async () => {
    const f = new FakeCalls();
    f.add('old-done', T0 - 30 * MIN, T0 - 20 * MIN);
    f.add('running', T0 - 50 * MIN, T0 + 5 * MIN);
    const tail = tailOf(f);
    expect(ids(await tail.poll())).toEqual([]);
    expect(f.queries[0]!.since).toBe(new Date(T0 - WINDOW_MS).toISOString());
    f.now = T0 + 10 * MIN;
    f.add('new', T0 + 6 * MIN, T0 + 8 * MIN);
    expect(ids(await tail.poll())).toEqual(['running', 'new']);
    f.now += MIN;
    expect(ids(await tail.poll())).toEqual([]);
  });

  it('reports calls that finish out of order once each, in the order they ended', async () => {
    const { f, at } = await polled();
    f.add('a', T0 + 1000, T0 + 9 * MIN);
    f.add('b', T0 + 2000, T0 + 2 * MIN);
    f.add('c', T0 + 3000, T0 + 4 * MIN);
    f.add('d', T0 + 4000, T0 + 3 * MIN);
    expect(await at(T0 + MIN)).toEqual([]);
    expect(await at(T0 + 5 * MIN)).toEqual(['b', 'd', 'c']);
    // `a` is still in progress: the next poll still reads from its start (minus the overlap).
    expect(Date.parse(f.queries.at(-1)!.since)).toBeLessThanOrEqual(T0 + 1000);
    expect(await at(T0 + 10 * MIN)).toEqual(['a']);
    expect(await at(T0 + 11 * MIN)).toEqual([]);
  });

  it('follows a long call and moves `since` past it once it ends; a call stuck beyond the window is dropped, said, and never reported', async () => {
    const { f, tail, at } = await polled();
    f.add('long', T0 + 1000, T0 + 110 * MIN);
    f.add('stuck', T0 + 2000, T0 + 10 * 60 * MIN);
    f.now = T0 + MIN;
    await tail.poll();
    for (let t = 2; t <= 100; t += 7) {
      f.add(`short${t}`, T0 + t * MIN, T0 + t * MIN + 30_000);
      f.now = T0 + t * MIN + 40_000;
      expect(ids(await tail.poll())).toEqual([`short${t}`]);
      expect(Date.parse(f.queries.at(-1)!.since)).toBeLessThanOrEqual(T0 + 1000);
    }
    f.now = T0 + 115 * MIN;
    const r = await tail.poll();
    expect(ids(r)).toEqual(['long']);
    expect(r.dropped).toEqual([]);
    f.now = T0 + 125 * MIN;
    f.add('later', T0 + 121 * MIN, T0 + 122 * MIN);
    const r2 = await tail.poll();
    expect(ids(r2)).toEqual(['later']);
    expect(r2.dropped.map((c) => c.call_id)).toEqual(['stuck']);
    // With nothing in progress, `since` is the newest start minus the overlap.
    f.now = T0 + 126 * MIN;
    await tail.poll();
    expect(f.queries.at(-1)!.since).toBe(new Date(T0 + 121 * MIN - OVERLAP_MS).toISOString());
    expect(await at(T0 + 11 * 60 * MIN)).toEqual([]);
    expect(tail.inProgressCount).toBe(0);
  });

  it('reports a call once when pages overlap (a listing that shifts under the reader) and across polls', async () => {
    const f = new FakeCalls();
    f.order = 'desc';
    const tail = tailOf(f);
    await tail.poll();
    for (let i = 0; i < 450; i++) f.add(`c${i}`, T0 + 1000 + i, T0 + 1000 + i + 500);
    f.now = T0 + MIN;
    // Newest first, and a call starts between pages: every later page repeats an item.
    let n = 0;
    f.betweenPages = () => f.add(`extra${n++}`, f.now - 10, f.now - 5);
    const r = await tail.poll();
    expect(f.queries.length).toBeGreaterThan(3);
    const got = ids(r);
    expect(new Set(got).size).toBe(got.length);
    for (let i = 0; i < 450; i++) expect(got).toContain(`c${i}`);
    f.betweenPages = undefined;
    f.now = T0 + 2 * MIN;
    const again = ids(await tail.poll());
    // Only the calls added during the last poll's paging that it did not reach.
    expect(again.every((id) => id.startsWith('extra') && !got.includes(id))).toBe(true);
    expect(new Set([...got, ...again]).size).toBe(450 + n);
  });

  it('keeps memory to the window: ids of calls long finished are forgotten, and not reported again', async () => {
    const { f, tail } = await polled();
    let total = 0;
    for (let step = 1; step <= 60; step++) {
      for (let i = 0; i < 50; i++) f.add(`s${step}-${i}`, T0 + step * 10 * MIN + i, T0 + step * 10 * MIN + i + 1000);
      f.now = T0 + step * 10 * MIN + 5 * MIN;
      total += (await tail.poll()).finished.length;
      expect(tail.rememberedCount).toBeLessThanOrEqual(100);
    }
    expect(total).toBe(3000);
    // A server that ignores `since` lists everything again: nothing is reported twice.
    const all = new CallTail({ calls: async (q) => { const p = await f.list({ ...q, since: new Date(0).toISOString() }); return p; } }, { now: () => f.now });
    await all.poll();
    f.now += MIN;
    expect((await all.poll()).finished).toEqual([]);
  });

  it('after a burst has ended, an idle poll reads one page, not the burst again', async () => {
    const { f, tail } = await polled();
    for (let i = 0; i < 1000; i++) f.add(`b${i}`, T0 + 1000 + i, T0 + 2000 + i);
    f.now = T0 + 10_000;
    const burst = await tail.poll();
    expect(burst.requests).toBe(5);
    expect(burst.finished).toHaveLength(1000);
    // Within the overlap of the newest start, the burst is read again (for late arrivals).
    f.now = T0 + 12_000;
    expect(await tail.poll()).toMatchObject({ finished: [], requests: 5 });
    f.now = T0 + 21_000;
    expect(await tail.poll()).toMatchObject({ finished: [], requests: 5 });
    // Once the newest start has stood longer than the overlap: one page.
    f.now = T0 + 22_000;
    expect(await tail.poll()).toMatchObject({ finished: [], requests: 1 });
    expect(f.queries.at(-1)!.since).toBe(new Date(T0 + 1999).toISOString());
    // A call that then starts is still found.
    f.add('next', f.now + 1, f.now + 5000);
    f.now += 10_000;
    expect(ids(await tail.poll())).toEqual(['next']);
  });

  it('a server that ignores offset and sends no total does not make a poll loop forever', async () => {
    const page = Array.from({ length: PAGE_SIZE }, (_, i) => ({ call_id: `c${i}`, start_time: new Date(T0 + i).toISOString(), status: 'completed', end_time: new Date(T0 + i + 1).toISOString() }));
    const tail = new CallTail({ calls: async () => ({ items: page }) }, { now: () => T0, since: T0 });
    const r = await tail.poll();
    expect(r.requests).toBe(2);
    expect(r.finished).toHaveLength(PAGE_SIZE);
  });

  it('a poll that fails half-way loses nothing and repeats nothing', async () => {
    const { f, tail } = await polled();
    for (let i = 0; i < 3 * PAGE_SIZE; i++) f.add(`c${i}`, T0 + 1000 + i, T0 + 2000 + i);
    f.now = T0 + MIN;
    f.failAt = f.queries.length + 2;
    await expect(tail.poll()).rejects.toThrow('connection reset');
    const early = tail.takeFound().map((c) => c.call_id);
    expect(early).toHaveLength(PAGE_SIZE);
    const rest = ids(await tail.poll());
    expect(new Set([...early, ...rest]).size).toBe(3 * PAGE_SIZE);
    expect(early.length + rest.length).toBe(3 * PAGE_SIZE);
  });

  it('--since reports calls already finished that started at or after it; --status matches the finished call', async () => {
    const f = new FakeCalls();
    f.add('before', T0 - 20 * MIN, T0 - 19 * MIN);
    f.add('after-done', T0 - 10 * MIN, T0 - 9 * MIN, 'no_answer');
    f.add('after-ok', T0 - 8 * MIN, T0 - 7 * MIN, 'completed');
    f.add('after-running', T0 - 5 * MIN, T0 + 2 * MIN, 'completed');
    f.add('after-running-failed', T0 - 5 * MIN + 1, T0 + 3 * MIN, 'failed');
    const tail = tailOf(f, { since: T0 - 15 * MIN });
    expect(ids(await tail.poll())).toEqual(['after-done', 'after-ok']);
    const only = tailOf(f, { since: T0 - 15 * MIN, status: 'completed' });
    expect(ids(await only.poll())).toEqual(['after-ok']);
    f.now = T0 + 5 * MIN;
    expect(ids(await tail.poll())).toEqual(['after-running', 'after-running-failed']);
    expect(ids(await only.poll())).toEqual(['after-running']);
  });
});
