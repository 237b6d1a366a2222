/**
 * `sandbox --learn calls.jsonl`: the sandbox answers with the account's own rates. From
 * an export (`voicectl call export --format jsonl`) it keeps only distributions, per
 * country and per hour of the day (UTC): how many calls connected, failed or went
 * unanswered, the share of each outcome label, and 21 quantiles of call length for
 * connected and for other calls. No number, name, summary, transcript, id or time of any
 * call is kept: a country or an hour with fewer than MIN_CELL calls is folded into the
 * level above it, and an outcome label is kept only when it looks like a label
 * (lower-case words with underscores) and MIN_LABEL calls or more carry it.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Rng } from './rng.js';
import type { Fate } from './fate.js';
import type { CountryRates, LearnedRates, Rates } from './records.js';

export type { CountryRates, LearnedRates, Rates } from './records.js';

export const LEARNED_FORMAT = 'voicectl-sandbox-rates';
export const LEARNED_VERSION = 1;
const MIN_CELL = 20;
const MIN_LABEL = 5;
const QUANTILES = 21;

interface Tally {
  n: number;
  connected: number;
  failed: number;
  hours: Array<{ n: number; connected: number; failed: number }>;
  outcomes: Map<string, number>;
  talk: number[];
  other: number[];
}

function tally(): Tally {
  return { n: 0, connected: 0, failed: 0, hours: Array.from({ length: 24 }, () => ({ n: 0, connected: 0, failed: 0 })), outcomes: new Map(), talk: [], other: [] };
}

function quantiles(values: number[]): number[] {
  if (values.length === 0) return [];
  const v = [...values].sort((a, b) => a - b);
  return Array.from({ length: QUANTILES }, (_, i) => {
    const pos = (i / (QUANTILES - 1)) * (v.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(v.length - 1, lo + 1);
    return Math.round(v[lo]! + (v[hi]! - v[lo]!) * (pos - lo));
  });
}

function close(t: Tally): CountryRates {
  const outcomes: Record<string, number> = {};
  let kept = 0;
  for (const n of t.outcomes.values()) if (n >= MIN_LABEL) kept += n;
  for (const [label, n] of [...t.outcomes].sort()) if (n >= MIN_LABEL) outcomes[label] = n / kept;
  return {
    calls: t.n,
    connect: t.n ? t.connected / t.n : 0,
    failed: t.n ? t.failed / t.n : 0,
    hours: t.hours.map((h) => (h.n >= MIN_CELL ? { calls: h.n, connect: h.connected / h.n, failed: h.failed / h.n } : null)),
    outcomes,
    talk_seconds: t.talk.length >= MIN_CELL ? quantiles(t.talk) : [],
    other_seconds: t.other.length >= MIN_CELL ? quantiles(t.other) : [],
  };
}

/** A finished call of an export, as much of it as the distributions need. */
function add(t: Tally, status: string, outcome: unknown, seconds: number | undefined, hour: number | undefined): void {
  t.n++;
  const h = hour === undefined ? undefined : t.hours[hour];
  if (h) h.n++;
  if (status === 'completed') {
    t.connected++;
    if (h) h.connected++;
    if (typeof outcome === 'string' && /^[a-z][a-z0-9_]{0,39}$/.test(outcome)) t.outcomes.set(outcome, (t.outcomes.get(outcome) ?? 0) + 1);
    if (seconds !== undefined) t.talk.push(seconds);
  } else {
    if (status === 'failed') {
      t.failed++;
      if (h) h.failed++;
    }
    if (seconds !== undefined) t.other.push(seconds);
  }
}

export class LearnError extends Error {}

/**
 * Learns from the text of an export: JSON lines of calls, or a rates file written
 * before (`--learned-out`). Lines that are not finished calls are skipped and counted.
 */
export function learn(text: string, file: string): { rates: LearnedRates; skipped: number } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') && trimmed.includes(`"format": "${LEARNED_FORMAT}"`) || trimmed.startsWith(`{"format":"${LEARNED_FORMAT}"`)) {
    return { rates: readRates(trimmed, file), skipped: 0 };
  }
  const all = tally();
  const byCountry = new Map<string, Tally>();
  let skipped = 0;
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    if (!line.trim()) continue;
    let call: Record<string, unknown>;
    try {
      call = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new LearnError(`${file}: line ${lineNo} is not JSON (expected the JSON lines of \`voicectl call export --format jsonl\`)`);
    }
    const status = typeof call.status === 'string' ? call.status : undefined;
    if (!status || status === 'initiated' || status === 'pending' || typeof call.phone_number !== 'string') {
      skipped++;
      continue;
    }
    const seconds = typeof call.duration_seconds === 'number' && Number.isFinite(call.duration_seconds) && call.duration_seconds >= 0 ? call.duration_seconds : undefined;
    const started = typeof call.start_time === 'string' ? Date.parse(call.start_time) : NaN;
    const hour = Number.isFinite(started) ? new Date(started).getUTCHours() : undefined;
    const country = parsePhoneNumberFromString(call.phone_number)?.country ?? 'unknown';
    let t = byCountry.get(country);
    if (!t) byCountry.set(country, (t = tally()));
    add(t, status, call.outcome, seconds, hour);
    add(all, status, call.outcome, seconds, hour);
  }
  if (all.n === 0) throw new LearnError(`${file}: no finished call to learn from`);
  const countries: Record<string, CountryRates> = {};
  for (const [cc, t] of [...byCountry].sort(([a], [b]) => a.localeCompare(b))) {
    if (cc !== 'unknown' && t.n >= MIN_CELL) countries[cc] = close(t);
  }
  return { rates: { format: LEARNED_FORMAT, version: LEARNED_VERSION, calls: all.n, overall: close(all), countries }, skipped };
}

function readRates(text: string, file: string): LearnedRates {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new LearnError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  const d = data as Partial<LearnedRates>;
  if (d.format !== LEARNED_FORMAT || d.version !== LEARNED_VERSION || !d.overall || typeof d.countries !== 'object') {
    throw new LearnError(`${file}: not a rates file of this voicectl (format ${LEARNED_FORMAT}, version ${LEARNED_VERSION})`);
  }
  return d as LearnedRates;
}

function sampleQuantiles(q: number[], u: number): number | undefined {
  if (q.length < 2) return undefined;
  const pos = u * (q.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(q.length - 1, lo + 1);
  return Math.max(1, Math.round(q[lo]! + (q[hi]! - q[lo]!) * (pos - lo)));
}

/**
 * A call's fate from the learned rates: its country's hour if seen often enough, else
 * its country, else the whole export. Draws a fixed number of values from the call's
 * generator, so its transcript continues from the same place every time.
 */
export function learnedFate(rng: Rng, rates: LearnedRates, country: string | undefined, hour: number, usual: Fate): Fate {
  const c = (country && rates.countries[country]) || rates.overall;
  const r: Rates = c.hours[hour] ?? c;
  const x = rng.next();
  const u = rng.next();
  const pick = rng.next();
  if (x < r.connect) {
    const labels = Object.entries(c.outcomes);
    let outcome = usual.status === 'completed' ? usual.outcome : labels[0]?.[0] ?? 'information_provided';
    let acc = 0;
    for (const [label, share] of labels) {
      acc += share;
      if (pick < acc) {
        outcome = label;
        break;
      }
    }
    const duration = sampleQuantiles(c.talk_seconds, u) ?? sampleQuantiles(rates.overall.talk_seconds, u) ?? (usual.status === 'completed' ? usual.duration : 90);
    return { status: 'completed', end_reason: 'completed', outcome, error: null, duration, recording_delay: usual.recording_delay ?? 20 };
  }
  const duration = sampleQuantiles(c.other_seconds, u) ?? sampleQuantiles(rates.overall.other_seconds, u) ?? 30;
  if (x < r.connect + r.failed) {
    return { status: 'failed', end_reason: 'carrier_rejected', outcome: 'failed', error: 'The carrier rejected the call.', duration, recording_delay: null };
  }
  return { status: 'no_answer', end_reason: 'no_answer', outcome: 'no_answer', error: null, duration, recording_delay: null };
}
