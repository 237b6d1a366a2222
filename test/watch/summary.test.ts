import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatSummary, summarize, Tally } from '../../src/watch/summary.js';

const plain = new Chalk({ level: 0 });

function call(id: number, fields: Record<string, unknown>) {
  return { call_id: `c${id}`, start_time: `2025-03-01T10:00:0${id % 10}Z`, end_time: `2025-03-01T10:05:0${id % 10}Z`, ...fields };
}

describe('summarize', () => {
  const tally = new Tally();
  tally.add(call(1, { status: 'completed', outcome: 'requirements_gathered', duration_seconds: 120 }));
  tally.add(call(2, { status: 'completed', outcome: 'requirements_gathered', duration_seconds: 60 }));
  tally.add(call(3, { status: 'completed', outcome: 'not_interested', duration_seconds: 45 }));
  tally.add(call(4, { status: 'no_answer', outcome: null, end_reason: 'no_answer', duration_seconds: 30 }));
  tally.add(call(5, { status: 'failed', end_reason: 'number_unreachable', duration_seconds: 2 }));
  const campaign = { id: 'camp', name: 'Spring', status: 'completed', contacts_by_status: { pending: 0, initiated: 0, completed: 3, no_answer: 1, failed: 1 } };

  it('counts outcomes (falling back to end reason), the connect rate and the average of connected calls', () => {
    expect(summarize(campaign, tally)).toEqual({
      campaign_id: 'camp',
      name: 'Spring',
      status: 'completed',
      total_contacts: 5,
      contacts_by_status: campaign.contacts_by_status,
      calls: 5,
      outcomes: { requirements_gathered: 2, no_answer: 1, not_interested: 1, number_unreachable: 1 },
      connected: 3,
      connect_rate: 0.6,
      average_duration_seconds: 75,
      average_duration_of: 'connected_calls',
    });
  });

  it('prints the outcomes, connect rate and average duration', () => {
    const text = formatSummary(summarize(campaign, tally), plain).join('\n');
    expect(text).toContain('Campaign "Spring" completed: 5 contacts, 5 finished calls');
    expect(text).toMatch(/requirements_gathered\s+2\s+40\.0%/);
    expect(text).toMatch(/completed\s+3\s+60\.0%/);
    expect(text).toContain('Connect rate      60.0% (3 of 5)');
    expect(text).toContain('Average duration  1m 15s per connected call');
  });

  it('copes with a campaign without counts and calls without statuses or durations', () => {
    const t = new Tally();
    t.add({ call_id: 'a', outcome: 'x' });
    t.add({ call_id: 'b' });
    const s = summarize({ id: 'camp' }, t);
    expect(s).toMatchObject({ total_contacts: 2, calls: 2, connected: 1, connect_rate: 0.5, average_duration_seconds: null, outcomes: { x: 1, unknown: 1 } });
    expect(formatSummary(s, plain).join('\n')).toContain('Average duration  -');
  });

  it('averages every call when none reads as connected', () => {
    const t = new Tally();
    t.add({ call_id: 'a', status: 'done', duration_seconds: 10 });
    t.add({ call_id: 'b', status: 'done', duration_seconds: 20 });
    expect(summarize({ id: 'x' }, t)).toMatchObject({ average_duration_seconds: 15, average_duration_of: 'all_calls' });
  });

  it('keeps the latest finished calls in end-time order, and only so many', () => {
    const t = new Tally(3);
    for (const i of [5, 1, 4, 2, 3]) t.add(call(i, { status: 'completed' }));
    expect(t.recent.map((c) => c.call_id)).toEqual(['c3', 'c4', 'c5']);
  });
});
