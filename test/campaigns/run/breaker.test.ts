import { describe, expect, it } from 'vitest';
import { rng } from '../../helpers/rng.js';
import { acceptRates, DEFAULT_BREAKER, newBreakerState, observe, tripMessage, type Baseline, type DialResult } from '../../../src/campaigns/run/breaker.js';
import { plural as count } from '../../../src/text/text.js';

function dial(r: () => number, connect: number, failed = 0.12): DialResult {
  const x = r();
  return x < connect ? 'connected' : x < 1 - failed ? 'no_answer' : 'failed';
}

/** The agent's history: `calls` calls drawn at the true rates, so the baseline carries its own noise. */
function history(r: () => number, connect = 0.68, calls = 2000, failed = 0.12): Baseline {
  let c = 0;
  let f = 0;
  for (let i = 0; i < calls; i++) {
    const d = dial(r, connect, failed);
    if (d === 'connected') c++;
    if (d === 'failed') f++;
  }
  return { connect_rate: c / calls, failed_rate: f / calls, calls, source: 'history' };
}

const AT = new Date('2026-12-01T10:00:00Z');

describe('the answer-rate breaker', () => {
  // Each row: where the baseline comes from, the true rates (which never change), the wave size.
  // The baseline is drawn from the same rates, so it is as wrong as a real one: from 100
  // calls a connect rate is off by up to 10 points, and a rare failure may not show at all.
  it.each([
    ['the agent\'s last 2,000 calls', { calls: 2000, connect: 0.68, failed: 0.12, wave: 100 }],
    ['the agent\'s last 100 calls (the fewest it uses)', { calls: 100, connect: 0.68, failed: 0.12, wave: 100 }],
    ['the agent\'s last 100 calls, failures rare (1%)', { calls: 100, connect: 0.6, failed: 0.01, wave: 100 }],
    ['the run\'s own first 200 dials (no history)', { calls: 0, connect: 0.68, failed: 0.12, wave: 100 }],
    ['the run\'s own first 200 dials, waves of 500', { calls: 0, connect: 0.5, failed: 0.01, wave: 500 }],
    ['a connect rate set by the user, failures learned from the run', { calls: -1, connect: 0.68, failed: 0.12, wave: 100 }],
  ])('pauses in at most 10 of 1,000 seeded runs of 5,000 dials with no drop (1 in 100), baseline from %s', (what, o) => {
    let tripped = 0;
    for (let run = 0; run < 1000; run++) {
      const r = rng(run + 1);
      const baseline: Baseline | undefined = o.calls > 0
        ? history(r, o.connect, o.calls, o.failed)
        : o.calls < 0 ? { connect_rate: o.connect, failed_rate: 0, calls: 0, source: 'flag' } : undefined;
      const state = newBreakerState(baseline);
      for (let n = 0; n < 5000; n += o.wave) {
        const dials = Array.from({ length: o.wave }, () => dial(r, o.connect, o.failed));
        if (observe(state, dials, DEFAULT_BREAKER, AT)) {
          tripped++;
          break;
        }
      }
      // The test ran on every dial: a baseline existed, and the failed test had its rate.
      expect(state.baseline).toBeDefined();
      expect(state.baseline!.source === 'flag' ? state.baseline!.failed_calls : 1).toBeGreaterThan(0);
    }
    console.log(`breaker false alarms, baseline from ${what}: ${tripped} of 1,000 runs of 5,000 dials (${(tripped / 10).toFixed(1)}%)`);
    expect(tripped).toBeLessThanOrEqual(10);
  });

  it.each([
    ['the agent\'s last 2,000 calls', 2000, 0],
    ['the agent\'s last 100 calls', 100, 1],
    ['the run\'s first 200 dials', 0, 1],
  ])('catches a drop of the connect rate from 68 to 20 percent after 300 dials in every one of 200 runs, baseline from %s (late by at most %i wave of 100)', (_what, calls, allowed) => {
    const late: number[] = [];
    for (let run = 0; run < 200; run++) {
      const r = rng(10_000 + run);
      const state = newBreakerState(calls > 0 ? history(r, 0.68, calls) : undefined);
      let n = 0;
      for (let wave = 0; ; wave++) {
        const dials = Array.from({ length: 100 }, () => dial(r, ++n > 300 ? 0.2 : 0.68));
        if (observe(state, dials, DEFAULT_BREAKER, AT)) {
          late.push(wave - 3);
          break;
        }
        if (wave > 20) throw new Error('never tripped');
      }
    }
    expect(Math.min(...late)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...late)).toBeLessThanOrEqual(allowed);
  });

  it('says what it saw, against what, and keeps the trip until the rates are accepted', () => {
    const state = newBreakerState({ connect_rate: 0.52, failed_rate: 0.1, calls: 2000, source: 'history' });
    const dials: DialResult[] = Array.from({ length: 120 }, (_, i) => (i % 50 < 9 ? 'connected' : 'no_answer'));
    const trip = observe(state, dials, DEFAULT_BREAKER, AT)!;
    expect(trip.metric).toBe('connect');
    expect(tripMessage(trip, count)).toMatch(/^connect rate \d+% over the last \d+ dials against 52% over the agent's last 2,000 calls$/);
    expect(observe(state, ['connected'], DEFAULT_BREAKER, AT)).toBeUndefined();
    expect(state.tripped).toBeDefined();
    const accepted = acceptRates(state)!;
    expect(accepted.source).toBe('accepted');
    expect(accepted.connect_rate).toBeCloseTo(trip.rate);
    expect(state.tripped).toBeUndefined();
    expect(state.connect.s).toBe(0);
  });

  it('catches failures that rise even when connects hold', () => {
    const state = newBreakerState({ connect_rate: 0.6, failed_rate: 0.05, calls: 2000, source: 'history' });
    const r = rng(5);
    let trip;
    for (let wave = 0; wave < 10 && !trip; wave++) {
      trip = observe(state, Array.from({ length: 100 }, () => dial(r, 0.6, 0.35)), DEFAULT_BREAKER, AT);
    }
    expect(trip?.metric).toBe('failed');
  });

  it('does not pause on a couple of failures after a history that had none', () => {
    const state = newBreakerState({ connect_rate: 0.6, failed_rate: 0, calls: 150, source: 'history' });
    const wave: DialResult[] = Array.from({ length: 100 }, (_, i) => (i < 3 ? 'failed' : i < 63 ? 'connected' : 'no_answer'));
    expect(observe(state, wave, DEFAULT_BREAKER, AT)).toBeUndefined();
  });

  it('with a connect rate the user set, learns the failed rate from the run and names both in the message', () => {
    const state = newBreakerState({ connect_rate: 0.68, failed_rate: 0, calls: 0, source: 'flag', set_by: 'baseline_connect_rate in run.yaml' });
    const r = rng(3);
    expect(observe(state, Array.from({ length: 200 }, () => dial(r, 0.68, 0.05)), DEFAULT_BREAKER, AT)).toBeUndefined();
    expect(state.baseline).toMatchObject({ failed_calls: 200, failed_from: 'run' });
    let trip;
    for (let wave = 0; wave < 10 && !trip; wave++) trip = observe(state, Array.from({ length: 100 }, () => dial(r, 0.68, 0.3)), DEFAULT_BREAKER, AT);
    expect(trip?.metric).toBe('failed');
    expect(tripMessage(trip!, count)).toMatch(/^failed rate \d+% over the last \d+ dials against \d+% over this run's first 200 dials$/);
    const connect = newBreakerState({ connect_rate: 0.68, failed_rate: 0, calls: 0, source: 'flag', set_by: 'baseline_connect_rate in run.yaml' });
    const low = observe(connect, Array.from({ length: 100 }, (_, i) => (i % 5 === 0 ? 'connected' : 'no_answer')), DEFAULT_BREAKER, AT)!;
    expect(tripMessage(low, count)).toMatch(/^connect rate \d+% over the last \d+ dials against 68% set by baseline_connect_rate in run\.yaml$/);
  });

  it('learns its baseline from the run when the agent has none, and never trips in mode off', () => {
    const state = newBreakerState();
    const r = rng(7);
    observe(state, Array.from({ length: 250 }, () => dial(r, 0.6)), DEFAULT_BREAKER, AT);
    expect(state.baseline?.source).toBe('run');
    expect(state.baseline?.calls).toBe(200);
    const off = newBreakerState({ connect_rate: 0.7, failed_rate: 0.1, calls: 100, source: 'flag' });
    expect(observe(off, Array.from({ length: 500 }, () => 'no_answer' as const), { ...DEFAULT_BREAKER, mode: 'off' }, AT)).toBeUndefined();
  });
});
