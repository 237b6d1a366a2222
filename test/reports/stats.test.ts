import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { campaignReport, percent } from '../../src/reports/stats.js';
import { duration } from '../../src/text/text.js';

const call = (id: string, o: Partial<Call>): Call => ({ call_id: id, start_time: '2026-05-01T10:15:00Z', end_time: '2026-05-01T10:17:00Z', status: 'completed', ...o });

describe('campaign report figures', () => {
  const calls: Call[] = [
    call('a', { outcome: 'requirements_gathered', duration_seconds: 20 }),
    call('b', { outcome: 'requirements_gathered', duration_seconds: 100, start_time: '2026-05-01T11:05:00Z' }),
    call('c', { outcome: 'do_not_call', duration_seconds: 400 }),
    call('d', { status: 'no_answer', outcome: null, duration_seconds: 30 }),
    call('e', { status: 'failed', outcome: null, duration_seconds: 2, start_time: '2026-05-01T11:30:00Z' }),
    call('f', { status: 'initiated', end_time: null }),
    call('a', { outcome: 'requirements_gathered', duration_seconds: 20 }), // listed twice by a shifting page
  ];
  const contacts = [
    { phone_number: '+1', status: 'completed' }, { phone_number: '+2', status: 'completed' }, { phone_number: '+3', status: 'completed' },
    { phone_number: '+4', status: 'no_answer' }, { phone_number: '+5', status: 'failed' }, { phone_number: '+6', status: 'initiated' },
  ];
  const r = campaignReport({ id: 'c1', name: 'Renewals', status: 'running' }, contacts, calls);

  it('counts each call once; connected and the connect rate are of finished calls', () => {
    expect(r.calls).toBe(6);
    expect(r.finished_calls).toBe(5);
    expect(r.connected).toBe(3);
    expect(r.connect_rate).toBe(3 / 5);
    expect(r.contacts).toBe(6);
    expect(r.contacts_by_status).toEqual({ completed: 3, no_answer: 1, failed: 1, initiated: 1 });
  });

  it('outcomes label unanswered and failed calls by their status, most frequent first', () => {
    expect(Object.entries(r.outcomes)).toEqual([['requirements_gathered', 2], ['do_not_call', 1], ['failed', 1], ['no_answer', 1]]);
  });

  it('durations of connected calls: average, median and buckets', () => {
    expect(r.duration.average_seconds).toBeCloseTo((20 + 100 + 400) / 3, 10);
    expect(r.duration.median_seconds).toBe(100);
    expect(Object.fromEntries(r.duration.histogram.map((b) => [b.bucket, b.calls]))).toEqual({ '0-30s': 1, '30-60s': 0, '1-2m': 1, '2-3m': 0, '3-5m': 0, '5-10m': 1, '10m+': 0 });
  });

  it('calls per hour and connect rate by hour of day (UTC)', () => {
    expect(r.calls_per_hour).toEqual([{ hour: '2026-05-01T10:00Z', calls: 3 }, { hour: '2026-05-01T11:00Z', calls: 2 }]);
    expect(r.connect_rate_by_hour_of_day[10]).toEqual({ hour: 10, calls: 3, connected: 2, rate: 2 / 3 });
    expect(r.connect_rate_by_hour_of_day[11]).toEqual({ hour: 11, calls: 2, connected: 1, rate: 0.5 });
    expect(r.connect_rate_by_hour_of_day[3]!.rate).toBeNull();
  });

  it('an empty campaign has no rates rather than dividing by zero', () => {
    const empty = campaignReport({ id: 'x', contacts_by_status: { pending: 4 } }, [], []);
    expect(empty.contacts).toBe(4);
    expect(empty.connect_rate).toBeNull();
    expect(empty.duration.average_seconds).toBeNull();
    expect(percent(empty.connect_rate)).toBe('-');
    expect(duration(125, { missing: '-' })).toBe('2m 05s');
  });
});
