import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { campaignReport, hourlyStats } from '../../src/reports/stats.js';
import { markdown } from '../../src/reports/text.js';
import { htmlReport } from '../../src/reports/html.js';

const call = (id: number, start: string, status = 'completed'): Call =>
  ({ call_id: `c${id}`, status, start_time: start, end_time: start, duration_seconds: 60, contact: { name: `N${id}` } }) as unknown as Call;
const calls = [call(1, '2026-11-26T09:10:00Z'), call(2, '2026-11-26T09:40:00Z', 'no_answer'), call(3, '2026-11-26T18:45:00Z')];

describe('report hours in the user\'s zone', () => {
  it('UTC hours are the JSON\'s; another zone buckets by its own wall clock (a half-hour offset splits an hour)', () => {
    const utc = hourlyStats(calls, 'UTC');
    expect(utc.calls_per_hour).toEqual([{ hour: '2026-11-26T09:00Z', calls: 2 }, { hour: '2026-11-26T18:00Z', calls: 1 }]);
    expect(campaignReport({ id: 'x' }, [], calls).calls_per_hour).toEqual(utc.calls_per_hour);

    const ist = hourlyStats(calls, 'Asia/Kolkata');
    expect(ist.calls_per_hour).toEqual([
      { hour: '2026-11-26T14:00+05:30', calls: 1 },
      { hour: '2026-11-26T15:00+05:30', calls: 1 },
      { hour: '2026-11-27T00:00+05:30', calls: 1 },
    ]);
    expect(ist.connect_rate_by_hour_of_day[14]).toMatchObject({ calls: 1, connected: 1, rate: 1 });
    expect(ist.connect_rate_by_hour_of_day[15]).toMatchObject({ calls: 1, connected: 0, rate: 0 });
    expect(ist.connect_rate_by_hour_of_day[0]).toMatchObject({ calls: 1, connected: 1 });
  });

  it('markdown and the page name the zone of their hours and times', () => {
    const report = { ...campaignReport({ id: 'x', name: 'Zones' }, [], calls), ...hourlyStats(calls, 'Asia/Kolkata') };
    const md = markdown([report], { zone: 'Asia/Kolkata' });
    expect(md).toContain('**Calls per hour (Asia/Kolkata)**');
    expect(md).toContain('| 2026-11-27 00:00 | 1 |');
    const html = htmlReport([report], new Date('2026-11-26T20:00:00Z'), 'Asia/Kolkata');
    expect(html).toContain('Calls per hour (Asia/Kolkata)');
    expect(html).toContain('Connect rate by hour of day (Asia/Kolkata)');
    expect(html).toContain('started <span class="muted">(IST)</span>');
    expect(html).toMatch(/<td data-v="\d+">2026-11-26 14:40:00<\/td>/);
    expect(html).toContain('Made by voicectl on 2026-11-27 01:30 IST. Times are in Asia/Kolkata (IST).');
  });
});
