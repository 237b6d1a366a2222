/**
 * The high-water mark of `--since-last --state FILE`: the start time up to which every
 * call has been exported, plus the ids already exported at or after it, so calls sharing
 * a timestamp are neither lost nor repeated. Calls still in progress are left for the
 * next run (their results are not final yet), which holds the mark at the earliest of
 * them. The file is replaced atomically, and only after a successful export.
 */
import { readJsonFile } from '../util/json-file.js';
import type { Call, CallFilters } from '../api/calls.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export interface ExportState {
  version: 1;
  /** ISO time: calls starting before it have all been exported. */
  mark: string;
  /** Calls starting at or after `mark` that were already exported. */
  ids: string[];
  updated_at: string;
  filters?: CallFilters;
  /** Rows written by the run that wrote this file. */
  exported?: number;
}

/** Statuses of a call that has not ended yet; its outcome and summary may still change. */
const LIVE = new Set(['queued', 'pending', 'initiated', 'dialing', 'ringing', 'in_progress', 'in-progress', 'ongoing', 'active', 'connecting', 'started', 'running']);
/** A call "in progress" for longer than this is stuck, and exported as it is. */
const STUCK_MS = 6 * 3600_000;

export async function readState(file: string): Promise<ExportState | undefined> {
  const parsed = await readJsonFile(file, ({ kind, error }) => kind === 'read'
    ? new UsageError(`cannot read the state file ${file}: ${error.message}`)
    : new UsageError(`the state file ${file} is not valid JSON.`, { hint: 'Delete it to export everything again, or point --state at another file.' }));
  if (parsed === undefined) return undefined;
  const s = parsed as Partial<ExportState> | null;
  if (!s || typeof s !== 'object' || typeof s.mark !== 'string' || Number.isNaN(Date.parse(s.mark)) || !Array.isArray(s.ids)) {
    throw new UsageError(`the state file ${file} is not a voicectl export state.`, { hint: 'Delete it to export everything again, or point --state at another file.' });
  }
  return { version: 1, mark: s.mark, ids: s.ids.map(String), updated_at: String(s.updated_at ?? ''), filters: s.filters, exported: s.exported };
}

export async function writeState(file: string, state: ExportState): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`);
}

function isLive(call: Call, nowMs: number): boolean {
  const status = typeof call.status === 'string' ? call.status.toLowerCase() : '';
  if (!LIVE.has(status)) return false;
  const start = startMs(call);
  return Number.isNaN(start) || nowMs - start < STUCK_MS;
}

export function startMs(call: Call): number {
  return typeof call.start_time === 'string' ? Date.parse(call.start_time) : NaN;
}

/**
 * Follows one run. `decide` says whether a call is new (export it), already exported
 * by an earlier run, before the mark, or still live; `next()` is the state to save.
 */
export class MarkTracker {
  private readonly markMs: number;
  private readonly known: Set<string>;
  /** (start, id) of every call exported now or before, at or after the earliest live call seen. */
  private done: Array<[number, string]> = [];
  private maxStart = -Infinity;
  private minLive = Infinity;
  private pruneAt = 50_000;

  constructor(private readonly previous: ExportState | undefined, private readonly nowMs: number) {
    this.markMs = previous ? Date.parse(previous.mark) : -Infinity;
    this.known = new Set(previous?.ids ?? []);
  }

  decide(call: Call): 'export' | 'known' | 'old' | 'live' {
    const start = startMs(call);
    // A server that ignores `since` still must not make us repeat old calls.
    if (!Number.isNaN(start) && start < this.markMs) return 'old';
    if (isLive(call, this.nowMs)) {
      if (!Number.isNaN(start)) this.minLive = Math.min(this.minLive, start);
      return 'live';
    }
    const verdict = this.known.has(call.call_id) ? 'known' : 'export';
    if (!Number.isNaN(start)) {
      this.maxStart = Math.max(this.maxStart, start);
      this.remember(start, call.call_id);
    }
    return verdict;
  }

  private remember(start: number, id: string): void {
    this.done.push([start, id]);
    // Only pairs that could end up at or after the final mark are worth keeping. That mark
    // is the latest start (which only grows) or a live call's start (never older than STUCK_MS).
    if (this.done.length > this.pruneAt) {
      const floor = Math.min(this.maxStart, this.nowMs - STUCK_MS);
      this.done = this.done.filter(([s]) => s >= floor);
      this.pruneAt = Math.max(50_000, this.done.length * 2);
    }
  }

  next(filters: CallFilters, exported: number, now: Date): ExportState {
    const markMs = Number.isFinite(this.minLive) ? this.minLive : this.maxStart;
    if (!Number.isFinite(markMs)) {
      // Nothing finished was seen: the previous mark still holds.
      return { version: 1, mark: this.previous?.mark ?? new Date(0).toISOString(), ids: this.previous?.ids ?? [], updated_at: now.toISOString(), filters, exported };
    }
    const ids = this.done.filter(([s]) => s >= markMs).map(([, id]) => id);
    return { version: 1, mark: new Date(markMs).toISOString(), ids: [...new Set(ids)], updated_at: now.toISOString(), filters, exported };
  }
}
