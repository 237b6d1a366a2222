/**
 * The quick reading of plain cells (src/contacts/quick-parse.ts) against the library it
 * stands in for: wherever it answers, its PhoneNumber is the one
 * parsePhoneNumberWithError(cell, { defaultCountry }) returns with the full metadata,
 * field by field. The cells: numbers of every country written in every style of the
 * differential test, and random digits in the shapes lists are made of (national prefixes,
 * calling codes without "+", "00", too short and too long), under the default countries
 * voicectl's users have most and a few with national prefix rules of their own.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { QuickParse } from '../../src/contacts/quick-parse.js';
import { lpn } from '../../src/contacts/validity.js';
import { baseNumbers, generateCells } from '../../scripts/phone-cells.js';
import { rng } from '../helpers/rng.js';

const quick = new QuickParse();

/** What a caller can read of a parsed number. */
function fields(phone: PhoneNumber) {
  return {
    number: phone.number,
    country: phone.country,
    countryCallingCode: phone.countryCallingCode,
    nationalNumber: phone.nationalNumber,
    ext: phone.ext,
    carrierCode: phone.carrierCode,
    valid: phone.isValid(),
    type: phone.getType(),
    national: phone.formatNational(),
    international: phone.formatInternational(),
  };
}

function library(cell: string, defaultCountry: CountryCode | undefined): PhoneNumber | string {
  try {
    return lpn.parsePhoneNumberWithError(cell, { defaultCountry });
  } catch (err) {
    return (err as Error).message;
  }
}

/** Every cell the quick reading answered, compared; the counts, so a test that compares nothing fails. */
function compare(cells: Iterable<[string, CountryCode | undefined]>): { cells: number; answered: number; differences: string[] } {
  let count = 0;
  let answered = 0;
  const differences: string[] = [];
  for (const [cell, country] of cells) {
    count++;
    const mine = quick.parse(cell, country);
    if (mine === undefined) continue;
    answered++;
    const theirs = library(cell, country);
    if (mine === null) {
      // Not a valid number: the library reads none, or one that is not valid.
      if (typeof theirs !== 'string' && theirs.isValid() && differences.length < 20) differences.push(`${JSON.stringify(cell)} (${country}): not valid vs ${JSON.stringify(fields(theirs))}`);
      continue;
    }
    const same = typeof theirs !== 'string' && JSON.stringify(fields(theirs)) === JSON.stringify(fields(mine));
    if (!same && differences.length < 20) differences.push(`${JSON.stringify(cell)} (${country}): ${JSON.stringify(fields(mine))} vs ${typeof theirs === 'string' ? theirs : JSON.stringify(fields(theirs))}`);
  }
  return { cells: count, answered, differences };
}

const DEFAULTS: Array<CountryCode | undefined> = ['IN', 'US', 'GB', 'AE', 'DE', 'SG', 'AU', 'BR', 'AR', 'MX', 'RU', undefined];

function* randomCells(seed: number, count: number): Generator<[string, CountryCode | undefined]> {
  const random = rng(seed);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  for (let i = 0; i < count; i++) {
    const country = pick(DEFAULTS);
    const code = country ? lpn.getCountryCallingCode(country) : pick(['91', '1', '44', '971']);
    const body = digits(4 + Math.floor(random() * 10));
    const split = (s: string) => {
      const at = 1 + Math.floor(random() * (s.length - 1));
      return `${s.slice(0, at)}${pick([' ', '-', ''])}${s.slice(at)}`;
    };
    const cell = pick([
      () => body,
      () => split(body),
      () => `0${split(body)}`,
      () => `+${code} ${split(body)}`,
      () => `+${code}${body}`,
      () => `+${code} 0${body}`,
      () => `${code}${body}`,
      () => `00${code} ${body}`,
      () => `  ${split(body)} `,
      () => `${split(body)}-`,
      () => `+${digits(1 + Math.floor(random() * 3))} ${split(body)}`,
      () => `${pick(['98', '99', '70', '63', '88'])}${digits(3)} ${digits(5)}`,
      () => `+91 ${pick(['98', '99', '70', '63', '88'])}${digits(3)}-${digits(5)}`,
    ])();
    yield [cell, country];
  }
}

/** Plain cells of valid numbers, by default country. */
const READ_QUICKLY: Record<string, string[]> = {
  IN: ['98765 43210', '+91 98765 43210', '098765-43210', '+971 50 123 4567', '+1 212 555 0100', '+44 20 7946 0958', '+44 1534 123456'],
  US: ['416-555-0199', '212-555-0100'],
  GB: ['07911 123456', '07781 123456', '01534 123456'],
  DE: ['030 1234567'],
  none: ['+91-98765-43210', '+1 242 357 1234'],
};

/** Cells whose reading needs a rule QuickParse does not follow. */
const LEFT_TO_THE_LIBRARY: Record<string, string[]> = {
  IN: [
    '0091 98765 43210', // an international dialing prefix
    '919876543210', // the default country's calling code without +
    '(022) 2345 6789', // brackets
    '98765.43210', // dots
    '98765  43210', // two spaces
    "'+91 98765 43210", // an apostrophe
    '0 9876543210 0000000', // more digits than a number has
  ],
  none: ['98765 43210'], // no country
};

describe('QuickParse reads a plain cell exactly as the library does', () => {
  it('numbers of every country, in every style of the differential test', () => {
    const bases = baseNumbers(20261128);
    const cells = [...generateCells({ seed: 20261128, count: 40_000, bases })].map((c) => [c.cell, c.defaultCountry] as [string, CountryCode | undefined]);
    const result = compare(cells);
    expect(result.differences).toEqual([]);
    // Many cells of the corpus are plain; most others (dots, brackets, other scripts) are the library's.
    expect(result.answered).toBeGreaterThan(result.cells * 0.15);
  });

  it('random digits in the shapes lists are made of, under twelve default countries', () => {
    const result = compare(randomCells(7, 60_000));
    expect(result.differences).toEqual([]);
    expect(result.answered).toBeGreaterThan(5_000);
  });

  it('answers for the cells lists are made of, exactly as the library reads them', () => {
    for (const [country, cells] of Object.entries(READ_QUICKLY)) {
      for (const cell of cells) {
        const dc = country === 'none' ? undefined : (country as CountryCode);
        const mine = quick.parse(cell, dc);
        expect(mine, `${cell} (${country})`).toBeTruthy();
        expect(fields(mine!), `${cell} (${country})`).toEqual(fields(library(cell, dc) as PhoneNumber));
      }
    }
    // A calling code of several countries: the number's own, as the library picks it.
    expect(quick.parse('416-555-0199', 'US')?.country).toBe('CA');
    expect(quick.parse('+1 242 357 1234', undefined)?.country).toBe('BS');
    expect(quick.parse('01534 123456', 'GB')?.country).toBe('JE');
    // Read to the end, and not valid: the library reads the same number, not valid.
    expect(quick.parse('98765 4321', 'IN')).toBeNull();
    expect((library('98765 4321', 'IN') as PhoneNumber).isValid()).toBe(false);
  });

  it('leaves every other cell to the library', () => {
    for (const [country, cells] of Object.entries(LEFT_TO_THE_LIBRARY)) {
      for (const cell of cells) expect(quick.parse(cell, country === 'none' ? undefined : (country as CountryCode)), `${cell} (${country})`).toBeUndefined();
    }
  });
});
