import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { Call } from '../../src/api/calls.js';
import { CALL_FIELDS, csvHeader, csvRow, headerCells, planColumns, safeCell } from '../../src/export/csv.js';

const base: Call = {
  call_id: 'call_1', campaign_id: 'c1', agent_id: 'a1', agent_name: 'Priya', direction: 'outbound',
  phone_number: '+919876543210', status: 'completed', end_reason: 'completed', outcome: 'requirements_gathered',
  summary: 'Asked about slots, agreed to Tuesday.', error: null, duration_seconds: 87.5,
  start_time: '2024-05-01T10:00:00.000Z', end_time: '2024-05-01T10:01:27.500Z', has_recording: true,
  contact: { name: 'Asha Rao', extra: { city: 'Pune', plan: 'gold' } },
};

/** Parses what we wrote with an independent CSV reader. */
function parse(text: string): string[][] {
  return Papa.parse<string[]>(text.replace(/\r\n$/, ''), { newline: '\r\n', delimiter: ',' }).data;
}

describe('safeCell', () => {
  // RFC 4180 quoting; plain numbers (E.164 numbers, negative values) are not formulas;
  // nothing is empty, an object is JSON.
  it.each([
    ['a,b', '"a,b"'], ['say "hi"', '"say ""hi"""'], ['two\nlines', '"two\nlines"'], ['cr\rhere', '"cr\rhere"'], ['plain', 'plain'],
    ['+919876543210', '+919876543210'], ['-3.5', '-3.5'], [-3, '-3'], ['+91 98765', "'+91 98765"],
    [null, ''], [undefined, ''], [true, 'true'], [{ a: 1, b: 'x,y' }, '"{""a"":1,""b"":""x,y""}"'],
  ])('writes %j as %j', (v, want) => {
    expect(safeCell(v)).toBe(want);
  });

  it.each(['=1+1', '+cmd|calc', '-2+3', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x","y")'])('escapes the formula %j', (v) => {
    const cell = safeCell(v);
    const [[back]] = parse(`${cell}\r\n`) as [[string]];
    expect(back.startsWith("'")).toBe(true);
    expect(back.slice(1)).toBe(v);
  });
});

describe('CSV rows', () => {
  it('puts the spec fields first in a fixed order, then contact_name, extras and extra_json', () => {
    const plan = planColumns([base]);
    expect(headerCells(plan)).toEqual([...CALL_FIELDS, 'contact_name', 'extra.city', 'extra.plan', 'extra_json']);
    const [header, row] = parse(csvHeader(plan) + csvRow(base, plan));
    expect(header![0]).toBe('call_id');
    const rec = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(rec).toMatchObject({
      call_id: 'call_1', phone_number: '+919876543210', duration_seconds: '87.5', has_recording: 'true', error: '',
      contact_name: 'Asha Rao', 'extra.city': 'Pune', 'extra.plan': 'gold', extra_json: '',
    });
  });

  it('round-trips hostile text through a real CSV parser', () => {
    const nasty: Call = { ...base, summary: 'He said "no", then\nhung up, =rudely', contact: { name: '=cmd|\' /C calc\'!A0', extra: { note: '@risk, "quoted"\r\nline' } } };
    const plan = planColumns([nasty]);
    const [header, row] = parse(csvHeader(plan) + csvRow(nasty, plan));
    const rec = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(rec.summary).toBe('He said "no", then\nhung up, =rudely');
    expect(rec.contact_name).toBe('\'=cmd|\' /C calc\'!A0');
    expect(rec['extra.note']).toBe('\'@risk, "quoted"\r\nline');
    expect(row).toHaveLength(header!.length);
  });

  it('sends keys first seen after the plan to extra_json, and non-object extras too', () => {
    const plan = planColumns([base]);
    const later: Call = { ...base, call_id: 'call_2', contact: { name: 'B', extra: { city: 'Delhi', tier: 2, tags: ['a'] } } };
    const scalar: Call = { ...base, call_id: 'call_3', contact: { name: 'C', extra: 'VIP' } };
    const none: Call = { ...base, call_id: 'call_4', contact: { name: 'D', extra: null } };
    const rows = parse(csvHeader(plan) + csvRow(later, plan) + csvRow(scalar, plan) + csvRow(none, plan));
    const header = rows[0]!;
    const get = (r: string[], h: string) => r[header.indexOf(h)];
    expect(get(rows[1]!, 'extra.city')).toBe('Delhi');
    expect(get(rows[1]!, 'extra.plan')).toBe('');
    expect(JSON.parse(get(rows[1]!, 'extra_json')!)).toEqual({ tier: 2, tags: ['a'] });
    expect(get(rows[2]!, 'extra_json')).toBe('"VIP"');
    expect(get(rows[3]!, 'extra_json')).toBe('');
    for (const r of rows) expect(r).toHaveLength(header.length);
  });

  it('writes nested extra values as JSON', () => {
    const c: Call = { ...base, contact: { name: 'N', extra: { address: { city: 'Chennai', pin: '600001' } } } };
    const plan = planColumns([c]);
    const [header, row] = parse(csvHeader(plan) + csvRow(c, plan));
    expect(JSON.parse(row![header!.indexOf('extra.address')]!)).toEqual({ city: 'Chennai', pin: '600001' });
  });

  it('gives top-level fields beyond the spec their own columns, after the spec fields', () => {
    const c: Call = { ...base, cost_usd: 0.12, language: 'hi-IN' };
    const plan = planColumns([c]);
    expect(headerCells(plan).slice(CALL_FIELDS.length, CALL_FIELDS.length + 2)).toEqual(['cost_usd', 'language']);
    const [, row] = parse(csvHeader(plan) + csvRow(c, plan));
    expect(row![CALL_FIELDS.length]).toBe('0.12');
  });

  it('adds the transcript as readable text', () => {
    const c: Call = { ...base, transcript: [
      { role: 'agent', text: 'Namaste!', timestamp: '2024-05-01T10:00:01Z' },
      { role: 'user', text: 'Haan, boliye', timestamp: '2024-05-01T10:00:07.400Z' },
    ] };
    const plan = planColumns([c], { transcripts: true });
    const [header, row] = parse(csvHeader(plan) + csvRow(c, plan));
    expect(header!.at(-1)).toBe('transcript');
    expect(row!.at(-1)).toBe('00:01 Agent: Namaste!\n00:07 User: Haan, boliye');
  });

  it('escapes a header cell made from a hostile extra key', () => {
    const c: Call = { ...base, contact: { name: 'x', extra: { 'a,b': 1 } } };
    expect(csvHeader(planColumns([c]))).toContain('"extra.a,b"');
  });
});
