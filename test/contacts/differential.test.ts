/**
 * voicectl's verdict on a phone cell against libphonenumber-js's
 * parsePhoneNumberFromString(cell, { defaultCountry }) with the full metadata: a seeded
 * sample of the cells scripts/differential.js checks in full (`npm run differential`).
 * Any difference outside the documented list (docs/contacts.md) fails.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { validateContactsFile } from '../../src/contacts/validate.js';
import { createPhoneCheck } from '../../src/contacts/phone.js';
import { baseNumbers, compareCell, documentedDifference, foreignStyle, generateCells, mixedRows, MUTATIONS, runDifferential, STYLES } from '../../scripts/phone-cells.js';

const SEED = 20261123;
const bases = baseNumbers(SEED);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the differential generator', () => {
  it('has numbers of every country, fixed lines too, and non-geographic ones', () => {
    const countries = new Set(bases.map((b) => b.country).filter(Boolean));
    expect(countries.size).toBeGreaterThanOrEqual(240);
    expect(bases.filter((b) => b.type === 'FIXED_LINE').length).toBeGreaterThanOrEqual(400);
    expect(bases.some((b) => b.country === undefined)).toBe(true);
  });

  it('is seeded: the same seed writes the same cells', () => {
    const a = [...generateCells({ seed: 5, count: 300, bases })];
    const b = [...generateCells({ seed: 5, count: 300, bases })];
    expect(a).toEqual(b);
    expect([...generateCells({ seed: 6, count: 300, bases })]).not.toEqual(a);
  });
});

describe('documentedDifference: the only cells where voicectl may refuse what the library reads', () => {
  it.each([
    ['call +91 98765 43210', 'IN', 'words'],
    ['tel:+919876543210', undefined, 'words'],
    ['Mob: 098765 43210', 'IN', 'words'],
    ['9.19876E+11', 'IN', 'words'],
    ['+91 80 2222 3333 #12', 'IN', 'extension'],
    ['98765 43210;12', 'IN', 'extension'],
    ['98765 43210 / 022 2345 6789', 'IN', 'two numbers'],
    ['+44 20 7946 0958, +44 7911 123456', undefined, 'two numbers'],
  ] as const)('%j (%s) is %s', (cell, country, kind) => {
    expect(documentedDifference(cell, country)).toBe(kind);
  });

  it.each([
    ['(+91) 98 7654 3210', 'IN'],
    ['98765ー43210', 'IN'], // U+30FC is a letter to Unicode and a dash to the library
    ['९८७६५ ४३२१०', 'IN'], // Devanagari digits are digits, not letters
    ['030/1234567', 'DE'], // one number, German style
    ['49 1512/ 3456789', 'DE'],
    ['+91 98765 / 43210', 'IN'], // a part that is no number on its own
    ['9876543210,', 'IN'],
    ['', 'IN'],
  ] as const)('%j (%s) is no documented difference', (cell, country) => {
    expect(documentedDifference(cell, country)).toBeUndefined();
  });

  it.each([
    ['(646) 555-0143', 'IN', 'North American'], ['1 (212) 555 0100', 'GB', 'North American'], ['70123 45678', 'US', 'IN'], ['07911 123456', 'IN', 'GB'], ['0800 123 4567', 'AE', 'GB'],
    ['(646) 555-0143', 'US', undefined], ['312 345 6789', 'IT', undefined], ['020 7946 0958', 'IN', undefined], ['6465550143', 'IN', undefined], ['+1 646 555 0143', 'IN', undefined],
    ['(646) 555-0143', undefined, undefined], ['98765 43210', 'IN', undefined],
  ] as const)('foreignStyle(%j, %s) is %s', (cell, country, style) => {
    expect(foreignStyle(cell, country)).toBe(style);
  });

  it('a row with its own country excuses no foreign style', () => {
    expect(compareCell('(646) 555-0143', 'IN', 'looks like a US/Canada number …')).toMatchObject({ documented: 'foreign style' });
    expect(compareCell('(646) 555-0143', 'IN', 'looks like a US/Canada number …', { rowCountry: true })).toMatchObject({ undocumented: true });
  });

  it('never excuses a different number, only a refusal', () => {
    expect(compareCell('call +91 98765 43210', 'IN', 'not a phone number (it contains letters)')).toMatchObject({ documented: 'words' });
    expect(compareCell('call +91 98765 43210', 'IN', '+919876543211')).toMatchObject({ undocumented: true });
    expect(compareCell('(+91) 98 7654 3210', 'IN', 'not a phone number')).toMatchObject({ undocumented: true, library: '+919876543210' });
    expect(compareCell('98765', 'IN', '+919876500000')).toMatchObject({ undocumented: true, library: 'invalid' });
    expect(compareCell('98765', 'IN', 'too short')).toEqual({ same: true, valid: false });
  });
});

describe('voicectl and libphonenumber-js agree', () => {
  it('on a seeded sample of cells in every style, with mutations', () => {
    const summary = runDifferential({ seed: SEED, count: 40_000, bases, checkFor: (country) => createPhoneCheck(country) });
    expect(summary.examples).toEqual([]);
    expect(summary.undocumented).toBe(0);
    expect(summary.cells).toBe(40_000);
    // The sample is worth something only if it covers every style and both answers occur often.
    expect(summary.styles.size).toBe(Object.keys(STYLES).length);
    expect(summary.libraryValid).toBeGreaterThan(summary.cells * 0.3);
    expect(summary.cells - summary.libraryValid).toBeGreaterThan(summary.cells * 0.2);
    expect(summary.mutated).toBeGreaterThan(summary.cells * 0.3);
    expect(Object.keys(MUTATIONS).length).toBe(4);
    expect(summary.documented.words).toBeGreaterThan(0);
    expect(summary.documented.extension).toBeGreaterThan(0);
    expect(summary.documented['foreign style']).toBeGreaterThan(0);
  });

  it('on mixed lists: every row with a country is read as the library reads it with that country', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voicectl-differential-'));
    dirs.push(dir);
    const rows = [...mixedRows({ seed: SEED + 2, count: 6_000, bases })];
    const file = join(dir, 'mixed.csv');
    writeFileSync(file, Papa.unparse({ fields: ['id', 'phone', 'Country'], data: rows.map((r, i) => [String(i), r.cell, r.countryCell]) }, { quotes: true }));
    for (const fileDefault of ['IN', undefined]) {
      const { contacts, report } = await validateContactsFile(file, { defaultCountry: fileDefault, keepDuplicates: true, workers: 0 });
      const byRow = new Map<number, string>();
      for (const c of contacts) byRow.set(c.row, c.phone_number);
      for (const e of report.errors) byRow.set(e.row, e.column === 'Country' ? `(country cell refused: ${e.message})` : e.message);
      const compared = rows.map((r, i) => ({ ...r, result: compareCell(r.cell, r.country ?? fileDefault, byRow.get(i + 2) ?? '(no answer)', { rowCountry: r.country !== undefined }) }));
      expect(compared.filter((c) => 'undocumented' in c.result)).toEqual([]);
      expect(report.total_rows).toBe(rows.length);
      // Both kinds of row occur, in numbers, and the rows with a country are mostly valid.
      const withCountry = compared.filter((c) => c.country !== undefined);
      expect(withCountry.length).toBeGreaterThan(4_500);
      expect(withCountry.filter((c) => c.result.valid).length).toBeGreaterThan(1_500);
      expect(compared.length - withCountry.length).toBeGreaterThan(300);
    }
  });

  it('through the file reader as `contacts validate` reads a CSV', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voicectl-differential-'));
    dirs.push(dir);
    // Every cell under each file's default country, whatever country it was written for.
    const cells = [...generateCells({ seed: SEED + 1, count: 5_000, bases })];
    for (const country of ['IN', undefined]) {
      const file = join(dir, `cells-${country ?? 'none'}.csv`);
      writeFileSync(file, Papa.unparse({ fields: ['id', 'phone'], data: cells.map((c, i) => [String(i), c.cell]) }, { quotes: true }));
      const { contacts, report } = await validateContactsFile(file, { defaultCountry: country, keepDuplicates: true, workers: 0 });
      const byRow = new Map<number, string>();
      for (const c of contacts) byRow.set(c.row, c.phone_number);
      for (const e of report.errors) byRow.set(e.row, e.message);
      const undocumented = cells
        .map((c, i) => ({ ...c, result: compareCell(c.cell, country, byRow.get(i + 2) ?? '(no answer)') }))
        .filter((c) => 'undocumented' in c.result);
      expect(undocumented).toEqual([]);
      expect(report.total_rows).toBe(cells.length);
      expect(contacts.length).toBeGreaterThan(1000);
    }
  });
});
