/**
 * The call model, shared by `call tail`, `watch` and the reports: reading calls as
 * `GET /calls` lists them, tolerating missing fields. The spec leaves call status,
 * end_reason and outcome open, so "finished" is read from several signs.
 */
import { outcomeWord } from './outcome.js';

export interface ListedCall {
  call_id: string;
  [key: string]: unknown;
}

/** Statuses that mean the call is still under way (none are promised by the spec). */
const IN_PROGRESS = new Set([
  'initiated', 'queued', 'pending', 'scheduled', 'dialing', 'dialling', 'ringing', 'in_progress', 'in-progress',
  'inprogress', 'ongoing', 'active', 'running', 'connecting', 'connected', 'started', 'live',
]);

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The call's id, or undefined for an item that is not a call we can track. */
export function callId(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const r = item as Record<string, unknown>;
  const id = r.call_id ?? r.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * A call has finished when it has an end time, or a status that is not an in-progress
 * one, or (with no status at all) an outcome or a duration.
 */
export function isFinished(call: { end_time?: unknown; status?: unknown; outcome?: unknown; end_reason?: unknown; duration_seconds?: unknown }): boolean {
  if (str(call.end_time)) return true;
  const status = str(call.status)?.toLowerCase();
  if (status) return !IN_PROGRESS.has(status);
  return str(call.outcome) !== undefined || str(call.end_reason) !== undefined || (num(call.duration_seconds) ?? 0) > 0;
}

/** What the call came to, in one word (src/calls/outcome.ts). */
export const outcomeLabel = outcomeWord;

export function timeMs(v: unknown): number | undefined {
  const s = str(v);
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/** When the call ended, or else started: the order in which finished calls are shown. */
export function finishedAt(call: Record<string, unknown>): number | undefined {
  return timeMs(call.end_time) ?? timeMs(call.start_time);
}

