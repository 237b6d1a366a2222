/**
 * The plan a person approves (`voicectl approve HASH`) says when it was made and when the
 * calling hours open in the user's zone, named: not the ISO 8601 the plan file keeps.
 */
import { describe, expect, it } from 'vitest';
import { describePlan, type PlanRecord } from '../../src/approvals/plan.js';

const record: PlanRecord = {
  hash: '0123456789abcdef0123456789abcdef',
  plan: {
    campaign: { id: 'cmp_1', name: 'Renewals' },
    agent: { id: 'agt_1', name: 'Priya' },
    contacts: [{ phone_number: '+919876543210' }, { phone_number: '+14155550100' }],
    options: {},
  },
  findings: {
    checked: true, window: '10:00-19:00', total: 2, inside: 1, unknown: 0,
    outside: [{ zones: ['America/Los_Angeles'], count: 1, opens_at: '2026-11-28T18:00:00.000Z' }],
  },
  created_at: '2026-11-28T08:30:00.000Z',
};

describe('describePlan', () => {
  it('shows the plan\'s times in the user\'s zone, named', () => {
    const lines = describePlan(record, 'Asia/Kolkata');
    expect(lines).toContain('Calling hours 10:00-19:00: 1 inside, 1 outside, 0 of unknown zone (as of 2026-11-28 14:00 IST).');
    expect(lines).toContain('  1 in America/Los_Angeles, opens 2026-11-28 23:30 IST');
    expect(lines.join('\n')).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
    expect(lines).toContain('Dials:    2 contacts');
  });

  it('names UTC when that is the user\'s zone, and says "1 contact"', () => {
    const one = { ...record, plan: { ...record.plan, contacts: [record.plan.contacts[0]!] } };
    const lines = describePlan(one, 'UTC');
    expect(lines.find((l) => l.startsWith('Calling hours'))).toContain('(as of 2026-11-28 08:30 UTC)');
    expect(lines).toContain('Dials:    1 contact');
  });
});
