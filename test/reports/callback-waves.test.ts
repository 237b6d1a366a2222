import { describe, expect, it } from 'vitest';
import { planCallbackWaves } from '../../src/reports/callback-waves.js';
import type { Followup } from '../../src/reports/followups.js';

const f = (phone: string, requested: string | null, zone = 'Asia/Kolkata', as: string | null = 'tomorrow at 4 pm'): Followup => ({
  kind: 'callback', phone_number: phone, name: '', extra: {}, outcome: 'callback_scheduled', requested_time: requested, requested_as: as,
  zone, summary: '', call_id: `c${phone}`, call_time: null, campaign_id: 'x',
});
const window = { start: 9 * 60, end: 21 * 60 };
const now = Date.parse('2026-11-26T06:00:00Z'); // 11:30 in Kolkata
const id = (s: string) => s;

describe('planCallbackWaves', () => {
  it('groups by hour and zone, releasing each wave at the latest requested time in it', () => {
    const plan = planCallbackWaves(
      [{ phone_number: '+911' }, { phone_number: '+912' }, { phone_number: '+913' }],
      [f('+911', '2026-11-27T16:05:00+05:30'), f('+912', '2026-11-27T16:40:00+05:30'), f('+913', '2026-11-27T17:00:00+05:30')],
      window, now, id,
    );
    expect(plan.waves.map((w) => [w.at, w.contacts.map((c) => c.phone_number)])).toEqual([
      ['2026-11-27T16:40:00+05:30', ['+911', '+912']],
      ['2026-11-27T17:00:00+05:30', ['+913']],
    ]);
  });

  it('moves a time outside calling hours to the window\'s next opening, and a past time to now', () => {
    const plan = planCallbackWaves(
      [{ phone_number: '+911' }, { phone_number: '+912' }],
      [f('+911', '2026-11-27T22:30:00+05:30'), f('+912', '2026-11-25T16:00:00+05:30')],
      window, now, id,
    );
    expect(plan.waves.map((w) => w.at)).toEqual(['2026-11-26T11:30:00+05:30', '2026-11-28T09:00:00+05:30']);
  });

  it('lists contacts without a readable time (or without a callback call) and leaves them out', () => {
    const plan = planCallbackWaves(
      [{ phone_number: '+911', name: 'A' }, { phone_number: '+912', outcome: 'no_answer' }],
      [f('+911', null, 'Asia/Kolkata', 'call me later please')],
      window, now, id,
    );
    expect(plan.waves).toEqual([]);
    expect(plan.no_time).toEqual([
      { phone_number: '+911', name: 'A', requested_as: 'call me later please' },
      { phone_number: '+912', requested_as: null, outcome: 'no_answer' },
    ]);
  });

  it('keeps zones apart within the same hour', () => {
    const plan = planCallbackWaves(
      [{ phone_number: '+911' }, { phone_number: '+1212' }],
      [f('+911', '2026-11-27T16:00:00+05:30'), f('+1212', '2026-11-27T05:30:00-05:00', 'America/New_York')],
      window, now, id,
    );
    expect(plan.waves.map((w) => w.zone).sort()).toEqual(['America/New_York', 'Asia/Kolkata']);
  });
});
