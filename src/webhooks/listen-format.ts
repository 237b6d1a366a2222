/** What `listen` prints: one line per event, and the lines about forwards and rejections. */
import type { ChalkInstance } from 'chalk';
import type { AcceptedEvent, Rejection } from './receiver.js';
import type { PostResult } from './forward.js';
import { terminalLine as safe } from '../io/terminal-text.js';

/** Local HH:MM:SS (toTimeString costs a time-zone lookup per call, once per event). */
export function clock(d: Date): string {
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The ids and the status/outcome of an event, by type. */
export function eventDetails(type: string, data: unknown): string {
  const d = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const parts: string[] = [];
  if (type.startsWith('call.')) {
    if (str(d.call_id)) parts.push(`call ${d.call_id}`);
    if (str(d.campaign_id)) parts.push(`campaign ${d.campaign_id}`);
    if (str(d.phone_number)) parts.push(String(d.phone_number));
    const outcome = [str(d.status), str(d.outcome)].filter(Boolean).join('/');
    if (outcome) parts.push(outcome);
    if (typeof d.duration_seconds === 'number') parts.push(`${Math.round(d.duration_seconds)}s`);
    if (type === 'call.recording_ready') parts.push(d.has_recording === false ? 'no recording' : 'recording ready');
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

export function eventLine(c: ChalkInstance, e: AcceptedEvent): string {
  const verified = e.verified ? '' : ` ${c.yellow('(unverified)')}`;
  // Everything here but the clock came in the request: shown, never obeyed by the terminal.
  return `${c.dim(clock(e.receivedAt))}  ${c.green('200')}  ${c.bold(safe(e.type).padEnd(20))}  ${safe(e.id)}  ${safe(eventDetails(e.type, e.event.data))}${verified}`.trimEnd();
}

/** The NDJSON record: the event as sent, with when it arrived. */
export function eventRecord(e: AcceptedEvent): Record<string, unknown> {
  return { received_at: e.receivedAt.toISOString(), verified: e.verified, ...e.event };
}

export function eventJson(e: AcceptedEvent): string {
  return JSON.stringify(eventRecord(e));
}

export function rejectLine(c: ChalkInstance, r: Rejection): string {
  const who = safe([r.type, r.id].filter(Boolean).join(' '));
  const likely = r.likely ? `\n          ${c.dim('likely:')} ${safe(r.likely)}` : '';
  return `${c.dim(clock(r.at))}  ${c.red(String(r.status))}  ${c.red('rejected')}${who ? ` ${who}` : ''}: ${safe(r.message)}${likely}`;
}

export function forwardLine(c: ChalkInstance, id: string, target: string, r: PostResult, at: Date): string {
  const ms = `${Math.round(r.ms)} ms`;
  id = safe(id);
  target = safe(target);
  if (r.status === undefined) return `${c.dim(clock(at))}  ${c.red('---')}  ${c.dim('forward')} ${id} → ${target}: ${c.red(safe(r.error ?? 'failed'))} (${ms})`;
  const status = r.ok ? c.green(String(r.status)) : c.red(String(r.status));
  const body = !r.ok && r.body ? `  ${c.dim(oneLine(r.body, 160))}` : '';
  return `${c.dim(clock(at))}  ${status}  ${c.dim('forward')} ${id} → ${target} in ${ms}${body}`;
}

export function oneLine(s: string, max: number): string {
  const flat = safe(s.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
