/**
 * A callback run's plan under fixed clocks: each contact waits until the time the customer
 * asked for (not_before), then for its calling window in its own zone; a time already past
 * is due at once; a callback whose time could not be read is never dialed and is listed.
 */
import { describe, expect, it } from 'vitest';
import { numberReaders } from '../../../src/campaigns/redial.js';
import { callbackContacts } from '../../../src/campaigns/run/callbacks.js';
import type { RunContact } from '../../../src/campaigns/run/journal.js';
import { chooseWave, Planner, simulate } from '../../../src/campaigns/run/plan.js';
import type { RunPolicy } from '../../../src/campaigns/run/policy.js';
import type { Followup } from '../../../src/reports/followups.js';

const policy: RunPolicy = { windows: { default: '09:00-21:00' }, wave_size: 500, attempts: 1, retry_after_ms: 7_200_000, retry_on: ['no_answer', 'failed'], wave_length_ms: 6 * 60_000 };
const NOW = Date.parse('2026-11-26T06:00:00Z'); // 11:30 in Kolkata
const TOMORROW_4PM = '2026-11-27T16:00:00+05:30';

const followup = (phone: string, requested: string | null, as: string | null = 'tomorrow at 4 pm', extra: Record<string, unknown> = {}): Followup => ({
  kind: 'callback', phone_number: phone, name: '', extra, outcome: 'callback_scheduled', requested_time: requested, requested_as: as,
  requested_status: requested ? 'read' : 'unread', requested_note: null, outside_calling_hours: false,
  zone: 'Asia/Kolkata', summary: '', call_id: `c${phone}`, call_time: null, campaign_id: 'x',
});
const contact = (row: number, phone: string, extra?: unknown) => ({ row, phone_number: phone, status: 'completed', outcome: 'callback_scheduled', ...(extra ? { extra } : {}) });
const waiting = (phone: string, notBefore?: string, zone?: string): RunContact => ({
  row: 1, phone_number: phone, state: 'waiting', attempts: 0, waves: [], ...(notBefore ? { not_before: new Date(Date.parse(notBefore)).toISOString() } : {}), ...(zone ? { zone } : {}),
});

describe('callbackContacts', () => {
  it('matches a follow-up whose number the service returned as uploaded, read with its contact\'s own country, not the default', async () => {
    // A mixed list read with --default-country IN: John's row said US. The service returns his
    // number as uploaded; read with IN it would be +916465550143, match no one, and his
    // callback would be left out as one without a time.
    const { readBack } = await numberReaders('IN');
    const john = followup('(646) 555-0143', '2026-11-27T10:00:00-05:00', 'tomorrow at 10', { country: 'US' });
    const asha = followup('98765 43210', TOMORROW_4PM);
    const { contacts, unread } = callbackContacts([contact(1, '+16465550143', { country: 'US' }), contact(2, '+919876543210')], [], [john, asha], readBack);
    expect(contacts.map((c) => [c.row, c.state, c.not_before])).toEqual([[1, 'waiting', '2026-11-27T15:00:00.000Z'], [2, 'waiting', '2026-11-27T10:30:00.000Z']]);
    expect(unread).toEqual([]);
    // Read with the default country alone, John's callback is lost.
    const defaultOnly = callbackContacts([contact(1, '+16465550143', { country: 'US' })], [], [john], (raw) => readBack(raw, {}));
    expect(defaultOnly.contacts[0]!.state).toBe('excluded');
  });

  it('holds each callback until its requested time, keeps the contact\'s own zone, and lists the unread', () => {
    const { contacts, unread } = callbackContacts(
      [contact(1, '+919800000001'), contact(2, '+919800000002'), contact(4, '+12125550100', { timezone: 'America/Chicago' })],
      [{ row: 3, phone_number: '+919800000003', rule: '--exclude dnc.csv' }],
      [followup('+919800000001', TOMORROW_4PM), followup('+919800000002', null, 'call me later please'), followup('+12125550100', '2026-11-27T10:00:00-06:00', 'tomorrow at 10')],
      (raw) => raw,
    );
    expect(contacts.map((c) => [c.row, c.state, c.not_before, c.zone, c.rule])).toEqual([
      [1, 'waiting', '2026-11-27T10:30:00.000Z', undefined, undefined],
      [2, 'excluded', undefined, undefined, 'no requested time: "call me later please"'],
      [3, 'excluded', undefined, undefined, '--exclude dnc.csv'],
      [4, 'waiting', '2026-11-27T16:00:00.000Z', 'America/Chicago', undefined],
    ]);
    expect(contacts[0]!.requested_as).toBe('tomorrow at 4 pm');
    expect(unread).toEqual([{ row: 2, phone_number: '+919800000002', requested_as: 'call me later please', outcome: 'callback_scheduled' }]);
  });
});

describe('the plan of a callback run', () => {
  it('releases nothing before the requested time, says it is holding them, and releases at that time', () => {
    const contacts = [waiting('+919800000001', TOMORROW_4PM)];
    const planner = new Planner(contacts, policy);
    const before = chooseWave(planner, contacts, {}, NOW);
    expect(before).toEqual({ take: [], blocked: 'closed', nextAt: Date.parse(TOMORROW_4PM), held: 1 });
    expect(chooseWave(planner, contacts, {}, Date.parse(TOMORROW_4PM) - 60_000).take).toEqual([]);
    expect(chooseWave(planner, contacts, {}, Date.parse(TOMORROW_4PM)).take).toEqual([0]);
  });

  it('moves a time outside calling hours to the next opening of the contact\'s window, and calls a past time at once', () => {
    const late = waiting('+919800000001', '2026-11-27T22:30:00+05:30');
    const past = waiting('+919800000002', '2026-11-25T16:00:00+05:30');
    const sim = simulate([late, past], policy, {}, NOW);
    expect(sim.waves.map((w) => [new Date(w.at).toISOString(), w.contacts])).toEqual([
      ['2026-11-26T06:00:00.000Z', 1],
      ['2026-11-28T03:30:00.000Z', 1], // 09:00 in Kolkata, the morning after
    ]);
  });

  it('uses the contact\'s own zone for its window', () => {
    // 10:00 in Chicago is 16:00 UTC; the number is New York's, whose 10:00 is an hour earlier.
    const own = waiting('+12125550100', '2026-11-27T07:30:00-06:00', 'America/Chicago');
    const sim = simulate([own], policy, {}, NOW);
    expect(sim.waves.map((w) => new Date(w.at).toISOString())).toEqual(['2026-11-27T15:00:00.000Z']); // 09:00 in Chicago
  });

  it('makes separate waves for separate times, each at its time', () => {
    const a = waiting('+919800000001', TOMORROW_4PM);
    const b = waiting('+919800000002', '2026-11-27T18:00:00+05:30');
    const c = waiting('+919800000003', TOMORROW_4PM);
    const sim = simulate([a, b, c], policy, {}, NOW);
    expect(sim.waves.map((w) => [new Date(w.at).toISOString(), w.contacts])).toEqual([
      ['2026-11-27T10:30:00.000Z', 2],
      ['2026-11-27T12:30:00.000Z', 1],
    ]);
  });
});
