import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { readExcludeList } from '../../src/campaigns/exclude-file.js';
import { applyRules, type Rule } from '../../src/campaigns/exclusions.js';
import { UsageError } from '../../src/errors.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const { dir, file } = scratch('voicectl-exclude-');

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
    const p = join(dir(), 'dnc.xlsx');
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

describe('exclude lists that are not what a person wrote', () => {
  const AGENT = '00000000-0000-4000-8000-000000000000';
  const OFFLINE = { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' } };
  const create = (...flags: string[]) => run(['campaign', 'create', '--name', 'X', '--agent', AGENT, '--csv', file('leads.csv', 'name,phone\nAsha,+919876543210\nRavi,+919876543211\n'), '--dry-run', '--default-country', 'IN', ...flags], OFFLINE);

  it('a 10 MB line in a plain list is exit 2 naming the file and the line, not an unexpected error', async () => {
    for (const [name, line] of [['digits.txt', '9'.repeat(10 * 1024 * 1024)], ['spaces.txt', `${' '.repeat(10 * 1024 * 1024)}x`]] as const) {
      const r = await create('--exclude', file(name, `+919876543210\n${line}\n+919876543211\n`));
      expect(r.stderr).toContain(`error: ${name}: line 2 is 10.0 MB long; an exclude list holds one phone number a line (voicectl reads lines of up to 1,024 characters).`);
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
      expect(r.exitCode).toBe(2);
    }
  });

  it('a phone cell of megabytes in a spreadsheet list is one entry that is not a number, quoted short', async () => {
    const r = await create('--exclude', file('dnc.csv', `phone\n+919876543211\n${'9'.repeat(3 * 1024 * 1024)}\n`));
    expect(r.stderr).toContain(`warning: dnc.csv: 1 entry is not a valid phone number and can match no contact (row 3: "${'9'.repeat(60)}…" too long to be a phone number).`);
    expect(r.exitCode).toBe(0);
  });

  it('reads lines ending in \\r\\n or \\r across the reader\'s pieces with the right line numbers', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `+9198765${String(10_000 + i)}`);
    const list = await readExcludeList(file('crlf.txt', `${many.join('\r\n')}\r\n`), 'IN');
    expect(list.numbers.size).toBe(5000);
    expect(list.numbers.get('+919876514999')).toBe(5000);
    const cr = await readExcludeList(file('cr.txt', `\uFEFF${many.slice(0, 3000).join('\r')}`), 'IN');
    expect([...cr.numbers.values()].slice(-2)).toEqual([2999, 3000]);
  });

  it('--exclude-called-within past the calendar is exit 2 naming the flag', async () => {
    const r = await create('--exclude-called-within', '99999999w');
    expect(r.stderr).toContain("option '--exclude-called-within <span>' argument '99999999w' is invalid. expected a span of at most 36500d (100 years)");
    expect(r.exitCode).toBe(2);
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
