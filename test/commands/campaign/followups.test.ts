/**
 * `campaign followups` against the sandbox, with callbacks whose words are chosen: Hinglish
 * and Devanagari with times, a New York number across the March change of clocks, two
 * times said, a time outside calling hours, and no time at all. The requested times as JSON
 * and CSV (ISO 8601 with offsets), how each was read, and a campaign that does not exist.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../../helpers/cli.js';
import { givenAgent, givenCampaign, plantCallbacks } from '../../helpers/given.js';

let h: Harness;
let id = '';
const IN_CALL = Date.parse('2026-11-26T05:30:00Z'); // Thursday 11:00 in India
const NY_CALL = Date.parse('2026-03-07T15:00:00Z'); // Saturday 10:00 in New York; the clocks go forward on Sunday

beforeAll(async () => {
  h = await harness({ seed: 5 });
  const agent = await givenAgent(h.api);
  id = (await givenCampaign(h.api, agent.id, 2, undefined, 'Callbacks')).id;
  plantCallbacks(h.sandbox, id, [
    { phone_number: '+919876500001', end: IN_CALL, summary: 'Kal shaam saadhe 4 baje call karna.' },
    { phone_number: '+919876500002', end: IN_CALL, summary: 'कल शाम ५ बजे कॉल कीजिए।' },
    { phone_number: '+12125550123', end: NY_CALL, summary: 'Customer prefers tomorrow evening at 7.' },
    { phone_number: '+919876500003', end: IN_CALL, summary: 'Customer said tomorrow at 4 or Friday at 11, whichever suits the team.' },
    { phone_number: '+919876500004', end: IN_CALL, summary: 'Customer works nights and asked to be called tomorrow at 11 pm.' },
    { phone_number: '+919876500005', end: IN_CALL, summary: 'शनिवार सुबह फ़ोन करना।' },
    { phone_number: '+919876500006', end: IN_CALL, summary: 'The customer was driving and asked to be called back later.' },
  ]);
}, 60_000);
afterAll(async () => h?.close());

const byPhone = (rows: any[], phone: string) => rows.find((r) => r.phone_number === phone);

describe('campaign followups', () => {
  it('--json: each callback at the time asked for, in the contact\'s zone with its offset, and how it was read', async () => {
    const r = await h.run(['campaign', 'followups', id, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(byPhone(rows, '+919876500001')).toMatchObject({ requested_time: '2026-11-27T16:30:00+05:30', requested_as: 'Kal shaam saadhe 4 baje', requested_status: 'read', outside_calling_hours: false });
    expect(byPhone(rows, '+919876500002')).toMatchObject({ requested_time: '2026-11-27T17:00:00+05:30', requested_as: 'कल शाम ५ बजे', requested_status: 'read' });
    // Sunday 8 March 19:00 in New York is daylight time: 23:00 UTC.
    const ny = byPhone(rows, '+12125550123');
    expect(ny).toMatchObject({ zone: 'America/New_York', requested_time: '2026-03-08T19:00:00-04:00', requested_status: 'read' });
    expect(new Date(ny.requested_time).toISOString()).toBe('2026-03-08T23:00:00.000Z');
    expect(byPhone(rows, '+919876500003')).toMatchObject({ requested_time: null, requested_status: 'needs a person', requested_as: 'tomorrow at 4 or Friday at 11' });
    expect(byPhone(rows, '+919876500004')).toMatchObject({ requested_time: '2026-11-27T23:00:00+05:30', outside_calling_hours: true });
    expect(byPhone(rows, '+919876500005')).toMatchObject({ requested_time: '2026-11-28T10:00:00+05:30', requested_status: 'day only', requested_as: 'शनिवार सुबह' });
    expect(byPhone(rows, '+919876500005').requested_note).toMatch(/morning/);
    expect(byPhone(rows, '+919876500006')).toMatchObject({ requested_time: null, requested_status: 'unread' });
  });

  it('--out FILE.csv: every time is ISO 8601 with its offset; the words and how they were read beside it', async () => {
    const file = join(h.configDir, 'f.csv');
    const r = await h.run(['campaign', 'followups', id, '--out', file, '--tz', 'Asia/Kolkata']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('1 with two times said, for a person to choose');
    expect(r.stderr).toContain('1 outside calling hours, kept as asked');
    const { data, meta } = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true });
    expect(meta.fields).toContain('requested time (Asia/Kolkata)');
    expect(meta.fields).toContain('call time (Asia/Kolkata)');
    for (const row of data) {
      for (const key of ['requested time (Asia/Kolkata)', "requested (contact's clock)", 'call time (Asia/Kolkata)']) {
        if (row[key]) expect(row[key], key).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
      }
    }
    const ny = data.find((row) => row.phone === '+12125550123')!;
    expect(Date.parse(ny['requested time (Asia/Kolkata)']!)).toBe(Date.parse('2026-03-08T23:00:00Z'));
    expect(ny["requested (contact's clock)"]).toBe('2026-03-08T19:00:00-04:00');
    expect(data.find((row) => row.phone === '+919876500004')!['how it was read']).toBe('outside calling hours');
    expect(data.find((row) => row.phone === '+919876500003')!['how it was read']).toMatch(/^needs a person; two times/);
  });

  it('-o csv writes the same ISO 8601 times', async () => {
    const r = await h.run(['campaign', 'followups', id, '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('2026-11-27T11:00:00Z'); // 16:30 in India, the reader's zone being UTC
    expect(r.stdout).not.toMatch(/,2026-\d\d-\d\d \d\d:\d\d/);
  });

  it('a campaign that does not exist is exit 4, not an empty list', async () => {
    const r = await h.run(['campaign', 'followups', 'cmp_does_not_exist']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/not found/i);
    const j = await h.run(['campaign', 'followups', id, 'cmp_does_not_exist', '--json']);
    expect(j.exitCode).toBe(4);
    expect(j.stdout).not.toBe('[]\n');
  });
});
