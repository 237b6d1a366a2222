/**
 * Numbers written the way another country writes its own, read with --default-country:
 * "(646) 555-0143" under IN is also a valid Indian number, and would be dialled in India.
 * The styles voicectl refuses are tested in countries.test.ts; the others are a warning.
 */
import { readFileSync } from 'node:fs';
import { getCountries, getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { NATIONAL_DIGITS_FILE, nationalDigitsFile } from '../../scripts/national-digits.js';
import { NationalStyle } from '../../src/contacts/national-style.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';

const { file } = scratch('voicectl-style-');

describe('NationalStyle', () => {
  const india = new NationalStyle('IN');

  it.each(['(646) 555-0143', '646-555-0143', '(212) 555-0198'])('%j under IN is the United States\' style', (cell) => {
    expect(india.countriesOf(cell)?.[0]).toBe('US');
  });

  it.each(['98765 43210', '098765 43210', '98765-43210', '9876543210', '(022) 2345 6789', '022-23456789', '+1 (646) 555-0143', '0091 98765 43210', 'call 98765 43210'])(
    '%j is not another country\'s style under IN', (cell) => {
      expect(india.countriesOf(cell)).toBeUndefined();
    },
  );

  it('answers a cell the same whatever cells came before it (a shape met before is recognised, not made again)', () => {
    // Shapes that differ only in their spaces (a tab, a no-break space, two spaces are one
    // space in a shape), more shapes than are kept as recent, and each seen again later.
    const us = ['(646) 555-0143', '(646)\t555-0143', '(646)\u00a0 555-0143', '646-555-0143', '646 555 0143', '646  555  0143', '1-404-555-0121'];
    const other = ['98765 43210', '098765 43210', '0 80 4332 8266', '01812-345678', '01812 - 345678', '020 7946 0958', '(022) 2345 6789', '02223456789', '12 34'];
    const cells = [...us, ...other, ...other.reverse(), ...us.reverse(), ...us, ...other];
    const learning = new NationalStyle('IN');
    for (const cell of cells) expect(learning.countriesOf(cell), JSON.stringify(cell)).toEqual(new NationalStyle('IN').countriesOf(cell));
    expect(learning.countriesOf('(212)  555-0198')?.[0]).toBe('US');
  });

  it('Indian numbers under US are India\'s style', () => {
    expect(new NationalStyle('US').countriesOf('098765 43210')).toEqual(['IN']);
  });
});

describe("the scan's digit bounds", () => {
  // A new shape is looked for in every country's plan; the bounds leave out, without
  // compiling their patterns, the countries none of whose numbers a cell of so many digits
  // can be. They must leave out only countries the scan would not have found: a country's
  // example number as it writes it, without its national prefix, and regrouped as people
  // write numbers, under four defaults, each cell a new shape (a fresh scan), with and
  // without the bounds.
  const cells: string[] = ['0 80 4332 8266', '098765 43210', '(646) 555-0143', '1-404-555-0121', '020 7946 0958', '050 123 4567', '01812-345678', '555 0143', '12 34 56'];
  for (const country of getCountries()) {
    const example = getExampleNumber(country, examples);
    if (!example) continue;
    const national = example.formatNational();
    const digits = national.replace(/\D/g, '');
    const nsn = example.nationalNumber;
    cells.push(
      national,
      national.replace(/ /g, '-'),
      `${digits.slice(0, 1)} ${digits.slice(1, 3)} ${digits.slice(3, 7)} ${digits.slice(7)}`.trim(),
      `(${digits.slice(0, 3)}) ${digits.slice(3)}`,
      `${nsn.slice(0, 3)} ${nsn.slice(3)}`,
      `${nsn.slice(0, 2)}-${nsn.slice(2, 5)}-${nsn.slice(5)}`.replace(/-$/, ''),
    );
  }

  it.each(['IN', 'US', 'GB', 'AE'] as const)('find the same countries as the whole scan under %s', (home) => {
    let found = 0;
    for (const cell of cells) {
      const whole = new NationalStyle(home, false).countriesOf(cell);
      expect(new NationalStyle(home).countriesOf(cell), cell).toEqual(whole);
      if (whole) found++;
    }
    // Cells other countries do write: the comparison is not of empty answers only.
    expect(found).toBeGreaterThan(100);
  });

  it('are those of the installed libphonenumber-js (node scripts/national-digits.js writes them again)', () => {
    expect(readFileSync(NATIONAL_DIGITS_FILE, 'utf8')).toBe(nationalDigitsFile());
  });
});

describe('the warning', () => {
  // Bangladesh's style is not one voicectl refuses (docs/contacts.md lists those): it is a warning.
  const CSV = 'Customer Name,Phone\nAsha,98765 43210\nJohn,01812-345678\nMary,01812-345699\nRavi,98100 12345\nBob,01912-345678\n';

  it('contacts validate: count, rows, what they were read as, and how to read them as that country\'s numbers', async () => {
    const path = file('mixed.csv', CSV);
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`warning: ${path}: 3 numbers are written the way Bangladesh (+880)`);
    expect(r.stderr).toContain('(such as "01812-345678", rows 3, 4, 6), and they were read as numbers of India (+91). If they are numbers of Bangladesh, pass --default-country BD to read them so, or write them with +880 in front.');

    const bd = await run(['contacts', 'validate', file('bd.csv', 'Name,Phone\nJohn,01812-345678\nMary,01812-345699\n'), '--default-country', 'BD', '--json']);
    expect(bd.exitCode).toBe(0);
    expect(bd.stderr).toBe('');
  });

  it('a row with its own country, or a number refused for another country\'s style, is not warned about', async () => {
    const path = file('rows.csv', 'Name,Phone,Country\nJohn,01812-345678,IN\nMary,(646) 555-0143,\n');
    const r = await run(['contacts', 'validate', path, '--default-country', 'IN']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('warning');
    expect(r.stdout).toContain('looks like a US/Canada number');
  });

  it('campaign create --csv warns the same way before anything is sent', async () => {
    const r = await run(['campaign', 'create', '--name', 'X', '--agent', '00000000-0000-4000-8000-000000000000', '--csv', file('leads.csv', CSV), '--default-country', 'IN', '--dry-run'],
      { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('warning: leads.csv: 3 numbers are written the way Bangladesh (+880)');
  });
});
