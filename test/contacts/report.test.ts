import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertCampaignSize, MAX_CONTACTS_PER_CAMPAIGN, partName, splitContacts, validateContactsFile, writeErrorsCsv,
} from '../../src/contacts/index.js';
import { PhoneSet } from '../../src/contacts/phone-set.js';
import { FailureError, UsageError } from '../../src/errors.js';

const fixtures = fileURLToPath(new URL('../../fixtures/contacts/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'voicectl-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('duplicates', () => {
  it('are counted as valid, reported with both rows, and dropped', async () => {
    const r = await validateContactsFile(fixtures + 'duplicates.csv', { defaultCountry: 'IN', workers: 0 });
    expect(r.report.duplicates).toBe(3);
    expect(r.report.duplicate_rows).toEqual([
      { row: 3, first_row: 2, phone_number: '+919876543210' },
      { row: 5, first_row: 2, phone_number: '+919876543210' },
      { row: 6, first_row: 4, phone_number: '+919988776655' },
    ]);
    // Duplicates are not errors: only the bad number is.
    expect(r.report.errors.map((e) => e.row)).toEqual([7]);
    expect(r.contacts.map((c) => c.row)).toEqual([2, 4, 8]);
  });

  it('--keep-duplicates keeps them (the report is the same)', async () => {
    const kept = await validateContactsFile(fixtures + 'duplicates.csv', { defaultCountry: 'IN', workers: 0, keepDuplicates: true });
    const dropped = await validateContactsFile(fixtures + 'duplicates.csv', { defaultCountry: 'IN', workers: 0 });
    expect(kept.report).toEqual(dropped.report);
    expect(kept.contacts.map((c) => c.row)).toEqual([2, 3, 4, 5, 6, 8]);
  });

  it('PhoneSet remembers the first row of each number, through growth', () => {
    const set = new PhoneSet(16);
    const reference = new Map<string, number>();
    let seed = 7;
    for (let row = 2; row < 60_000; row++) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      // A narrow range, so numbers repeat; up to 15 digits.
      const e164 = `+${row % 3 === 0 ? '91' : '447'}${String(seed % 40_000).padStart(10, '9')}`;
      const expected = reference.get(e164);
      expect(set.firstRowOrAdd(e164, row)).toBe(expected);
      if (expected === undefined) reference.set(e164, row);
    }
    expect(set.size).toBe(reference.size);
    expect(set.firstRowOrAdd('+999999999999999', 5)).toBeUndefined();
    expect(set.firstRowOrAdd('+999999999999999', 6)).toBe(5);
  });
});

describe('the report object', () => {
  it('has exactly the fields of CLI.md plus duplicate_rows', async () => {
    const { report } = await validateContactsFile(fixtures + 'phone-reasons.csv', { defaultCountry: 'IN', workers: 0 });
    expect(Object.keys(report)).toEqual(['total_rows', 'valid', 'invalid', 'duplicates', 'errors', 'duplicate_rows']);
    expect(Object.keys(report.errors[0]!)).toEqual(['row', 'column', 'value', 'message']);
    expect(report.valid + report.invalid).toBe(report.total_rows);
  });

  it('reports progress in rows, ending at the total', async () => {
    const seen: number[] = [];
    const r = await validateContactsFile(fixtures + 'indian-formats.csv', { defaultCountry: 'IN', workers: 0, onProgress: (p) => seen.push(p.rows) });
    expect(seen.at(-1)).toBe(r.report.total_rows);
  });

  it('collects nothing it was told not to', async () => {
    const r = await validateContactsFile(fixtures + 'phone-reasons.csv', { defaultCountry: 'IN', workers: 0, collectContacts: false, collectInvalidRows: false });
    expect(r.contacts).toEqual([]);
    expect(r.invalidRows).toEqual([]);
    expect(r.report.invalid).toBe(12);
  });
});

describe('--errors-out CSV', () => {
  it('has the original cells plus an error column, formula-safe, BOM and CRLF, and reads back', async () => {
    const r = await validateContactsFile(fixtures + 'phone-reasons.csv', { defaultCountry: 'IN', workers: 0 });
    const out = join(tmp, 'bad.csv');
    await writeErrorsCsv(out, r);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFname,phone,note,error\r\n')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines).toHaveLength(r.report.invalid + 2); // header, rows, and the final empty string
    expect(lines[1]).toBe('Empty Cell,,no number given,row 2: phone number is empty');
    // "+…" would run as a formula in a spreadsheet: it is written with a leading quote.
    expect(lines).toContain(`Drama Number,'+44 7700 900123,UK range reserved for TV dramas,row 11: not a valid phone number for country code +44`);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Fixing nothing and validating the errors file again finds the same problems.
    const again = await validateContactsFile(out, { defaultCountry: 'IN', workers: 0 });
    expect(again.report.errors.map((e) => e.message.replace(/ \(.*?\)/, ''))).toEqual(r.report.errors.map((e) => e.message.replace(/ \(.*?\)/, '')));
  });

  it('keeps the file\'s own delimiter', async () => {
    const r = await validateContactsFile(fixtures + 'semicolon-blank-rows.csv', { defaultCountry: 'IN', workers: 0 });
    const out = join(tmp, 'bad-semicolon.csv');
    await writeErrorsCsv(out, r);
    expect(readFileSync(out, 'utf8')).toBe('\uFEFFName;Phone;City;Notes;error\r\nBad Number;98765;Nagpur;;row 7: too short for India (+91): 5 digits after the country code\r\n');
  });

  it('a row with more cells than the header keeps them all', async () => {
    const r = await validateContactsFile(fixtures + 'too-many-cells.csv', { defaultCountry: 'IN', workers: 0 });
    const out = join(tmp, 'bad-cells.csv');
    await writeErrorsCsv(out, r);
    expect(readFileSync(out, 'utf8').split('\r\n')[0]).toBe('\uFEFFname,phone,city,,error');
    expect(readFileSync(out, 'utf8').split('\r\n')[1]).toMatch(/^Sharma, Priya,098765 43210,Pune,"row 2: has 4 cells but the header has 3/);
  });

  it('fails with a readable error, and leaves nothing behind, when the folder does not exist', async () => {
    const r = await validateContactsFile(fixtures + 'duplicates.csv', { defaultCountry: 'IN', workers: 0 });
    await expect(writeErrorsCsv(join(tmp, 'missing', 'bad.csv'), r)).rejects.toThrow(FailureError);
  });
});

describe('the 10,000-contact limit', () => {
  it('assertCampaignSize points at --split', () => {
    expect(() => assertCampaignSize(MAX_CONTACTS_PER_CAMPAIGN)).not.toThrow();
    expect(() => assertCampaignSize(25_001)).toThrow(UsageError);
    try {
      assertCampaignSize(25_001);
    } catch (err) {
      expect((err as UsageError).message).toBe('The file has 25,001 valid contacts; a campaign takes at most 10,000.');
      expect((err as UsageError).hint).toMatch(/--split to create 3 campaigns named "NAME \(1\/3\)"/);
    }
  });

  it('splitContacts: the fewest near-equal parts, in order', () => {
    const xs = Array.from({ length: 25_001 }, (_, i) => i);
    const parts = splitContacts(xs);
    expect(parts.map((p) => p.length)).toEqual([8334, 8334, 8333]);
    expect(parts.flat()).toEqual(xs);
    expect(splitContacts(xs.slice(0, 10_000))).toHaveLength(1);
    expect(splitContacts([])).toEqual([]);
    expect(splitContacts([1, 2, 3, 4, 5], 2).map((p) => p.length)).toEqual([2, 2, 1]);
  });

  it('partName', () => {
    expect(partName('Diwali offer', 1, 3)).toBe('Diwali offer (2/3)');
    expect(partName('Diwali offer', 0, 1)).toBe('Diwali offer');
  });
});
