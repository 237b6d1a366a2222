/**
 * The answer-rate breaker of `campaign run`: a one-sided CUSUM of the log-likelihood
 * ratio (Page's test, a Wald SPRT that restarts whenever the evidence falls back to
 * zero), one for the connect rate falling and one for the failed rate rising.
 *
 * Each dial adds log(p1/p0) when it connected and log((1-p1)/(1-p0)) when it did not,
 * where p0 is the baseline and p1 the rate the breaker is built to catch. The sum is
 * floored at zero, so a long healthy run cannot bank evidence against a later drop; the
 * dials since it last stood at zero are the window the message reports ("over the last
 * 120 dials"). It trips at `threshold` (in nats). The baseline is itself a sample, so p0 is
 * the edge of its 95% interval on the side that would raise false alarms (nullRates).
 * With the defaults (a drop to 70% of the baseline, threshold 12) a run of 5,000 dials at
 * the baseline trips in at most 1% of runs whether the baseline is 2,000 calls of history,
 * 100, the run's own first 200 dials or a rate the user set, measured by
 * test/campaigns/run/breaker.test.ts over 1,000 seeded runs each, and a drop from 68% to
 * 20% is caught within a wave of 100 dials. docs/campaign-run.md ("Guardrails") says why
 * this test and these numbers.
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
  /** Calls it was read from (0 for a rate the user set: exact). */
  calls: number;
  /** Calls the failed rate was read from, when not `calls` (a connect rate the user set, with the agent's failures). */
  failed_calls?: number;
  /** Where it came from, as a person reads it: "the agent's last 2,000 calls". */
  source: 'history' | 'flag' | 'run' | 'accepted';
  /** source flag: who set it ("--baseline-connect-rate", "the policy file run.yaml"). */
  set_by?: string;
  /** source flag: the failed rate is the agent's history's, or learned from the run's first dials. */
  failed_from?: 'history' | 'run';
  /** source accepted: which rate was accepted (the other is kept). */
  accepted?: 'connect' | 'failed';
}

/**
 * How sure the baseline's rates are: each is read from a sample, so the test compares
 * against the edge of its 95% interval (Wilson score, z = 2) on the side that would
 * otherwise raise false alarms: the connect rate's lower bound, the failed rate's upper
 * bound. From 2,000 calls the edge moves by about 2 points; from 100 by about 10, which is
 * what keeps a short history from pausing a healthy run (docs/campaign-run.md).
 */
const Z = 2;

function wilson(p: number, n: number, side: -1 | 1): number {
  if (!Number.isFinite(n) || n <= 0) return p;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * n);
  const spread = Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return (centre + side * spread) / (1 + z2 / n);
}

/** The rates the test holds as "no change" (H0). */
export function nullRates(b: Baseline): { connect: number; failed: number } {
  const n = b.source === 'flag' ? Infinity : b.calls;
  return { connect: wilson(b.connect_rate, n, -1), failed: wilson(b.failed_rate, b.failed_calls ?? n, 1) };
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
    const h0 = nullRates(b);
    step(state.connect, d === 'connected', h0.connect, h0.connect * (1 - settings.connect_drop));
    if (failedUnknown(b)) {
      // A connect rate the user set, and no failures to compare with: the run learns its own.
      state.learning.n++;
      if (d === 'failed') state.learning.failed++;
      if (state.learning.n >= settings.learn_dials) {
        b.failed_rate = state.learning.failed / state.learning.n;
        b.failed_calls = state.learning.n;
        b.failed_from = 'run';
      }
      continue;
    }
    step(state.failed, d === 'failed', h0.failed, failedH1(h0.failed, settings));
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

/** A baseline whose failed rate is not known yet (a connect rate the user set, without the agent's history). */
function failedUnknown(b: Baseline): boolean {
  return (b.source === 'flag' || b.source === 'accepted') && !b.failed_calls;
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
  // The rate that was not in question keeps its old value and how sure it was.
  const baseline: Baseline = t.metric === 'connect'
    ? { connect_rate: t.rate, failed_rate: prev.failed_rate, calls: t.dials, failed_calls: prev.failed_calls ?? prev.calls, source: 'accepted', accepted: 'connect' }
    : { connect_rate: prev.connect_rate, failed_rate: t.rate, calls: prev.source === 'flag' ? 0 : prev.calls, failed_calls: t.dials, source: 'accepted', accepted: 'failed' };
  state.baseline = baseline;
  state.connect = zero();
  state.failed = zero();
  state.tripped = undefined;
  return baseline;
}

/** What a person reads when the breaker trips: "connect rate 18% over the last 120 dials against 52% over the agent's last 2,000 calls". */
export function tripMessage(t: Trip, count: (n: number, word: string) => string): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const what = t.metric === 'connect' ? 'connect rate' : 'failed rate';
  return `${what} ${pct(t.rate)} over the last ${count(t.dials, 'dial')} against ${baselineText(t.baseline, t.metric, count)}`;
}

/** A baseline rate and where it came from: "52% over the agent's last 2,000 calls", "68% set by --baseline-connect-rate". */
export function baselineText(b: Baseline, metric: 'connect' | 'failed', count: (n: number, word: string) => string): string {
  const pct = `${Math.round((metric === 'connect' ? b.connect_rate : b.failed_rate) * 100)}%`;
  switch (b.source) {
    case 'history':
      return `${pct} over the agent's last ${count(b.calls, 'call')}`;
    case 'flag':
      if (metric === 'connect') return `${pct} set by ${b.set_by ?? '--baseline-connect-rate'}`;
      return `${pct} over ${b.failed_from === 'run' ? "this run's first" : "the agent's last"} ${count(b.failed_calls ?? 0, b.failed_from === 'run' ? 'dial' : 'call')}`;
    case 'run':
      return `${pct} over this run's first ${count(b.calls, 'dial')}`;
    case 'accepted':
      if (b.accepted !== undefined && b.accepted !== metric) return `${pct}, kept when the ${b.accepted} rate was accepted`;
      return `${pct} accepted with --accept-rates (over ${count(metric === 'failed' ? (b.failed_calls ?? b.calls) : b.calls, 'dial')})`;
  }
}

/** A call's status as the breaker counts it: connected, unanswered, or failed (the spec's statuses; any other is not counted). */
export function dialResult(status: string | undefined): DialResult | undefined {
  if (status === 'completed') return 'connected';
  if (status === 'failed') return 'failed';
  if (status === 'no_answer') return 'no_answer';
  return undefined;
}
