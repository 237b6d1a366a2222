import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/api/calls.js';
import { extraOf, mapColumns, nameOf } from '../../src/contacts/columns.js';
import { validateContactsFile } from '../../src/contacts/validate.js';
import { csvHeader, csvRow, headerCells, planColumns } from '../../src/export/csv.js';
import { openXlsxBook } from '../../src/export/xlsx.js';
import { drained } from '../../src/util/drained.js';
import { makeCall } from '../export/fake-server.js';
import { scratch } from '../helpers/scratch.js';

const dir = scratch().dir;

/** Contacts as a campaign was created with them, and the calls the service made of them. */
const CONTACTS = [
  { phone_number: '+919876543210', name: 'Priya Sharma', extra: { order: 'ORD-1', city: 'Pune, MH', note: 'said "call me"\nlater' } },
  { phone_number: '+14155550100', name: '=HYPERLINK("http://x","y")', extra: { order: 'ORD-2', city: '-1+1', tags: ['a', 'b'], address: { pin: '411001' } } },
  { phone_number: '+442071838750', name: 'No Extra', extra: {} },
];
function callsOf(contacts: typeof CONTACTS, lateExtra?: Record<string, unknown>): Call[] {
  const calls = contacts.map((c, i) => makeCall(i, { phone_number: c.phone_number, contact: { name: c.name, extra: c.extra }, outcome: 'callback_requested', summary: 'Wants a call back.' }));
  if (lateExtra) calls.push(...Array.from({ length: 200 }, (_, i) => makeCall(100 + i, { phone_number: `+9198765${String(10_000 + i)}`, contact: { name: `Late ${i}`, extra: i === 199 ? lateExtra : {} } })));
  return calls;
}

async function writeCsv(file: string, calls: Call[]): Promise<void> {
  const plan = planColumns(calls.slice(0, 200));
  writeFileSync(file, csvHeader(plan) + calls.map((c) => csvRow(c, plan)).join(''));
}

async function writeXlsx(file: string, calls: Call[]): Promise<void> {
  const stream = createWriteStream(file);
  const book = await openXlsxBook({
    async write(chunk) {
      if (!stream.write(chunk)) await drained(stream);
    },
  }, planColumns(calls.slice(0, 200)));
  for (let i = 0; i < calls.length; i += 200) await book.add(calls.slice(i, i + 200));
  await book.finish();
  await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

describe('an export read back as contacts', () => {
  it('takes phone_number and contact_name, unflattens extra.* and leaves the call fields out', () => {
    const plan = planColumns(callsOf(CONTACTS));
    const headers = headerCells({ ...plan, transcripts: true });
    const map = mapColumns(headers, {}, 'calls.csv');
    expect(map.headers[map.phone]).toBe('phone_number');
    expect(map.headers[map.name!]).toBe('contact_name');
    expect(map.extra.map((e) => e.key)).toEqual(['order', 'city', 'note', 'tags', 'address']);
    expect(map.headers[map.extraJson!]).toBe('extra_json');
  });

  it('merges extra_json with its JSON types, and takes a non-object extra_json as the whole extra', () => {
    const map = mapColumns(['call_id', 'phone_number', 'status', 'contact_name', 'extra.city', 'extra_json'], {}, 'calls.csv');
    const cells = (city: string, json: string) => ['c1', '+919876543210', 'completed', '\'@Ravi', city, json];
    expect(nameOf(map, cells('', ''))).toBe('@Ravi');
    expect(extraOf(map, cells('Pune', '{"score":7,"vip":true,"at":null}'))).toEqual({ city: 'Pune', score: 7, vip: true, at: null });
    expect(extraOf(map, cells('', '"just a string"'))).toBe('just a string');
    expect(extraOf(map, cells('', '[1,2]'))).toEqual([1, 2]);
    expect(extraOf(map, cells('Pune', 'not json'))).toEqual({ city: 'Pune', extra_json: 'not json' });
    expect(extraOf(map, cells('', ''))).toEqual({});
  });

  it('still honours --phone-column and --name-column', () => {
    const map = mapColumns(['call_id', 'phone_number', 'contact_name', 'extra.alt'], { phoneColumn: 'extra.alt', nameColumn: 'call_id' }, 'f.csv');
    expect(map.headers[map.phone]).toBe('extra.alt');
    expect(map.headers[map.name!]).toBe('call_id');
  });

  it('a file that is not an export keeps every other column, with extra.* unflattened', () => {
    const map = mapColumns(['Contact Name', 'Mobile', 'status', 'extra.city'], {}, 'leads.csv');
    expect(map.headers[map.name!]).toBe('Contact Name');
    expect(extraOf(map, ['Asha', '98765 43210', 'gold', 'Pune'])).toEqual({ status: 'gold', city: 'Pune' });
  });

  for (const format of ['csv', 'xlsx'] as const) {
    it(`gives back the contacts a campaign was created with (${format})`, async () => {
      const late = { late_key: 'x', score: 7, flags: { a: true } };
      const calls = callsOf(CONTACTS, late);
      const file = join(dir(), `calls.${format}`);
      await (format === 'csv' ? writeCsv(file, calls) : writeXlsx(file, calls));
      const { report, contacts } = await validateContactsFile(file, { defaultCountry: 'IN' });
      expect(report.invalid).toBe(0);
      expect(contacts).toHaveLength(calls.length);
      expect(contacts.slice(0, 3).map(({ row: _row, ...c }) => c)).toEqual(CONTACTS.map((c) => ({
        phone_number: c.phone_number, name: c.name,
        // Nested values come back as they were; keys first seen after the first page come from extra_json, types and all.
        extra: c.extra,
      })));
      expect(contacts.at(-1)!.extra).toEqual(late);
    });
  }
});
