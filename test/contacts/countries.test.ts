/**
 * Lists that mix countries: a country per row (a Country column), no number written the
 * North American way read as another country's, and the library's verdict per row.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountryCells } from '../../src/contacts/country-cell.js';
import { createPhoneCheck } from '../../src/contacts/phone.js';
import { validateContactsFile } from '../../src/contacts/validate.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { foreignStyle } from '../../scripts/phone-cells.js';
import { clientFor, givenAgent } from '../helpers/given.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const { file } = scratch('voicectl-countries-');

/** 40 rows: India, the United States, the United Kingdom and the UAE, each written the way people there write them. */
const ROWS: Array<[country: CountryCode, values: string[], cells: string[]]> = [
  ['IN', ['IN', 'in', 'India', '+91', '91'], ['98765 43210', '098765 43210', '+91 98765 43211', '99887 76655', '022 2345 6789', '011 2345 6789', '70123 45678', '080 2222 3333', '91 98100 12345', '9876543212']],
  ['US', ['US', 'us', 'United States', '+1', 'USA'], ['(646) 555-0143', '646-555-0144', '646.555.0145', '1-404-555-0121', '1 (212) 555 0100', '(415) 555-2671', '212-555-0198', '+1 646 555 0199', '7012345678', '(917) 555-0110']],
  ['GB', ['UK', 'GB', 'United Kingdom', '+44', 'gb'], ['07911 123456', '020 7946 0958', '0161 496 0000', '07400 123456', '0800 123 4567', '020 7946 0959', '0113 496 0000', '+44 20 7946 0000', '7911 123457', '07700 900456']],
  ['AE', ['AE', 'UAE', 'United Arab Emirates', '+971', '971'], ['050 123 4567', '055 123 4568', '04 234 5678', '02 612 3456', '+971 50 765 4321', '0501234569', '052 987 6543', '800 123 4567', '971 56 123 4567', '056 765 4321']],
];
/** Interleaved, as a real list is: row i+2 of the file. */
const LIST = Array.from({ length: 10 }, (_, i) => ROWS.map(([country, values, cells]) => ({ country, value: values[i % values.length]!, cell: cells[i]! }))).flat();

function library(cell: string, country: CountryCode | undefined): string | undefined {
  const phone = parsePhoneNumberFromString(cell, { defaultCountry: country });
  return phone?.isValid() ? phone.number : undefined;
}

const csv = (withCountry: boolean) => `Name,Phone${withCountry ? ',Country' : ''}\n${LIST.map((r, i) => `Person ${i},${r.cell}${withCountry ? `,${r.value}` : ''}`).join('\n')}\n`;

/** Row → E.164 or the reason, as validateContactsFile answers. */
async function verdicts(path: string, options: Parameters<typeof validateContactsFile>[1]) {
  const result = await validateContactsFile(path, { keepDuplicates: true, workers: 0, ...options });
  const byRow = new Map<number, string>();
  for (const c of result.contacts) byRow.set(c.row, c.phone_number);
  for (const e of result.report.errors) byRow.set(e.row, e.message);
  return { result, byRow };
}

describe('a 40-row list of India, US, UK and UAE numbers', () => {
  it('with a Country column: every row is exactly the library\'s verdict with the row\'s country', async () => {
    const path = file('mixed.csv', csv(true));
    for (const defaultCountry of [undefined, 'IN', 'US']) {
      const { result, byRow } = await verdicts(path, { defaultCountry });
      expect(result.countryColumn).toBe('Country');
      LIST.forEach((r, i) => {
        const expected = library(r.cell, r.country);
        const got = byRow.get(i + 2)!;
        expect({ row: i + 2, cell: r.cell, got: got.startsWith('+') ? got : 'invalid' }).toEqual({ row: i + 2, cell: r.cell, got: expected ?? 'invalid' });
      });
      // The list is worth something: nearly every row is valid in its own country.
      expect(result.report.valid).toBe(39);
    }
  });

  it('without one, under IN: the North American styles are refused with their rows, the rest is the library\'s verdict or a documented foreign style', async () => {
    const { result, byRow } = await verdicts(file('mixed.csv', csv(false)), { defaultCountry: 'IN' });
    const american = LIST.map((r, i) => ({ ...r, row: i + 2 })).filter((r) => r.country === 'US' && !r.cell.startsWith('+') && r.cell !== '7012345678');
    expect(american).toHaveLength(8);
    for (const r of american) {
      const reason = byRow.get(r.row)!;
      expect(reason).toMatch(/^looks like a US\/Canada number \(the North American style, without \+1\), so it was not read as a number of India \(\+91\): write it with \+1 \(\+1\d{10}\), or give the row its country in a country column/);
      expect(reason).toContain(library(r.cell, 'US'));
    }
    LIST.forEach((r, i) => {
      const got = byRow.get(i + 2)!;
      const lib = library(r.cell, 'IN');
      if (got.startsWith('+') || lib === undefined) expect(got.startsWith('+') ? got : undefined).toBe(lib);
      else expect({ cell: r.cell, style: foreignStyle(r.cell, 'IN') }).toEqual({ cell: r.cell, style: expect.any(String) });
    });
    // A UK mobile is not dialled in India either.
    expect(byRow.get(LIST.findIndex((r) => r.cell === '07911 123456') + 2)).toMatch(/^is written the way United Kingdom \(\+44\) writes its numbers, so it was not read as India's \+917911123456: write it with \+44 \(\+447911123456\)/);
    // Bare digits have no style: a US number written so is India's to the library, and to voicectl.
    expect(byRow.get(LIST.findIndex((r) => r.cell === '7012345678') + 2)).toBe('+917012345678');
  });

  it('an unreadable country is a row error naming the value; an empty one falls back to the default country', async () => {
    const path = file('bad-country.csv', 'Name,Phone,Country Code\nA,98765 43210,Narnia\nB,98765 43211,\nC,(646) 555-0143,+999\nD,(646) 555-0144,+1\n');
    const { result, byRow } = await verdicts(path, { defaultCountry: 'IN' });
    expect(result.report.errors[0]).toMatchObject({ row: 2, column: 'Country Code', value: 'Narnia' });
    expect(byRow.get(2)).toContain('country "Narnia" is not one voicectl can read');
    expect(byRow.get(3)).toBe('+919876543211');
    expect(byRow.get(4)).toContain('country "+999" is not one voicectl can read (no country has the dial code +999)');
    expect(byRow.get(5)).toBe('+16465550144');
  });

  it('--country-column names another column; a missing one is exit 2', async () => {
    const path = file('named.csv', 'Name,Phone,Land\nA,(646) 555-0143,United States\n');
    expect((await verdicts(path, { defaultCountry: 'IN', countryColumn: 'Land' })).byRow.get(2)).toBe('+16465550143');
    const r = await run(['contacts', 'validate', path, '--country-column', 'Nation']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('has no column "Nation" (from --country-column)');
  });
});

describe('reading a country cell', () => {
  const cells = new CountryCells();
  it.each([
    ['US', 'US'], ['in', 'IN'], ['United States', 'US'], ['India', 'IN'], ['UK', 'GB'], ['u.k.', 'GB'], ['England', 'GB'], ['+1', 'US'], ['91', 'IN'],
    ['0044', 'GB'], ['+971', 'AE'], ['UAE', 'AE'], ['United Arab Emirates', 'AE'], ['USA', 'US'], ['Germany', 'DE'], ['Brazil', 'BR'], [' canada ', 'CA'],
  ])('%j is %s', (value, code) => {
    expect(cells.read(value)).toEqual({ country: code });
  });
  it.each(['Narnia', 'XX', '+999', 'Mars, probably'])('%j is an error naming it', (value) => {
    const read = cells.read(value);
    expect(read && 'error' in read ? read.error : '').toContain(`country ${JSON.stringify(value)} is not one voicectl can read`);
  });
  it('an empty cell is no country', () => {
    expect(cells.read('  ')).toBeUndefined();
  });
});

describe('other countries\' styles that the library would read as the default country\'s', () => {
  it.each([
    ['(646) 555-0143', 'IN', 'US'], ['646-555-0143', 'GB', 'US'], ['646.555.0143', 'AE', 'US'], ['1-404-555-0121', 'IN', 'US'], ['1 (212) 555 0100', 'DE', 'US'],
    ['70123 45678', 'US', 'IN'], ['70123 45678', 'GB', 'IN'], ['07911 123456', 'IN', 'GB'], ['0800 123 4567', 'AE', 'GB'], ['7911 123457', 'IN', 'GB'],
  ] as const)('%j under %s is refused as %s\'s style, and the documented rule agrees', (cell, home, style) => {
    const reason = createPhoneCheck(home)(cell);
    expect(reason.startsWith('+')).toBe(false);
    expect(reason).toContain(style === 'US' ? 'looks like a US/Canada number' : `is written the way ${({ IN: 'India (+91)', GB: 'United Kingdom (+44)', AE: 'United Arab Emirates (+971)' })[style]}`);
    expect(foreignStyle(cell, home)).toBe(style === 'US' ? 'North American' : style);
    // With the row's own country, the library's verdict and nothing else.
    const own = createPhoneCheck(home, { rowCountry: true })(cell);
    expect(own.startsWith('+') ? own : undefined).toBe(library(cell, home));
  });

  it.each([
    ['(646) 555-0143', 'US'], ['(646) 555-0143', 'CA'], ['98765 43210', 'IN'], ['098765-43210', 'IN'], ['022-23456789', 'IN'], ['020 7946 0958', 'IN'],
    ['07911 123456', 'GB'], ['050 123 4567', 'AE'], ['312 345 6789', 'IT'], ['+1 646 555 0143', 'IN'], ['001 646 555 0143', 'IN'], ['6465550143', 'IN'],
  ] as const)('%j under %s is read as the library reads it', (cell, home) => {
    expect(createPhoneCheck(home)(cell)).toBe(library(cell, home));
    expect(foreignStyle(cell, home)).toBeUndefined();
  });
});

describe('campaign create with a mixed list', () => {
  let sandbox: Sandbox;
  let agentId = '';
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 34 });
    agentId = (await givenAgent(clientFor(sandbox))).id;
  });
  afterAll(async () => sandbox.close());
  const env = () => ({ VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey });
  const posts = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/campaigns') && Array.isArray((r.body as { contacts?: unknown })?.contacts));
  const sent = (body: unknown) => (body as { contacts: Array<{ phone_number: string }> }).contacts.map((c) => c.phone_number);

  it('with a Country column: --dry-run --json and the POST body carry each row\'s number in its own country', async () => {
    const path = file('mixed.csv', csv(true));
    const expected = LIST.map((r) => library(r.cell, r.country)).filter((e): e is string => e !== undefined);
    const dry = await run(['campaign', 'create', '--name', 'Mixed', '--agent', agentId, '--csv', path, '--default-country', 'IN', '--skip-invalid', '--keep-duplicates', '--dry-run', '--json'], { env: env() });
    expect(dry.exitCode).toBe(0);
    expect(sent(JSON.parse(dry.stdout))).toEqual(expected);
    expect(dry.stderr).toContain('(country column "Country")');

    const before = posts().length;
    const r = await run(['campaign', 'create', '--name', 'Mixed', '--agent', agentId, '--csv', path, '--default-country', 'IN', '--skip-invalid', '--keep-duplicates', '--json'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(posts()).toHaveLength(before + 1);
    expect(sent(posts().at(-1)!.body)).toEqual(expected);
  });

  it('without one, under IN: refused with the rows and nothing sent; --skip-invalid leaves the refused rows out', async () => {
    const path = file('mixed.csv', csv(false));
    const before = posts().length;
    const refused = await run(['campaign', 'create', '--name', 'Mixed', '--agent', agentId, '--csv', path, '--default-country', 'IN'], { env: env() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^3\s+Phone\s+\(646\) 555-0143\s+looks like a US\/Canada number/m);
    expect(posts()).toHaveLength(before);

    const skip = await run(['campaign', 'create', '--name', 'Mixed', '--agent', agentId, '--csv', path, '--default-country', 'IN', '--skip-invalid', '--json'], { env: env() });
    expect(skip.exitCode).toBe(0);
    const numbers = sent(posts().at(-1)!.body);
    const american = LIST.filter((r) => r.country === 'US' && !r.cell.startsWith('+') && r.cell !== '7012345678').map((r) => library(r.cell, 'US'));
    const asIndian = LIST.filter((r) => r.country === 'US' && !r.cell.startsWith('+')).map((r) => library(r.cell, 'IN'));
    for (const n of [...american, ...asIndian.filter((n) => n !== '+917012345678')]) expect(numbers).not.toContain(n);
    expect(numbers).toContain('+919876543210');
    expect(numbers).toContain('+16465550199'); // written with +1
    expect(numbers).not.toContain('+917911123456'); // the UK mobile, not dialled in India
  });
});
