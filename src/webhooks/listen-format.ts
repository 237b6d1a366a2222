/**
 * What `listen` prints: one line per event, and the lines about forwards and rejections.
 * Times are the user's zone, named on each line; on a terminal an event's line fits its
 * width (the details are cut with `…`; --json has the whole event).
 */
import type { ChalkInstance } from 'chalk';
import type { AcceptedEvent, Rejection } from './receiver.js';
import type { PostResult } from './forward.js';
import { terminalLine as safe } from '../text/terminal-text.js';
import { lineId, oneLine, truncate } from '../text/text.js';
import { clockTime, zoneAbbreviation } from '../util/time.js';
import { isObject } from '../util/is-object.js';

/** "15:02:11 IST": when, in `zone`, named. */
export function clock(d: Date, zone = 'UTC'): string {
  return `${clockTime(d.getTime(), zone)} ${zoneAbbreviation(zone, d.getTime())}`;
}

export interface LineOptions {
  zone?: string;
  /** The terminal's width; without it the line is whole. */
  columns?: number;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The ids and the status/outcome of an event, by type. */
function eventDetails(type: string, data: unknown): string {
  const d = isObject(data) ? data : {};
  const parts: string[] = [];
  if (type.startsWith('call.')) {
    // What a person reads first (the number, how it went) before the ids, which a narrow
    // line cuts: --json has them whole.
    if (str(d.phone_number)) parts.push(String(d.phone_number));
    const outcome = [str(d.status), str(d.outcome)].filter(Boolean).join('/');
    if (outcome) parts.push(outcome);
    if (typeof d.duration_seconds === 'number') parts.push(`${Math.round(d.duration_seconds)}s`);
    if (type === 'call.recording_ready') parts.push(d.has_recording === false ? 'no recording' : 'recording ready');
    if (str(d.call_id)) parts.push(`call ${d.call_id}`);
    if (str(d.campaign_id)) parts.push(`campaign ${d.campaign_id}`);
  } else if (type === 'campaign.completed') {
    if (str(d.id)) parts.push(`campaign ${d.id}`);
    if (str(d.name)) parts.push(JSON.stringify(d.name));
    if (str(d.status)) parts.push(String(d.status));
    const counts = d.contacts_by_status;
    if (counts && typeof counts === 'object') {
      const nonzero = Object.entries(counts as Record<string, unknown>).filter(([, n]) => typeof n === 'number' && n > 0);
      if (nonzero.length) parts.push(nonzero.map(([k, n]) => `${k}=${n}`).join(' '));
    }
  } else {
    for (const k of ['endpoint_id', 'id', 'message']) if (str(d[k])) parts.push(k === 'message' ? String(d[k]) : `${k.replace('_id', '')} ${d[k]}`);
  }
  return parts.join('  ');
}

export function eventLine(c: ChalkInstance, e: AcceptedEvent, o: LineOptions = {}): string {
  const verified = e.verified ? '' : ' (unverified)';
  // Everything here but the clock came in the request: shown, never obeyed by the terminal.
  const head = [clock(e.receivedAt, o.zone), '200', safe(e.type).padEnd(20), safe(e.id)];
  let details = safe(eventDetails(e.type, e.event.data));
  if (o.columns && o.columns > 0) {
    // What is left of the width after the head, the gaps and the "(unverified)" mark.
    const room = () => o.columns! - head.join('  ').length - 2 - verified.length;
    // The number and the outcome before a long event id (--json has it whole).
    if (details.length > room()) head[3] = lineId(head[3]!);
    if (details.length > room()) details = room() >= 8 ? truncate(details, room()) : '';
  }
  const gap = details ? '  ' : '';
  const line = `${c.dim(head[0]!)}  ${c.green(head[1]!)}  ${c.bold(head[2]!)}  ${head[3]}${gap}${details}${verified ? ` ${c.yellow(verified.trim())}` : ''}`.trimEnd();
  const plain = `${head.join('  ')}${gap}${details}${verified}`.trimEnd();
  // A sender's id or type so long that even the head does not fit: cut the line itself (plain text, so the cut cannot split a colour code).
  return o.columns && o.columns > 0 && plain.length > o.columns ? truncate(plain, o.columns) : line;
}

/** The NDJSON record: the event as sent, with when it arrived. */
export function eventRecord(e: AcceptedEvent): Record<string, unknown> {
  return { received_at: e.receivedAt.toISOString(), verified: e.verified, ...e.event };
}

export function rejectLine(c: ChalkInstance, r: Rejection, zone = 'UTC'): string {
  const who = safe([r.type, r.id].filter(Boolean).join(' '));
  const likely = r.likely ? `\n          ${c.dim('likely:')} ${safe(r.likely)}` : '';
  return `${c.dim(clock(r.at, zone))}  ${c.red(String(r.status))}  ${c.red('rejected')}${who ? ` ${who}` : ''}: ${safe(r.message)}${likely}`;
}

export function forwardLine(c: ChalkInstance, id: string, target: string, r: PostResult, at: Date, zone = 'UTC'): string {
  const ms = `${Math.round(r.ms)} ms`;
  id = safe(id);
  target = safe(target);
  if (r.status === undefined) return `${c.dim(clock(at, zone))}  ${c.red('---')}  ${c.dim('forward')} ${id} → ${target}: ${c.red(safe(r.error ?? 'failed'))} (${ms})`;
  const status = r.ok ? c.green(String(r.status)) : c.red(String(r.status));
  const body = !r.ok && r.body ? `  ${c.dim(truncate(oneLine(r.body), 160))}` : '';
  return `${c.dim(clock(at, zone))}  ${status}  ${c.dim('forward')} ${id} → ${target} in ${ms}${body}`;
}

