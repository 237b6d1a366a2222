/**
 * A rehearsal of a `campaign run` (`campaign run --rehearse`): what of it is decided
 * without the sandbox it runs on. Its own journal file beside the real one, the time
 * scale that plays the forecast's span in seconds, and the forecast's numbers beside
 * what happened. The verb starts the sandbox and drives the run (src/commands/campaign/).
 */
import { basename, dirname, join } from 'node:path';
import { capDay } from './plan.js';
import type { Forecast } from './forecast.js';
import type { Journal } from './journal.js';

/** How long the run's waits should last in real time: its requests and writes come on top (room under a minute on a loaded machine). */
export const REHEARSAL_TARGET_MS = 15_000;
/** At least this fast: an hour of calling windows is never worth more than a minute of waiting. */
const MIN_SCALE = 60;
/** At most this fast: above it a call's few simulated seconds fall under the timers' resolution. */
const MAX_SCALE = 20_000;

/** What a rehearsal takes beside the run's plan (RunPlan): where it writes its report as a page, if anywhere. */
export interface RehearsalChoice {
  /** The HTML report's path (--html). */
  html?: string;
}

/** leads.run.json → leads.rehearsal.run.json: never the real run's journal. */
export function rehearsalJournalPath(realPath: string): string {
  const name = basename(realPath);
  const m = /^(.*)\.run\.json$/i.exec(name);
  const out = m ? `${m[1]}.rehearsal.run.json` : `${name.replace(/\.json$/i, '')}.rehearsal.json`;
  return dirname(realPath) === '.' && !realPath.startsWith('./') ? out : join(dirname(realPath), out);
}

/**
 * The simulated span a rehearsal must play: the forecast's finish after the last wave's
 * length, with the retries the policy allows; never past the deadline.
 */
export function rehearsalSpanMs(j: Journal, f: Forecast, now: number): number {
  const p = j.policy;
  const lastWave = f.waves.length ? Date.parse(f.waves[f.waves.length - 1]!.at) : now;
  let end = Math.max(lastWave, f.expected_finish ? Date.parse(f.expected_finish) : now) + p.wave_length_ms;
  if (p.attempts > 1) end += (p.attempts - 1) * (p.retry_after_ms + p.wave_length_ms);
  if (p.deadline) end = Math.min(end, Date.parse(p.deadline) + p.wave_length_ms);
  return Math.max(0, end - now);
}

/** The time scale that plays `spanMs` of simulated time in about REHEARSAL_TARGET_MS. */
export function rehearsalScale(spanMs: number): number {
  const raw = spanMs / REHEARSAL_TARGET_MS;
  // A round number a person can read back: 60, 600, 3,600, 12,000 ...
  const step = raw >= 1000 ? 1000 : raw >= 100 ? 100 : 10;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.ceil(raw / step) * step));
}

export type MeasureKind = 'count' | 'time' | 'days' | 'money';

/** One line of the forecast beside the rehearsal: numbers (minor units for money), or ISO times. */
export interface Measure {
  measure: string;
  kind: MeasureKind;
  forecast: number | string | null;
  /** A range's upper end (the cost). */
  forecast_high?: number;
  actual: number | string | null;
  /** What the forecast counts differently from the run, when it does. */
  note?: string;
  currency?: string;
  exponent?: number;
}

/** The calendar days (in `zone`) on which these times fall: the days a run releases waves. */
function days(times: number[], zone: string): number | null {
  return times.length ? new Set(times.map((t) => capDay(t, zone))).size : null;
}

const parse = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Date.parse(iso));

/** The forecast shown before the rehearsal, and what the rehearsal did, measure by measure. */
export function forecastVsActual(f: Forecast, j: Journal, zone: string): Measure[] {
  const launched = j.waves.map((w) => parse(w.launched_at)).filter((t): t is number => t !== undefined);
  const done = j.waves.map((w) => parse(w.done_at)).filter((t): t is number => t !== undefined);
  const firstAt = launched.length ? Math.min(...launched) : undefined;
  const endAt = done.length ? Math.max(...done) : undefined;
  const dialed = j.contacts.filter((c) => c.attempts > 0).length;
  const dials = j.contacts.reduce((n, c) => n + c.attempts, 0);
  const connected = j.contacts.filter((c) => c.last_status === 'completed').length;
  const expired = j.contacts.filter((c) => c.state === 'expired').length;
  const retries = j.policy.attempts > 1;
  const rows: Measure[] = [
    { measure: 'waves', kind: 'count', forecast: f.waves.length, actual: j.waves.length, ...(retries ? { note: 'the forecast counts first attempts only' } : {}) },
    { measure: 'contacts dialed', kind: 'count', forecast: f.contacts - f.would_expire, actual: dialed },
    { measure: 'dials', kind: 'count', forecast: f.contacts - f.would_expire, actual: dials, ...(retries ? { note: 'the forecast counts first attempts only' } : {}) },
    { measure: 'connected', kind: 'count', forecast: f.history?.expected_connected ?? null, actual: connected, ...(f.history?.expected_connected === undefined ? { note: 'no call history to forecast from' } : {}) },
    { measure: 'expired', kind: 'count', forecast: f.would_expire, actual: expired },
    { measure: 'first wave', kind: 'time', forecast: f.waves[0]?.at ?? null, actual: firstAt === undefined ? null : new Date(firstAt).toISOString() },
    { measure: 'finish', kind: 'time', forecast: f.expected_finish ?? null, actual: endAt === undefined ? null : new Date(endAt).toISOString(), ...(retries ? { note: 'the forecast\'s finish is before retries' } : {}) },
    { measure: 'calling days', kind: 'days', forecast: days(f.waves.map((w) => Date.parse(w.at)), zone), actual: days(launched, zone), ...(retries ? { note: 'the days waves are released on; the forecast\'s, of first attempts' } : { note: 'the days waves are released on' }) },
  ];
  const spend = j.guardrails?.spend;
  if (f.cost && spend) {
    rows.push({
      measure: 'cost', kind: 'money', forecast: f.cost.low_minor_units, forecast_high: f.cost.high_minor_units, actual: spend.minor,
      currency: spend.currency, exponent: spend.exponent, ...(retries ? { note: 'the forecast prices first attempts only' } : {}),
    });
  }
  return rows;
}
