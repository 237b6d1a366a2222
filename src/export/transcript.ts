/**
 * A transcript as a conversation: "00:07 Agent: …", times counted from the call's
 * start. Turn timestamps may be ISO instants, seconds (or epoch seconds/ms) or
 * "mm:ss"; a turn whose time cannot be read is shown without one.
 */
import type { Call, TranscriptTurn } from '../api/calls.js';

export interface Turn {
  /** "00:07", or "" when the turn carries no readable time. */
  time: string;
  speaker: string;
  text: string;
}

export function transcriptTurns(call: Pick<Call, 'start_time' | 'transcript'>): Turn[] {
  const turns = Array.isArray(call.transcript) ? call.transcript : [];
  const start = call.start_time ? Date.parse(call.start_time) : NaN;
  return turns.map((t) => ({
    time: formatOffset(offsetSeconds(t, start)),
    speaker: speakerOf(t),
    text: typeof t?.text === 'string' ? t.text : t?.text === undefined || t?.text === null ? '' : String(t.text),
  }));
}

/** The whole transcript as plain text, one turn a line (the CSV column). */
export function transcriptText(call: Pick<Call, 'start_time' | 'transcript'>): string {
  return transcriptTurns(call).map((t) => `${t.time ? `${t.time} ` : ''}${t.speaker}: ${t.text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

function speakerOf(turn: TranscriptTurn | undefined): string {
  const role = typeof turn?.role === 'string' ? turn.role.trim() : '';
  if (role === '') return 'Unknown';
  const lower = role.toLowerCase();
  if (lower === 'agent' || lower === 'assistant' || lower === 'bot') return 'Agent';
  if (lower === 'user' || lower === 'customer' || lower === 'human' || lower === 'caller') return 'User';
  return role[0]!.toUpperCase() + role.slice(1);
}

export function offsetSeconds(turn: TranscriptTurn | undefined, startMs: number): number | undefined {
  const ts = turn?.timestamp ?? (turn as Record<string, unknown> | undefined)?.time ?? (turn as Record<string, unknown> | undefined)?.offset;
  if (typeof ts === 'number' && Number.isFinite(ts)) return fromNumber(ts, startMs);
  if (typeof ts !== 'string' || ts.trim() === '') return undefined;
  const s = ts.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return fromNumber(Number(s), startMs);
  const clockMatch = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:\.\d+)?$/.exec(s);
  if (clockMatch) return Number(clockMatch[1] ?? 0) * 3600 + Number(clockMatch[2]) * 60 + Number(clockMatch[3]);
  const at = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(s) ? s : `${s}Z`);
  if (Number.isNaN(at) || Number.isNaN(startMs)) return undefined;
  return Math.max(0, (at - startMs) / 1000);
}

/** Small numbers are offsets in seconds; big ones are epoch seconds or milliseconds. */
function fromNumber(n: number, startMs: number): number | undefined {
  if (n < 1e8) return Math.max(0, n);
  if (Number.isNaN(startMs)) return undefined;
  const ms = n > 1e11 ? n : n * 1000;
  return Math.max(0, (ms - startMs) / 1000);
}

export function formatOffset(seconds: number | undefined): string {
  if (seconds === undefined) return '';
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
