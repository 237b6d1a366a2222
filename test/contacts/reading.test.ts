import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { detectDelimiter } from '../../src/contacts/csv.js';
import { validateContactsFile } from '../../src/contacts/index.js';
import { UsageError } from '../../src/errors.js';

const fixtures = fileURLToPath(new URL('../../fixtures/contacts/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'voicectl-contacts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer, ext = 'csv'): string {
  const path = join(tmp, `f${n++}.${ext}`);
  writeFileSync(path, content);
  return path;
}

async function failure(path: string, options = {}): Promise<UsageError> {
  const err = await validateContactsFile(path, { defaultCountry: 'IN', workers: 0, ...options }).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('rows are spreadsheet rows', () => {
  it('a quoted field with line breaks is one row; blank and ;;; rows keep their numbers', async () => {
    const r = await validateContactsFile(fixtures + 'embedded-newlines.csv', { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts.map((c) => c.row)).toEqual([2, 3, 5]);
    expect(r.contacts[0]).toEqual({
      row: 2,
      phone_number: '+919876543210',
      name: 'Sharma, Priya',
      extra: { address: '12 MG Road\r\nBengaluru, KA 560001', notes: 'likes "early" calls' },
    });
    const semi = await validateContactsFile(fixtures + 'semicolon-blank-rows.csv', { defaultCountry: 'IN', workers: 0 });
    expect(semi.delimiter).toBe(';');
    expect(semi.contacts.map((c) => [c.row, c.name])).toEqual([[2, 'Asha Patil'], [4, 'Ravi Kulkarni'], [8, 'Müller GmbH']]);
    expect(semi.contacts[1]!.extra).toEqual({ City: 'Mumbai', Notes: 'likes; semicolons' });
    expect(semi.headers[0]).toBe('Name'); // the byte-order mark is not part of the header
  });

  it('blank lines before the header move the header down', async () => {
    const r = await validateContactsFile(file('\n\nname,phone\nAsha,9876543210\n'), { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts[0]!.row).toBe(4);
  });

  it('a last line without a newline is read', async () => {
    const r = await validateContactsFile(file('name,phone\r\nAsha,9876543210'), { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts).toHaveLength(1);
  });

  it('row numbers stay right across read chunks (a 30,000-row file)', async () => {
    let text = 'name,phone,notes\n';
    for (let i = 0; i < 30_000; i++) {
      const note = i % 1000 === 0 ? '"two\nlines"' : 'x';
      text += `P${i},${i === 25_000 ? 'bad' : `98${String(10_000_000 + i).slice(-8)}`},${note}\n`;
    }
    const r = await validateContactsFile(file(text), { defaultCountry: 'IN', workers: 0, collectContacts: false });
    expect(r.report.total_rows).toBe(30_000);
    expect(r.report.errors).toEqual([{ row: 25_002, column: 'phone', value: 'bad', message: 'not a phone number (it contains letters)' }]);
  });
});

describe('encodings and formats', () => {
  it('UTF-16LE with BOM, tab separated (Excel "Unicode text")', async () => {
    const r = await validateContactsFile(fixtures + 'unicode-text-utf16le.txt', { defaultCountry: 'IN', workers: 0 });
    expect(r.delimiter).toBe('\t');
    expect(r.phoneColumn).toBe('Mobile Number');
    expect(r.contacts[0]).toEqual({ row: 2, phone_number: '+919876543210', name: 'Anjali Deshmukh', extra: { City: 'Pune', Notes: 'prefers मराठी' } });
  });

  it('UTF-16BE with BOM', async () => {
    const r = await validateContactsFile(fixtures + 'utf16be.csv', { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts.map((c) => c.name)).toEqual(['Meera Iyer', 'Karan Mehta']);
  });

  it('.xlsx: cells as text, leading zeros kept, dates as dates, empty rows keep numbering', async () => {
    const r = await validateContactsFile(fixtures + 'workbook.xlsx', { defaultCountry: 'IN', workers: 0, keepDuplicates: true });
    expect(r.contacts[0]).toEqual({
      row: 2,
      phone_number: '+919876543210',
      name: 'Priya Sharma',
      extra: { 'Customer ID': '007', Pincode: '560001', 'Signed up': '2024-03-15', Plan: 'Gold' },
    });
    expect(r.contacts.map((c) => c.row)).toEqual([2, 3, 6, 7]);
  });

  it.each([
    ['name,phone,city\n', ','], ['name;phone;city\r\n1;2;3', ';'], ['name\tphone\tcity\n', '\t'],
    ['"last, first";phone\n', ';'], ['\n\nname;phone\n', ';'], ['phone\n9876543210\n', ','],
  ])('detects the delimiter from the header line of %j: %j', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});

describe('file-level problems: one readable message each', () => {
  it('file not found', async () => {
    expect((await failure(join(tmp, 'nope.csv'))).message).toBe(`File not found: ${join(tmp, 'nope.csv')}`);
  });

  it('a directory', async () => {
    expect((await failure(tmp)).message).toBe(`${tmp} is a directory, not a contacts file.`);
  });

  it('an unclosed quote in a large file fails fast, naming the row where it opens', async () => {
    let text = 'name,phone,notes\nA,9876543210,"never closed\n';
    for (let i = 0; i < 200_000; i++) text += `P${i},9876543210,some notes here\n`;
    const started = Date.now();
    const err = await failure(file(text));
    expect(err.message).toBe(`f${n - 1}.csv: the quote that opens in row 2 is never closed, so every row after it would be read as one cell.`);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a stray quote after a closed one is an unbalanced quote too', async () => {
    const err = await failure(file('name,phone\nA,9876543210\n"Sharma" Priya,9876543211\nB,9876543212\n'));
    expect(err.message).toMatch(/the quote that opens in row 3 is never closed/);
  });

  it('bytes that are not UTF-8 far into the file name their line', async () => {
    const head = Buffer.from(`name,phone\n${'Asha,9876543210\n'.repeat(40_000)}`);
    const err = await failure(file(Buffer.concat([head, Buffer.from('Jos\xe9,9876543210\n', 'latin1')])));
    expect(err.message).toBe(`f${n - 1}.csv is not UTF-8 text: line 40002 has bytes that are not valid UTF-8.`);
    expect(err.hint).toMatch(/CSV UTF-8/);
  });

  it('a NUL byte at the start, or far into a text file', async () => {
    expect((await failure(file(Buffer.from('name,phone\nA,98765\u000043210\n')))).message).toMatch(/looks like a binary file\.$/);
    const err = await failure(file(Buffer.from(`name,phone\n${'Asha,9876543210\n'.repeat(10_000)}A,98765\u000043210\n`)));
    expect(err.message).toMatch(/looks like a binary file \(line 10002 has a NUL byte\)/);
  });

  it('only a header and blank rows', async () => {
    expect((await failure(file('name;phone;city\r\n;;\r\n;;\r\n'))).message).toMatch(/has a header row but no contacts below it/);
  });

  it('an unknown --default-country', async () => {
    expect((await failure(fixtures + 'indian-formats.csv', { defaultCountry: 'XX' })).message).toBe('"XX" is not a country code libphonenumber knows.');
    // Not even two letters: refused before the file is read.
    expect((await failure(fixtures + 'no-such-file.csv', { defaultCountry: 'India' })).message).toBe('"India" is not a country code libphonenumber knows.');
  });
});
