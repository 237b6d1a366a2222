import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { readExcludeList } from '../../src/campaigns/exclude-file.js';
import { applyRules, type Rule } from '../../src/campaigns/exclusions.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('voicectl-exclude-');
afterAll(() => tmp.remove());
const file = (name: string, text: string) => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};

describe('readExcludeList', () => {
  it('one number a line, in any format, normalized as contacts are', async () => {
    const p = file('dnc.txt', "098765 43210\n\n+91-99887-76655\n  919847012345 \n'+44 20 7946 0958\n\"98100 12345\",\n");
    const list = await readExcludeList(p, 'IN');
    expect([...list.numbers]).toEqual([
      ['+919876543210', 1], ['+919988776655', 3], ['+919847012345', 4], ['+442079460958', 5], ['+919810012345', 6],
    ]);
    expect(list.invalid).toEqual([]);
  });

  it('a CSV with a header: the phone column is found by name, rows are spreadsheet rows', async () => {
    const p = file('dnc.csv', 'Customer,Mobile Number\nA,098765 43210\nB,+91 99887 76655\nC,98765 43210\n');
    const list = await readExcludeList(p, 'IN');
    expect([...list.numbers]).toEqual([['+919876543210', 2], ['+919988776655', 3]]);
  });

  it('an .xlsx workbook', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('DNC');
    ws.addRow(['phone', 'reason']);
    ws.addRow(['+1 (212) 555-0123', 'asked']);
    ws.addRow(['098470 12345', 'complaint']);
    const p = join(tmp.dir, 'dnc.xlsx');
    await wb.xlsx.writeFile(p);
    const list = await readExcludeList(p, 'IN');
    expect([...list.numbers]).toEqual([['+12125550123', 2], ['+919847012345', 3]]);
  });

  it('entries that are not numbers are listed (they can match no valid contact)', async () => {
    const p = file('mixed.txt', '+919876543210\n12345\n');
    const list = await readExcludeList(p, 'IN');
    expect(list.numbers.size).toBe(1);
    expect(list.invalid).toMatchObject([{ row: 2, value: '12345' }]);
  });

  it('national numbers without a default country are an error, not a silent miss', async () => {
    const p = file('national.txt', '+919876543210\n098765 43210\n');
    await expect(readExcludeList(p, undefined)).rejects.toThrow(UsageError);
    await expect(readExcludeList(p, undefined)).rejects.toThrow(/1 number in national\.txt has no country code \(row 2\)/);
  });

  it('a list with no number at all is an error', async () => {
    await expect(readExcludeList(file('none.csv', 'phone\nabc\n'), 'IN')).rejects.toThrow(/holds no phone numbers/);
    await expect(readExcludeList(file('blank.txt', '\n\n'), 'IN')).rejects.toThrow(UsageError);
  });
});

describe('applyRules', () => {
  const rule = (label: string, numbers: Record<string, number>): Rule => ({
    label, file: `/lists/${label}`, match: (p) => (numbers[p] === undefined ? undefined : { file_row: numbers[p] }),
  });
  const contacts = [
    { row: 2, phone_number: '+911', name: 'A' },
    { row: 3, phone_number: '+912', name: 'B' },
    { row: 4, phone_number: '+913' },
  ];

  it('counts each contact against the first rule that matches, with both rows', () => {
    const r = applyRules(contacts, [rule('dnc.csv', { '+912': 7 }), rule('old.txt', { '+912': 1, '+913': 4 })]);
    expect(r.kept.map((c) => c.row)).toEqual([2]);
    expect(r.counts).toEqual([{ rule: 'dnc.csv', removed: 1 }, { rule: 'old.txt', removed: 1 }]);
    expect(r.excluded).toEqual([
      { row: 3, phone_number: '+912', name: 'B', rule: 'dnc.csv', file: '/lists/dnc.csv', file_row: 7 },
      { row: 4, phone_number: '+913', rule: 'old.txt', file: '/lists/old.txt', file_row: 4 },
    ]);
  });

  it('no rules: everything is kept', () => {
    expect(applyRules(contacts, [])).toEqual({ kept: contacts, excluded: [], counts: [] });
  });
});
