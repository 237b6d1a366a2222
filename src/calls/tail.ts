/**
 * `call tail`: which calls finished since the last poll, each reported once.
 *
 * GET /calls filters on start time only (`since`), and a call is listed from the moment
 * it starts, unfinished, until it ends. So each poll pages `GET /calls?since=S`, where S
 * is the earliest start time still of interest:
 *
 * - the oldest start time of a call seen unfinished (it may end at any moment), or else
 * - the newest start time seen (a call that has not started yet starts after it) minus
 *   OVERLAP_MS, for a call that shows up in the listing after calls that started later;
 *   the overlap shrinks to nothing once the newest start has stood that long.
 *
 * S never moves back. A call is reported when it is first seen finished (see
 * isFinished: an end time, or a status that is not an in-progress one), and its id is
 * remembered while its start time can still be listed (at or after S - OVERLAP_MS);
 * older ids are forgotten, and a finished call that old is never reported again, so
 * memory holds only the window, never the whole history.
 *
 * The window is bounded: a call still unfinished WINDOW_MS after its start (measured
 * from the newest start time seen, or the local clock if later) is dropped and reported
 * as dropped, so one stuck call cannot pin S in the past and make every poll re-read
 * hours of calls.
 *
 * A poll that fails half-way keeps what it learnt (finished calls found are handed out
 * by the next poll or by takeFound()) and leaves S where it was: the next poll reads the
 * same window again, and nothing is lost.
 */
import { callId, isFinished, str, timeMs, finishedAt, type ListedCall } from './model.js';

export const PAGE_SIZE = 200;
/** Calls still unfinished this long after they started are no longer followed. */
export const WINDOW_MS = 2 * 3_600_000;
/**
 * How far S reaches back beyond the start times that call for it: for a call that shows
 * up in the listing a little after calls that started later. S comes from the server's
 * own start times, never from the local clock, so clock skew does not widen this.
 */
export const OVERLAP_MS = 10_000;
/** Ids of calls without a start time cannot be aged out; this many at most are kept. */
const MAX_UNDATED = 100_000;

export interface TailQuery {
  since: string;
  limit: number;
  offset: number;
}

export interface TailPage {
  items: unknown[];
  total?: number;
}

/** Where calls are read from: GET /calls (with --campaign's filter) in the command, anything in tests. */
export interface TailSource {
  calls(query: TailQuery, signal?: AbortSignal): Promise<TailPage>;
  /**
   * Read once before the first poll succeeds: with --campaign, that the campaign exists
   * (a server may list no calls for an unknown id rather than answer 404).
   */
  check?(signal?: AbortSignal): Promise<unknown>;
}

export interface TailOptions {
  /** The local clock, in ms. */
  now: () => number;
  /**
   * --since: report every call that started at or after this time once it has finished.
   * Without it, calls already finished when first read are history and not reported:
   * only calls that finish from now on are.
   */
  since?: number;
  /** Only finished calls whose status is this one (matched here, on the finished call: see docs/tail.md). */
  status?: string;
  windowMs?: number;
  overlapMs?: number;
}

export interface PollResult {
  /** Calls that finished since the last poll, in the order they ended. */
  finished: ListedCall[];
  /** Calls dropped from the window this poll, still unfinished after windowMs. */
  dropped: ListedCall[];
  requests: number;
}

interface Tracked {
  start?: number;
  call: ListedCall;
}

export class CallTail {
  /** The `since` of the next poll, in ms; never decreases. */
  private since: number;
  /** Finished calls with a start time below this are never reported again. */
  private horizon = Number.NEGATIVE_INFINITY;
  private readonly inProgress = new Map<string, Tracked>();
  /** Ids reported (or taken as history), with their start time, while they can still be listed. */
  private readonly seen = new Map<string, number | undefined>();
  private newestStart?: number;
  /** When (local clock) newestStart last moved. */
  private newestSeenAt = 0;
  /** Until a poll has read the whole window, finished calls never seen before are history. */
  private baseline: boolean;
  private found: ListedCall[] = [];
  private readonly windowMs: number;
  private readonly overlapMs: number;

  constructor(private readonly source: TailSource, private readonly opts: TailOptions) {
    this.windowMs = opts.windowMs ?? WINDOW_MS;
    this.overlapMs = opts.overlapMs ?? OVERLAP_MS;
    this.baseline = opts.since === undefined;
    // Without --since, calls in progress now may have started up to a window ago.
    this.since = opts.since ?? opts.now() - this.windowMs;
  }

  get inProgressCount(): number {
    return this.inProgress.size;
  }

  get rememberedCount(): number {
    return this.seen.size + this.inProgress.size;
  }

  /** The `since` the next poll sends, as an ISO time. */
  get cursor(): string {
    return new Date(this.since).toISOString();
  }

  /** Finished calls found by a poll that then failed: print them rather than keep them. */
  takeFound(): ListedCall[] {
    return sortByEnd(this.found.splice(0));
  }

  async poll(signal?: AbortSignal): Promise<PollResult> {
    let requests = 0;
    const since = this.cursor;
    let previousFirst: string | undefined;
    for (let offset = 0; ;) {
      const page = await this.source.calls({ since, limit: PAGE_SIZE, offset }, signal);
      requests++;
      for (const item of page.items) this.observe(item);
      offset += page.items.length;
      if (page.items.length === 0) break;
      if (page.total !== undefined ? offset >= page.total : page.items.length < PAGE_SIZE) break;
      // A server that ignores `offset` sends the same page again: stop rather than loop.
      const first = callId(page.items[0]);
      if (first !== undefined && first === previousFirst) break;
      previousFirst = first;
    }
    this.baseline = false;
    const dropped = this.advance();
    return { finished: this.takeFound(), dropped, requests };
  }

  private observe(item: unknown): void {
    const id = callId(item);
    if (id === undefined) return;
    const call = item as Record<string, unknown>;
    const start = timeMs(call.start_time);
    if (start !== undefined && (this.newestStart === undefined || start > this.newestStart)) {
      this.newestStart = start;
      this.newestSeenAt = this.opts.now();
    }
    if (this.seen.has(id)) return;
    const tracked = this.inProgress.get(id);
    if (!isFinished(call)) {
      this.inProgress.set(id, { start, call: { ...call, call_id: id } });
      return;
    }
    this.inProgress.delete(id);
    // Older than anything remembered: it may have been reported before and forgotten.
    if (!tracked && start !== undefined && start < this.horizon) return;
    this.seen.set(id, start);
    if (!tracked && this.baseline) return;
    if (!tracked && this.opts.since !== undefined && start !== undefined && start < this.opts.since) return;
    if (this.opts.status !== undefined && str(call.status) !== this.opts.status) return;
    this.found.push({ ...call, call_id: id });
  }

  /** After a complete poll: drop calls stuck beyond the window, move `since` on, forget what cannot come back. */
  private advance(): ListedCall[] {
    const reference = Math.max(this.opts.now(), this.newestStart ?? Number.NEGATIVE_INFINITY);
    const dropped: ListedCall[] = [];
    let oldest = Number.POSITIVE_INFINITY;
    let unknownStart = false;
    for (const [id, t] of this.inProgress) {
      if (t.start !== undefined && t.start < reference - this.windowMs) {
        this.inProgress.delete(id);
        this.seen.set(id, t.start);
        dropped.push(t.call);
      } else if (t.start === undefined) {
        unknownStart = true;
      } else if (t.start < oldest) {
        oldest = t.start;
      }
    }
    // A call with no start time gives no bound: keep reading from where we are.
    if (!unknownStart) {
      // A call that shows up late does so within the overlap of its start: once the
      // newest start has stood that long (local time, so clock skew does not matter),
      // the overlap has done its work, and an idle tail after a burst of calls reads
      // one short page instead of the whole burst again.
      const overlap = Math.max(0, this.overlapMs - (this.opts.now() - this.newestSeenAt));
      const lower = Math.min(oldest, (this.newestStart ?? Number.POSITIVE_INFINITY) - overlap);
      if (Number.isFinite(lower) && lower > this.since) this.since = lower;
    }
    this.horizon = this.since - this.overlapMs;
    let undated = 0;
    for (const [id, start] of this.seen) {
      if (start === undefined) undated++;
      else if (start < this.horizon) this.seen.delete(id);
    }
    // Oldest first: a Map iterates in insertion order.
    for (const [id, start] of this.seen) {
      if (undated <= MAX_UNDATED) break;
      if (start === undefined) {
        this.seen.delete(id);
        undated--;
      }
    }
    return dropped;
  }
}

function sortByEnd(calls: ListedCall[]): ListedCall[] {
  return calls.sort((a, b) => (finishedAt(a) ?? 0) - (finishedAt(b) ?? 0));
}
