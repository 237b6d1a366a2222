/**
 * `call tail`: every call as it finishes. The service filters calls by their start time
 * only (`since`), and a call is listed from its start, finished or not. So each poll reads
 * the calls started since the earliest call still open (or since the last poll, less an
 * overlap for clocks that disagree), and each call is emitted once, when it is finished:
 * an `end_time`, or a status other than the ones of a call in progress.
 *
 * The first poll reaches back LOOKBACK_MS, so calls already in progress are followed; the
 * calls it finds finished are not emitted (they ended before the tail began), unless a
 * `since` was given.
 *
 * Bounds: calls still open after OPEN_LIMIT_MS are no longer waited for (the next poll
 * starts after them), and emitted ids are remembered for that long, at most MAX_DONE.
 */
import type { ApiClient } from '../api/client.js';
import { allCalls, type Call } from '../api/calls.js';

export const OPEN_LIMIT_MS = 6 * 3600_000;
export const OVERLAP_MS = 60_000;
export const LOOKBACK_MS = 3600_000;
const MAX_DONE = 100_000;
const IN_PROGRESS = new Set(['pending', 'queued', 'initiated', 'ringing', 'in_progress', 'in-progress', 'ongoing', 'active']);

export function isFinished(call: Call): boolean {
  if (typeof call.end_time === 'string' && call.end_time !== '') return true;
  return typeof call.status === 'string' && call.status !== '' && !IN_PROGRESS.has(call.status);
}

const startMs = (call: Call): number => {
  const t = typeof call.start_time === 'string' ? Date.parse(call.start_time) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
};

export interface TailFilters {
  campaignId?: string;
  /** Applied here, not by the service: a call must be seen while it is still open. */
  status?: string;
}

/** What has been seen: pure, so the rules are tested without a server. */
export class TailState {
  /** Calls seen unfinished: id → start time. */
  private readonly open = new Map<string, number>();
  /** Calls emitted: id → start time, oldest first. */
  private readonly done = new Map<string, number>();

  private primed: boolean;

  /**
   * @param from calls that started before this are not followed
   * @param emitFinished whether calls already finished at the first poll are emitted
   *   (`--since`); otherwise only what finishes from then on
   */
  constructor(private from: number, emitFinished = false) {
    this.primed = emitFinished;
  }

  /** The `since` of the next poll. */
  since(nowMs: number): number {
    let earliest = this.from;
    for (const [id, t] of this.open) {
      if (t < nowMs - OPEN_LIMIT_MS) this.open.delete(id);
      else earliest = Math.min(earliest, t);
    }
    return earliest - OVERLAP_MS;
  }

  /** The calls of one poll, in the order read; returns those to emit now. */
  take(calls: Iterable<Call>, filters: TailFilters): Call[] {
    const out: Call[] = [];
    for (const call of calls) {
      const id = call.call_id;
      if (typeof id !== 'string' || this.done.has(id)) continue;
      const t = startMs(call);
      // Started before the tail did, and not followed since: not ours.
      if (t !== 0 && t < this.from - OVERLAP_MS && !this.open.has(id)) continue;
      if (!isFinished(call)) {
        this.open.set(id, t || this.from);
        continue;
      }
      this.open.delete(id);
      this.done.set(id, t);
      if (this.done.size > MAX_DONE) this.done.delete(this.done.keys().next().value!);
      if (this.primed && (!filters.status || call.status === filters.status)) out.push(call);
    }
    this.primed = true;
    return out;
  }

  /** After a poll at `nowMs`: calls that start later than this are new. */
  advance(nowMs: number): void {
    this.from = Math.max(this.from, nowMs - OVERLAP_MS);
    for (const [id, t] of this.done) {
      if (t >= nowMs - OPEN_LIMIT_MS - OVERLAP_MS) break;
      this.done.delete(id);
    }
  }

  get openCount(): number {
    return this.open.size;
  }
}

/** One poll: every call started since the state asks, all pages. */
export async function pollCalls(api: ApiClient, state: TailState, filters: TailFilters, nowMs: number, signal?: AbortSignal): Promise<Call[]> {
  const since = new Date(state.since(nowMs)).toISOString();
  const calls: Call[] = [];
  for await (const call of allCalls(api, { campaign_id: filters.campaignId, since }, { signal })) calls.push(call);
  // Oldest first, so lines come out in the order the calls started.
  calls.sort((a, b) => startMs(a) - startMs(b));
  const emitted = state.take(calls, filters);
  state.advance(nowMs);
  return emitted;
}
