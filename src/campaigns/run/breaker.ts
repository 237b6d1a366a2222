/**
 * The answer-rate breaker of `campaign run`: a one-sided CUSUM of the log-likelihood
 * ratio (Page's test, a Wald SPRT that restarts whenever the evidence falls back to
 * zero), one for the connect rate falling and one for the failed rate rising.
 *
 * Each dial adds log(p1/p0) when it connected and log((1-p1)/(1-p0)) when it did not,
 * where p0 is the baseline and p1 the rate the breaker is built to catch. The sum is
 * floored at zero, so a long healthy run cannot bank evidence against a later drop; the
 * dials since it last stood at zero are the window the message reports ("over the last
 * 120 dials"). It trips at `threshold` (in nats). With the defaults (a drop to 70% of
 * the baseline, threshold 12) a run of 5,000 dials at the baseline trips in under 1% of
 * runs, measured by test/campaigns/run/breaker.test.ts over 1,000 seeded runs, and a
 * drop from 68% to 20% is caught within about 40 dials. docs/campaign-run.md
 * ("Guardrails") says why this test and these numbers.
 *
 * Pure: no clock, no I/O. The state is plain JSON, kept in the journal.
 */

export type BreakerMode = 'off' | 'warn' | 'pause';
export const BREAKER_MODES: readonly BreakerMode[] = ['off', 'warn', 'pause'];

export interface BreakerSettings {
  mode: BreakerMode;
  /** H1 for the connect rate: the baseline times (1 - drop). */
  connect_drop: number;
  /** H1 for the failed rate: max(baseline x factor, baseline + floor). */
  failed_factor: number;
  failed_floor: number;
  /** Evidence in nats at which the breaker trips. */
  threshold: number;
  /** Dials a run uses to learn its own baseline when the agent has no history. */
  learn_dials: number;
}

export const DEFAULT_BREAKER: BreakerSettings = {
  mode: 'pause',
  connect_drop: 0.3,
  failed_factor: 2,
  failed_floor: 0.1,
  threshold: 12,
  learn_dials: 200,
};

export interface Baseline {
  connect_rate: number;
  failed_rate: number;
  /** Calls it was read from. */
  calls: number;
  /** Where it came from, as a person reads it: "the agent's last 2,000 calls". */
  source: 'history' | 'flag' | 'run' | 'accepted';
}

interface Cusum {
  /** Evidence so far, in nats, floored at 0. */
  s: number;
  /** Dials and hits (connected, or failed) since s last stood at 0. */
  n: number;
  k: number;
}

export interface BreakerState {
  baseline?: Baseline;
  /** Dials seen before a baseline existed (the run learns its own). */
  learning: { n: number; connected: number; failed: number };
  connect: Cusum;
  failed: Cusum;
  /** Set when it tripped; cleared by --resume --accept-rates. */
  tripped?: Trip;
}

export interface Trip {
  metric: 'connect' | 'failed';
  /** The rate seen over `dials` dials. */
  rate: number;
  dials: number;
  baseline: Baseline;
  at: string;
}

export type DialResult = 'connected' | 'no_answer' | 'failed';

export function newBreakerState(baseline?: Baseline): BreakerState {
  return { baseline, learning: { n: 0, connected: 0, failed: 0 }, connect: zero(), failed: zero() };
}

function zero(): Cusum {
  return { s: 0, n: 0, k: 0 };
}

/** The rate the connect test is built to catch: clamped inside (0, 1). */
function clampRate(p: number): number {
  return Math.min(1 - 1e-6, Math.max(1e-6, p));
}

function step(c: Cusum, hit: boolean, p0: number, p1: number): void {
  const a = clampRate(p0);
  const b = clampRate(p1);
  const llr = hit ? Math.log(b / a) : Math.log((1 - b) / (1 - a));
  const s = c.s + llr;
  if (s <= 0) {
    c.s = 0;
    c.n = 0;
    c.k = 0;
  } else {
    c.s = s;
    c.n++;
    if (hit) c.k++;
  }
}

/**
 * Feed one wave's finished dials, in any order; returns the trip when this wave tripped
 * the breaker (the state keeps it). Nothing is tested once tripped, or in mode off.
 */
export function observe(state: BreakerState, dials: DialResult[], settings: BreakerSettings, at: Date): Trip | undefined {
  if (settings.mode === 'off' || state.tripped) return undefined;
  for (const d of dials) {
    if (!state.baseline) {
      state.learning.n++;
      if (d === 'connected') state.learning.connected++;
      if (d === 'failed') state.learning.failed++;
      if (state.learning.n >= settings.learn_dials) {
        state.baseline = {
          connect_rate: state.learning.connected / state.learning.n,
          failed_rate: state.learning.failed / state.learning.n,
          calls: state.learning.n,
          source: 'run',
        };
      }
      continue;
    }
    const b = state.baseline;
    step(state.connect, d === 'connected', b.connect_rate, b.connect_rate * (1 - settings.connect_drop));
    step(state.failed, d === 'failed', b.failed_rate, failedH1(b.failed_rate, settings));
  }
  const b = state.baseline;
  if (!b) return undefined;
  // Checked once a wave: the run can act only between waves.
  let trip: Trip | undefined;
  if (state.connect.s >= settings.threshold && b.connect_rate > 0) {
    trip = { metric: 'connect', rate: state.connect.k / state.connect.n, dials: state.connect.n, baseline: b, at: at.toISOString() };
  } else if (state.failed.s >= settings.threshold) {
    trip = { metric: 'failed', rate: state.failed.k / state.failed.n, dials: state.failed.n, baseline: b, at: at.toISOString() };
  }
  if (trip) state.tripped = trip;
  return trip;
}

function failedH1(p0: number, settings: BreakerSettings): number {
  return Math.min(0.95, Math.max(p0 * settings.failed_factor, p0 + settings.failed_floor));
}

/**
 * `--resume --accept-rates`: the rate that tripped the breaker becomes the baseline
 * (a person looked and accepts it), and the evidence starts again from zero.
 */
export function acceptRates(state: BreakerState): Baseline | undefined {
  const t = state.tripped;
  if (!t) return undefined;
  const prev = t.baseline;
  const baseline: Baseline = t.metric === 'connect'
    ? { connect_rate: t.rate, failed_rate: prev.failed_rate, calls: t.dials, source: 'accepted' }
    : { connect_rate: prev.connect_rate, failed_rate: t.rate, calls: t.dials, source: 'accepted' };
  state.baseline = baseline;
  state.connect = zero();
  state.failed = zero();
  state.tripped = undefined;
  return baseline;
}

/** What a person reads when the breaker trips. */
export function tripMessage(t: Trip, count: (n: number, word: string) => string): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const what = t.metric === 'connect' ? 'connect rate' : 'failed rate';
  const base = t.metric === 'connect' ? t.baseline.connect_rate : t.baseline.failed_rate;
  return `${what} ${pct(t.rate)} over the last ${count(t.dials, 'dial')} against ${pct(base)} over ${baselineSource(t.baseline, count)}`;
}

export function baselineSource(b: Baseline, count: (n: number, word: string) => string): string {
  switch (b.source) {
    case 'history':
      return `the agent's last ${count(b.calls, 'call')}`;
    case 'flag':
      return '--baseline-connect-rate';
    case 'run':
      return `this run's first ${count(b.calls, 'dial')}`;
    case 'accepted':
      return `the rate accepted with --accept-rates (${count(b.calls, 'dial')})`;
  }
}

/** A call's status as the breaker counts it: connected, unanswered, or failed. */
export function dialResult(status: string | undefined): DialResult | undefined {
  if (status === 'completed') return 'connected';
  if (status === 'failed') return 'failed';
  if (status === 'no_answer') return 'no_answer';
  return undefined;
}
