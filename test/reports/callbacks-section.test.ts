/**
 * The report page's callbacks: each asked-for time read as `campaign followups` reads it
 * (the same reader, from the end of the call, in the contact's zone), shown in the reader's
 * zone, named; two times said are shown as such, never as one of them.
 */
import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { reportBody } from '../../src/reports/html.js';
import { campaignReport } from '../../src/reports/stats.js';

const call = (id: string, phone: string, summary: string, end: string, extra: Record<string, unknown> = {}): Call => ({
  call_id: id, campaign_id: 'c1', status: 'completed', outcome: 'callback_scheduled', summary, phone_number: phone,
  start_time: new Date(Date.parse(end) - 120_000).toISOString(), end_time: end, contact: { name: id, extra },
} as unknown as Call);

function askedFor(html: string, id: string): string {
  const row = new RegExp(`<tr data-call="${id}"><td>([^<]*)</td>`).exec(html);
  return row?.[1]?.replace(/&quot;/g, '"') ?? '(no row)';
}

describe('the report page\'s callbacks', () => {
  const calls = [
    call('hi', '+919876500001', 'Kal shaam saadhe 4 baje call karna.', '2026-11-26T05:30:00Z'),
    call('deva', '+919876500002', 'कल शाम ५ बजे कॉल कीजिए।', '2026-11-26T05:30:00Z'),
    // Saturday 7 March 10:00 in New York; Sunday is daylight time.
    call('ny', '+12125550123', 'Customer prefers tomorrow evening at 7.', '2026-03-07T15:00:00Z'),
    call('two', '+919876500003', 'Customer said tomorrow at 4 or Friday at 11.', '2026-11-26T05:30:00Z'),
    call('own', '+919876500004', 'Call me tomorrow at 9 am.', '2026-11-26T05:30:00Z', { timezone: 'Europe/London' }),
    // Just before midnight in India: "tomorrow" counts from the end of the call, not its start the day before.
    call('late', '+919876500005', 'Call me tomorrow at 11 am.', '2026-11-26T18:31:00Z'),
  ];
  const report = campaignReport({ id: 'c1', name: 'Callbacks', status: 'completed' } as never, [], calls);

  it('reads each from the end of the call in the contact\'s zone, and shows it in the reader\'s, named', () => {
    const html = reportBody([report], new Date('2026-11-27T00:00:00Z'), 'Asia/Kolkata');
    expect(askedFor(html, 'hi')).toBe('2026-11-27 16:30 IST');
    expect(askedFor(html, 'deva')).toBe('2026-11-27 17:00 IST');
    expect(askedFor(html, 'ny')).toBe('2026-03-09 04:30 IST (19:00 EDT for them)');
    expect(askedFor(html, 'two')).toBe('two times said: "tomorrow at 4 or Friday at 11"');
    expect(askedFor(html, 'own')).toBe('2026-11-27 14:30 IST (09:00 GMT for them)');
    expect(askedFor(html, 'late')).toBe('2026-11-28 11:00 IST');
  });
});
