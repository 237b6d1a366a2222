import { describe, expect, it } from 'vitest';
import { acceptRates, DEFAULT_BREAKER, newBreakerState, observe, tripMessage, type Baseline, type DialResult } from '../../../src/campaigns/run/breaker.js';
import { plural as count } from '../../../src/text/text.js';

/** A small seeded generator (mulberry32), so the simulation repeats exactly. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dial(r: () => number, connect: number, failed = 0.12): DialResult {
  const x = r();
  return x < connect ? 'connected' : x < 1 - failed ? 'no_answer' : 'failed';
}

/** The agent's history: 2,000 calls drawn at the true rates, so the baseline carries its own noise. */
function history(r: () => number, connect = 0.68): Baseline {
  let c = 0;
  let f = 0;
  for (let i = 0; i < 2000; i++) {
    const d = dial(r, connect);
    if (d === 'connected') c++;
    if (d === 'failed') f++;
  }
  return { connect_rate: c / 2000, failed_rate: f / 2000, calls: 2000, source: 'history' };
}

const AT = new Date('2026-12-01T10:00:00Z');

describe('the answer-rate breaker', () => {
  it('pauses in at most 1% of 1,000 seeded runs of 5,000 dials with no drop', () => {
    let tripped = 0;
    for (let run = 0; run < 1000; run++) {
      const r = rng(run + 1);
      const state = newBreakerState(history(r));
      for (let wave = 0; wave < 50; wave++) {
        const dials = Array.from({ length: 100 }, () => dial(r, 0.68));
        if (observe(state, dials, DEFAULT_BREAKER, AT)) {
          tripped++;
          break;
        }
      }
    }
    console.log(`breaker false alarms: ${tripped} of 1,000 runs of 5,000 dials (${(tripped / 10).toFixed(1)}%)`);
    expect(tripped).toBeLessThanOrEqual(10);
  });

  it('catches a drop from 68% to 20% after 300 dials within one wave of 100 in every one of 200 runs', () => {
    const late: number[] = [];
    for (let run = 0; run < 200; run++) {
      const r = rng(10_000 + run);
      const state = newBreakerState(history(r));
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
    expect(Math.max(...late)).toBe(0);
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
