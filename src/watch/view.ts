/**
 * What the watch loop hands to whichever view is showing it: the live terminal view,
 * plain lines, or NDJSON.
 */
import type { ListedCall } from '../calls/model.js';
import type { ConditionResult } from './fail-if.js';
import type { Summary } from './summary.js';

export interface Snapshot {
  campaignId: string;
  name?: string;
  status?: string;
  /** contacts_by_status as numbers (empty when the server sent none). */
  counts: Record<string, number>;
  total: number;
  finished: number;
  callsPerMinute?: number;
  etaSeconds?: number;
  elapsedMs: number;
  /** The latest finished calls, newest last. */
  recent: ReadonlyArray<Record<string, unknown>>;
  /** Something the user should know about the campaign itself (not launched yet). */
  notice?: string;
}

export interface WatchView {
  /** A poll succeeded: the campaign as it is now and the calls that finished since the last one. */
  update(snapshot: Snapshot, finished: ListedCall[]): void;
  /** A poll failed (it will be retried); undefined once polls succeed again. */
  problem(message: string | undefined): void;
  /** The campaign completed: the summary, and the --fail-if results if any. */
  finish(summary: Summary, failIf: ConditionResult[]): void;
  /** Restores the terminal; runs on every exit path, so it must be safe to call twice. */
  close(): void;
}
