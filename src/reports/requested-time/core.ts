/**
 * What the requested-time readers share: the result and its kinds, the mentions each reader
 * finds in a text (days, times, parts of the day, spans from now), the call's moment in the
 * contact's zone, and the rules that turn mentions into one time or leave them to a person
 * (two days or times said: a conflict; a day without a time: the part of the day's hour, or
 * 10:00; a time without a day: today if still ahead, else tomorrow; a clause that only tells
 * of the past: not read).
 *
 * The readers: english.ts (chrono-node), hinglish.ts (patterns for Hinglish, and English
 * read a second way), devanagari.ts (Devanagari written in Latin letters for those patterns);
 * ../requested-time.ts combines them.
 */
import { fromWallTime, wallClock } from '../../util/time.js';
import type { Normalized } from './devanagari.js';

export type RequestedKind = 'time' | 'day' | 'conflict' | 'none';

export interface RequestedTime {
  /**
   * `time`: a day and a time were read (or a time, and the day follows from it);
   * `day`: a day was read, and at most a part of it: `at` is the hour the rules give, `note` says so;
   * `conflict`: two different days or times were said: no `at`, a person must read `phrase`;
   * `none`: no day or time was said: `phrase` is the sentence that asks for the callback.
   */
  kind: RequestedKind;
  /** The instant (ms since the epoch), for `time` and `day`. */
  at?: number;
  /** The words read, as said; for `none`, the sentence that asks for a callback. */
  phrase: string;
  /** What the rules supplied ("no time said: 10:00") or what conflicts ("two times: 16:00, 18:00"). */
  note?: string;
}

/** Which reader reads English: chrono-node and the patterns of hinglish.ts together (the default), or either alone (to compare them). */
export type EnglishReader = 'both' | 'chrono' | 'own';

export type Part = 'morning' | 'afternoon' | 'evening' | 'night';
const PART_HOUR: Record<Part, number> = { morning: 10, afternoon: 15, evening: 18, night: 20 };
const DEFAULT_HOUR = 10;
export const DAY = 86_400_000;

export interface Span { start: number; end: number }
interface DayMention extends Span { day: number; note?: string }
interface TimeMention extends Span { minutes: number; ampm: boolean; /** "before 11", "11 se pehle": a time not to be passed. */ before?: boolean }
interface PartMention extends Span { part: Part }
interface RelMention extends Span { at: number }
export interface Mentions { days: DayMention[]; times: TimeMention[]; parts: PartMention[]; rel: RelMention[] }

/** The call's moment as the contact's clocks show it. */
export interface Reference { ms: number; zone: string; today: number; nowMinutes: number; dow: number; year: number; us: boolean }

export function reference(ms: number, zone: string): Reference {
  const w = wallClock(ms, zone);
  const today = Date.parse(`${w.date}T00:00:00Z`);
  return {
    ms, zone, today,
    nowMinutes: Number(w.time.slice(0, 2)) * 60 + Number(w.time.slice(3, 5)),
    dow: new Date(today).getUTCDay(),
    year: Number(w.date.slice(0, 4)),
    us: zone.startsWith('America/') || zone.startsWith('US/'),
  };
}

/** Monday of the week after the call's ("next week"). */
export const nextMonday = (ref: Reference): number => ref.today + ((8 - ref.dow) % 7 || 7) * DAY;
/** The first `dow` (0 Sunday … 6 Saturday) after the day of the call. */
export const nextWeekday = (ref: Reference, dow: number): number => ref.today + ((dow - ref.dow + 7) % 7 || 7) * DAY;

/** The words of each part of the day, English and Hinglish (Devanagari arrives written in Latin letters). */
export const PARTS: Array<[string, Part]> = [
  ['early morning|morning|mrng|subah|subha|subeh|subh|savere|sawere|savera|sawera', 'morning'],
  ['afternoon|after lunch|lunch ?time|post lunch|dopahar|dopehar|dophar|dopahr|dupahar|dopaher', 'afternoon'],
  ['evening|eve|shaam|sham|saam|shyam', 'evening'],
  ['tonight|night|raat|ratri', 'night'],
];
export const PART_PATTERNS = PARTS.map(([words, part]) => [new RegExp(`\\b(?:${words})\\b`, 'g'), part] as const);

/** Before a time, or after it: a time not to be passed ("before 5", "5 se pehle", "5 baje tak"). */
export const BEFORE = /\b(?:before|no later than|latest by)\s+$/;
export const UNTIL = /^\s*(?:baje\s+|bje\s+)?(?:se\s+pehle|se\s+pahle|ke\s+pehle|ke\s+pahle|pehle|tak)\b/;

/** A day said as not the one wanted: "not today", "busy today", "aaj nahi". */
export function negated(t: string, start: number, end: number): boolean {
  const before = t.slice(Math.max(0, start - 30), start);
  const after = t.slice(end, end + 24);
  return /\b(?:not|no|busy|unavailable|out|travelling|traveling|can'?t|cannot|isn'?t|wasn'?t|won'?t|except)\s+(?:on\s+|for\s+|be\s+|do\s+|make\s+it\s+)?$/.test(before)
    || /^\s*(?:(?:is|he|she|i|it|to|toh|ko|mein|main|me)\s+)?(?:nahi|nahin|nhi|nai|mat|busy|won'?t|doesn'?t|isn'?t|is not|is busy|is bad|off\b)/.test(after);
}

// ---------------------------------------------------------------- from what was said to a time

const clock = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

/** An hour said without am/pm, given the part of the day said nearest to it. */
function withMeridiem(t: TimeMention, part: Part | undefined): number {
  if (t.ampm) return t.minutes;
  const h = Math.floor(t.minutes / 60);
  const rest = t.minutes % 60;
  let hh = h;
  if (part === 'afternoon' || part === 'evening') hh = h < 12 ? h + 12 : h;
  else if (part === 'night') hh = h >= 5 && h < 12 ? h + 12 : h === 12 ? 0 : h;
  else if (part === 'morning') hh = h;
  else if (h >= 1 && h <= 7) hh = h + 12;
  return hh * 60 + rest;
}

function nearestPart(parts: PartMention[], s: Span): Part | undefined {
  let best: PartMention | undefined;
  let dist = Infinity;
  for (const p of parts) {
    const d = p.end <= s.start ? s.start - p.end : p.start >= s.end ? p.start - s.end : 0;
    if (d < dist) [best, dist] = [p, d];
  }
  return best?.part;
}

/** The mentions read, as one time, a day, a conflict for a person, or none (then `fallback()` is the phrase). */
export function resolve(m: Mentions, ref: Reference, quote: (start: number, end: number) => string, fallback: () => string): RequestedTime {
  const all: Span[] = [...m.days, ...m.times, ...m.parts, ...m.rel];
  if (m.days.length === 0 && m.times.length === 0 && m.rel.length === 0 && m.parts.length === 0) return { kind: 'none', phrase: fallback() };
  const phrase = quote(Math.min(...all.map((s) => s.start)), Math.max(...all.map((s) => s.end)));
  const days = [...new Set(m.days.map((d) => d.day))];
  const fmtDay = (d: number) => new Date(d).toISOString().slice(0, 10);
  if (days.length > 1) return { kind: 'conflict', phrase, note: `two days: ${days.map(fmtDay).join(', ')}` };
  const times = [...new Set(m.times.map((t) => withMeridiem(t, nearestPart(m.parts, t))))];
  if (times.length > 1) return { kind: 'conflict', phrase, note: `two times: ${times.map(clock).join(', ')}` };
  const rel = [...new Set(m.rel.map((r) => Math.round(r.at / 60_000) * 60_000))];
  if (rel.length > 1 || (rel.length === 1 && (days.length || times.length))) {
    return { kind: 'conflict', phrase, note: 'a time from now and another time' };
  }
  if (rel.length === 1) return { kind: 'time', at: rel[0]!, phrase };
  const parts = [...new Set(m.parts.map((p) => p.part))];
  if (times.length === 0 && parts.length > 1) return { kind: 'conflict', phrase, note: `two parts of the day: ${parts.join(', ')}` };

  const dayNote = m.days.find((d) => d.note)?.note;
  const part = parts[0];
  const partHour = (part ? PART_HOUR[part] : DEFAULT_HOUR) * 60;
  // The day said; without one, today while `minutes` is still ahead, else tomorrow.
  const instant = (minutes: number, ahead = minutes) =>
    fromWallTime(ref.zone, (days[0] ?? (ahead > ref.nowMinutes ? ref.today : ref.today + DAY)) + minutes * 60_000);
  if (times.length === 1 && m.times.every((x) => x.before)) {
    // "before 5": the day, and an hour no later than the one said.
    const limit = times[0]!;
    const minutes = Math.min(partHour, limit - 60);
    return { kind: 'day', at: instant(minutes, limit), phrase, note: `before ${clock(limit)} said: ${clock(minutes)}` };
  }
  if (times.length === 1) return { kind: 'time', at: instant(times[0]!), phrase, ...(dayNote ? { note: dayNote } : {}) };
  const note = [dayNote, part ? `only "${part}" said: ${clock(partHour)}` : `no time said: ${clock(partHour)}`].filter(Boolean).join('; ');
  return { kind: 'day', at: instant(partHour), phrase, note };
}

/** Where a clause tells of the past ("he was in a meeting at 11", "called at 10:58") and asks nothing. */
const PAST = /\b(?:was|were|had|did|tha|thi|called at|rang at|received)\b/;
const ASKS = /\b(?:call(?:ed)?\s*back|callback|call (?:me|him|her|them|us)|asked|ask|wants?|prefer|request|schedul|free|available|karna|karo|kijiye|karein|kare|bola|kaha)\b/;

/** The mentions outside clauses that only tell of the past. */
export function present(m: Mentions, n: Normalized): Mentions {
  const t = n.text;
  const cuts = [...[...t.matchAll(/\.\s|\s(?:and|but|aur|lekin|par)\s/g)].map((x) => [x.index!, x.index! + x[0].length] as const), ...n.breaks.map((b) => [b, b + 1] as const)]
    .sort((a, b) => a[0] - b[0]);
  const clauses: Span[] = [];
  let start = 0;
  for (const [a, b] of cuts) {
    clauses.push({ start, end: a });
    start = b;
  }
  clauses.push({ start, end: t.length });
  const pastOnly = clauses.filter((c) => {
    const s = t.slice(c.start, c.end);
    return PAST.test(s) && !ASKS.test(s);
  });
  const keep = <T extends Span>(list: T[]) => list.filter((x) => !pastOnly.some((c) => x.start >= c.start && x.end <= c.end));
  return { days: keep(m.days), times: keep(m.times), parts: keep(m.parts), rel: keep(m.rel) };
}

/** The sentence that speaks of calling back, for a person to read when no time could be. */
export function callbackSentence(text: string): string {
  const sentences = text.split(/(?<=[.!?।])\s+/);
  return (sentences.find((s) => /call(ed|ing)?[ -]?back|callback|later|baad mein|phir se|fir se|dobara|बाद में|दोबारा|फिर से/i.test(s)) ?? text).trim();
}
