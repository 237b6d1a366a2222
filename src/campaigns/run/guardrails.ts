/**
 * A run's guardrails, between waves: the answer-rate breaker (breaker.ts) and the spend
 * from the user's rate card (rate-card.ts). Their state lives in the journal, so a
 * resumed run keeps its baseline, its evidence and its spend.
 */
import { GuardrailError } from '../../errors.js';
import { plural } from '../../text/text.js';
import { placeOf } from '../../hours/phone-zones.js';
import {
  acceptRates, baselineText, DEFAULT_BREAKER, dialResult, newBreakerState, observe, tripMessage,
  type Baseline, type BreakerMode, type BreakerSettings, type DialResult, type Trip,
} from './breaker.js';
import { addCall, emptySpend, money, type RateCard, type Spend } from '../../reports/rate-card.js';
import type { AgentHistory } from './history.js';
import type { Guardrails, Journal } from './journal.js';

export type { Guardrails } from './journal.js';

/** Calls with fewer finished calls than this give no baseline: the run learns its own. */
const MIN_HISTORY = 100;

export interface GuardrailInput {
  mode?: BreakerMode;
  /** The policy file's thresholds; the rest are DEFAULT_BREAKER's. */
  thresholds?: Partial<Omit<BreakerSettings, 'mode'>>;
  baselineConnectRate?: number;
  /** Who set baselineConnectRate, for messages (default --baseline-connect-rate). */
  baselineSetBy?: string;
  rateCard?: RateCard;
}

export function newGuardrails(input: GuardrailInput, history: AgentHistory | undefined): Guardrails {
  const breaker: BreakerSettings = { ...DEFAULT_BREAKER, ...input.thresholds, mode: input.mode ?? DEFAULT_BREAKER.mode };
  let baseline: Baseline | undefined;
  if (input.baselineConnectRate !== undefined) {
    baseline = { connect_rate: input.baselineConnectRate, failed_rate: 0, calls: 0, source: 'flag', set_by: input.baselineSetBy ?? '--baseline-connect-rate' };
    // The failed rate from the agent's calls when there are enough; else the run learns it from its first dials.
    if (history && history.calls >= MIN_HISTORY && history.failed_rate !== undefined) {
      Object.assign(baseline, { failed_rate: history.failed_rate, failed_calls: history.calls, failed_from: 'history' });
    }
  } else if (history && history.calls >= MIN_HISTORY && history.connect_rate !== undefined) {
    baseline = { connect_rate: history.connect_rate, failed_rate: history.failed_rate ?? 0, calls: history.calls, source: 'history' };
  }
  const g: Guardrails = { breaker, state: newBreakerState(baseline), trips: [] };
  if (input.rateCard) {
    g.rate_card = input.rateCard;
    g.spend = emptySpend(input.rateCard);
  }
  return g;
}

/** What a plan (the dry run's JSON) says of the guardrails: the breaker's settings and baseline, and the rate card's source. */
export function guardrailsPlan(j: Journal): Record<string, unknown> | undefined {
  const g = j.guardrails;
  if (!g) return undefined;
  return {
    breaker: g.breaker,
    baseline: g.state.baseline ?? null,
    rate_card: g.rate_card ? { source: g.rate_card.source, currency: g.rate_card.currency, countries: Object.keys(g.rate_card.rates) } : null,
  };
}

/** The breaker in one line of the forecast. */
export function breakerLine(j: Journal): string | undefined {
  const g = j.guardrails;
  if (!g) return undefined;
  const b = g.breaker;
  if (b.mode === 'off') return '  Answer-rate breaker: off (--breaker off).';
  const base = g.state.baseline;
  const against = base
    ? `a connect rate of ${baselineText(base, 'connect', plural)}`
    : `the connect rate of the run's first ${plural(b.learn_dials, 'dial')}`;
  const changed = (Object.keys(DEFAULT_BREAKER) as Array<keyof BreakerSettings>).filter((k) => k !== 'mode' && b[k] !== DEFAULT_BREAKER[k]);
  const thresholds = changed.length > 0 ? `; ${changed.map((k) => `${k} ${b[k]}`).join(', ')}` : '';
  return `  Answer-rate breaker: ${b.mode === 'pause' ? 'pauses the run (exit 7)' : 'warns'} if connects collapse or failures rise, against ${against}${thresholds}.`;
}

/** One finished call of a wave, as the guardrails need it. */
export interface WaveCall {
  phone_number: string;
  status?: string;
  duration_seconds?: number;
}

/**
 * After a wave: its dials go to the breaker and its calls to the spend. Returns the trip
 * when the breaker tripped; in mode pause the caller pauses the run with it.
 */
export function afterWave(j: Journal, statuses: Array<string | undefined>, calls: WaveCall[], at: Date): Trip | undefined {
  const g = j.guardrails;
  if (!g) return undefined;
  if (g.rate_card && g.spend) {
    for (const c of calls) {
      if (!c.status || c.status === 'initiated' || c.status === 'pending') continue;
      addCall(g.spend, g.rate_card, placeOf(c.phone_number).country, c.duration_seconds ?? 0, c.status === 'completed');
    }
  }
  const dials = statuses.map(dialResult).filter((d): d is DialResult => d !== undefined);
  const trip = observe(g.state, dials, g.breaker, at);
  if (trip) g.trips.push({ ...trip });
  if (trip && g.breaker.mode === 'warn') {
    // Warned once; the evidence starts again, so a collapse that goes on warns again.
    g.state.tripped = undefined;
    g.state.connect = { s: 0, n: 0, k: 0 };
    g.state.failed = { s: 0, n: 0, k: 0 };
  }
  return trip;
}

export function tripText(t: Trip): string {
  return tripMessage(t, plural);
}

/**
 * The error that ends a run the breaker paused (exit 7): what it saw, that nothing more is
 * released, and the two ways on, each a command on its own line. `journal` is the path as
 * the resume command names it, for the report of the run's calls.
 */
export function guardrailStop(t: Trip, resume: string, journal?: string): GuardrailError {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const before = t.metric === 'connect' ? t.baseline.connect_rate : t.baseline.failed_rate;
  const look = journal ? ` (voicectl campaign report --run ${journal})` : '';
  return new GuardrailError(`The answer-rate breaker paused the run: ${tripText(t)}. No further wave is released; the calls already released finish on the service.`, {
    code: 'answer_rate_breaker',
    hint: [
      `Look at the last waves' calls first${look}: a caller ID marked as spam, wrong numbers, a changed agent.`,
      `Then continue, still comparing with ${pct(before)}:`,
      `  ${resume}`,
      `or take ${pct(t.rate)} as the new ${t.metric} rate and continue:`,
      `  ${resume} --accept-rates`,
    ].join('\n'),
    details: {
      metric: t.metric, rate: t.rate, dials: t.dials, baseline: t.baseline, at: t.at,
      resume, accept_rates: `${resume} --accept-rates`,
    },
  });
}

/**
 * --resume after a trip: with --accept-rates the tripping rate becomes the baseline;
 * without, the baseline stays and the evidence starts again (a person looked).
 */
export function resumeAfterTrip(j: Journal, accept: boolean): string | undefined {
  const g = j.guardrails;
  const t = g?.state.tripped;
  if (!g || !t) return undefined;
  const last = g.trips[g.trips.length - 1];
  if (accept) {
    const b = acceptRates(g.state)!;
    if (last) last.resumed = 'accepted';
    return `The breaker's baseline is now the rate you accepted: connect ${Math.round(b.connect_rate * 100)}%, failed ${Math.round(b.failed_rate * 100)}%.`;
  }
  g.state.tripped = undefined;
  g.state.connect = { s: 0, n: 0, k: 0 };
  g.state.failed = { s: 0, n: 0, k: 0 };
  if (last) last.resumed = 'looked';
  return `Continuing after a look: the breaker watches again against ${baselineText(t.baseline, t.metric, plural)} (--accept-rates would take the new rate instead).`;
}

/** The spend so far and the projected total, for run status and the report. */
export function spendSummary(j: Journal): { spent: Spend; projected_minor?: number; text: string } | undefined {
  const g = j.guardrails;
  if (!g?.spend || !g.rate_card) return undefined;
  const s = g.spend;
  const dialed = s.calls + Object.values(s.unpriced).reduce((a, b) => a + b, 0);
  const left = j.contacts.filter((c) => c.state === 'waiting' || c.state === 'in_wave').length;
  const projected = s.calls > 0 ? Math.round(s.minor + (s.minor / s.calls) * left) : undefined;
  const unpriced = Object.entries(s.unpriced).map(([cc, n]) => `${plural(n, 'call')} to ${cc}`).join(', ');
  const text = `Spent ${money(s.minor, s.currency, s.exponent)} on ${plural(dialed, 'call')}${projected !== undefined && left > 0 ? `; about ${money(projected, s.currency, s.exponent)} in all when the ${plural(left, 'contact')} left are dialed once` : ''}${unpriced ? `; unpriced (no rate in ${g.rate_card.source}): ${unpriced}` : ''}.`;
  return { spent: s, ...(projected !== undefined ? { projected_minor: projected } : {}), text };
}
