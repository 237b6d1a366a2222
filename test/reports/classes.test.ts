import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { isCallback, outcomeClass, type OutcomeClass } from '../../src/reports/classes.js';
import { campaignReport } from '../../src/reports/stats.js';

/** Each class, and the (status, outcome) pairs that fall in it. */
const CLASS_OF: Record<OutcomeClass, Array<[status: string, outcome: string]>> = {
  success: [['completed', 'requirements_gathered'], ['completed', 'information_provided'], ['completed', 'appointment_booked']],
  neutral: [['completed', 'callback_scheduled'], ['completed', 'message_taken'], ['completed', 'Call back later']],
  failure: [['completed', 'not_interested'], ['completed', 'wrong_number'], ['completed', 'do_not_call'], ['completed', 'opted-out']],
  // A call that did not connect is no contact, whatever its outcome says.
  no_contact: [['no_answer', 'no_answer'], ['failed', 'carrier_rejected'], ['failed', 'requirements_gathered']],
};

describe('outcome classes', () => {
  it.each(Object.entries(CLASS_OF).flatMap(([cls, pairs]) => pairs.map(([status, outcome]) => [status, outcome, cls])))('%s / %s → %s', (status, outcome, cls) => {
    expect(outcomeClass(status, outcome)).toBe(cls);
  });

  it('a callback is an outcome that says so', () => {
    expect(isCallback('callback_scheduled')).toBe(true);
    expect(isCallback('call-back requested')).toBe(true);
    expect(isCallback('message_taken')).toBe(false);
  });
});

describe('the funnel', () => {
  const call = (id: string, phone: string, o: Partial<Call>): Call => ({ call_id: id, phone_number: phone, start_time: '2026-05-01T10:15:00Z', end_time: '2026-05-01T10:17:00Z', status: 'completed', ...o });
  it('counts contacts once however often they were called: dialed, connected, of interest', () => {
    const r = campaignReport({ id: 'c', name: 'F' }, [{ phone_number: '+1' }, { phone_number: '+2' }, { phone_number: '+3' }, { phone_number: '+4' }], [
      call('a', '+1', { status: 'no_answer', outcome: 'no_answer' }),
      call('b', '+1', { outcome: 'requirements_gathered' }),
      call('c', '+2', { outcome: 'not_interested' }),
      call('d', '+3', { status: 'failed', outcome: 'failed' }),
      call('e', '+2', { outcome: 'callback_scheduled' }),
    ]);
    expect(r.funnel).toEqual({ contacts: 4, dialed: 3, connected: 2, of_interest: 1 });
    expect(r.classes).toEqual({ success: 1, neutral: 1, failure: 1, no_contact: 2 });
    expect(r.outcome_classes).toMatchObject({ requirements_gathered: 'success', callback_scheduled: 'neutral', not_interested: 'failure', no_answer: 'no_contact' });
  });
});
