/** Reading delivery records whose field names the spec leaves open. */
import type { WebhookDelivery } from '../api/webhooks.js';
import { formatDateTime, zoneAbbreviation } from '../util/time.js';

/**
 * The spec names what a delivery record shows but not its fields, so each column reads
 * the first of several plausible names. `attempts` may also be a list of attempt records.
 */
export function pick(row: WebhookDelivery, names: string[]): unknown {
  for (const n of names) {
    const path = n.split('.');
    let v: unknown = row;
    for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

function attemptList(row: WebhookDelivery): Record<string, unknown>[] | undefined {
  for (const k of ['attempts', 'attempt_log', 'history']) {
    const v = row[k];
    if (Array.isArray(v)) return v.filter((a) => a && typeof a === 'object') as Record<string, unknown>[];
  }
  return undefined;
}

export function attemptsOf(row: WebhookDelivery): unknown {
  const list = attemptList(row);
  if (list) return list.length;
  return pick(row, ['attempts', 'attempt_count', 'attempts_count', 'num_attempts', 'attempt', 'tries']);
}

export function lastCodeOf(row: WebhookDelivery): unknown {
  const direct = pick(row, [
    'last_response_code', 'last_status_code', 'last_response_status', 'last_status', 'response_status',
    'response_code', 'status_code', 'http_status', 'last_response.status', 'last_response.status_code', 'last_attempt.status_code',
    'last_attempt.response_code', 'last_attempt.status',
  ]);
  if (direct !== undefined) return direct;
  const last = attemptList(row)?.at(-1);
  return last ? pick(last, ['response_code', 'status_code', 'response_status', 'http_status', 'status']) : undefined;
}

/**
 * Why the last attempt failed, in words: the service's error text when it sends one, else
 * the response code that was not 2xx. Nothing for a delivery that went through.
 */
export function failureOf(row: WebhookDelivery): string {
  const text = pick(row, ['last_error', 'error', 'failure_reason', 'reason', 'last_response.error', 'last_attempt.error']);
  if (text !== undefined) return typeof text === 'string' ? text : JSON.stringify(text);
  const code = Number(lastCodeOf(row));
  if (Number.isInteger(code) && (code < 200 || code > 299)) return `answered ${code}`;
  const last = attemptList(row)?.at(-1);
  const fromAttempt = last ? pick(last, ['error', 'reason']) : undefined;
  return fromAttempt === undefined ? '' : String(fromAttempt);
}

export function nextRetryOf(row: WebhookDelivery): unknown {
  return pick(row, ['next_retry_at', 'next_attempt_at', 'next_retry', 'next_attempt', 'retry_at', 'scheduled_at', 'next_retry_time']);
}

/** "2026-11-26 15:05:00 IST (in 5m)" in `zone`, for people; without a zone, UTC ISO 8601 (CSV). */
/**
 * The time as ISO 8601 in UTC, for CSV: the same text at every read (no "in 5m", which
 * changes between two reads of the same delivery); empty when there is none, the value
 * as given when it is not a time.
 */
export function instant(value: unknown): string {
  const t = msOf(value);
  if (t === undefined) return '';
  if (!Number.isFinite(t)) return String(value);
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A time given as text, seconds or milliseconds, in milliseconds (NaN when it is not a time); undefined when there is none. */
function msOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  return typeof value === 'string' ? Date.parse(value) : undefined;
}

export function when(value: unknown, now: Date, zone?: string): string {
  const t = msOf(value);
  if (t === undefined) return '';
  if (!Number.isFinite(t)) return String(value);
  const iso = zone ? `${formatDateTime(t, zone)} ${zoneAbbreviation(zone, t)}` : instant(t);
  const s = Math.round((t - now.getTime()) / 1000);
  const rel = Math.abs(s) < 60 ? `${Math.abs(s)}s` : Math.abs(s) < 3600 ? `${Math.round(Math.abs(s) / 60)}m` : `${(Math.abs(s) / 3600).toFixed(1)}h`;
  return `${iso} (${s >= 0 ? `in ${rel}` : `${rel} ago`})`;
}

