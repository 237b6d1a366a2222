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

  it.each([
    ['98765 43210', 'IN', '+919876543210'],
    ['+91 98765 43210', 'IN', '+919876543210'],
    ['098765-43210', 'IN', '+919876543210'],
    ['+91-98765-43210', undefined, '+919876543210'],
    ['+971 50 123 4567', 'IN', '+971501234567'],
    ['030 1234567', 'DE', '+49301234567'],
    ['+1 212 555 0100', 'IN', '+12125550100'],
    ['416-555-0199', 'US', '+14165550199'],
    ['+44 20 7946 0958', 'IN', '+442079460958'],
    ['07911 123456', 'GB', '+447911123456'],
    ['07781 123456', 'GB', '+447781123456'],
  ] as const)('answers for %j under %s: %s', (cell, country, e164) => {
    const mine = quick.parse(cell, country);
    expect(mine?.number).toBe(e164);
    const theirs = library(cell, country) as PhoneNumber;
    expect(theirs.number).toBe(e164);
    expect(mine?.country).toBe(theirs.country);
  });

  it.each([
    ['416-555-0199', 'US', 'CA'],
    ['+1 242 357 1234', undefined, 'BS'],
    ['+44 1534 123456', 'IN', 'JE'],
    ['01534 123456', 'GB', 'JE'],
  ] as const)('picks the country of a shared calling code as the library does: %j (%s) is %s', (cell, country, where) => {
    expect(quick.parse(cell, country)?.country).toBe(where);
    expect((library(cell, country) as PhoneNumber).country).toBe(where);
  });

  it.each([
    ['0091 98765 43210', 'IN', 'an international dialing prefix'],
    ['919876543210', 'IN', "the default country's calling code without +"],
    ['(022) 2345 6789', 'IN', 'brackets'],
    ['98765.43210', 'IN', 'dots'],
    ['98765  43210', 'IN', 'two spaces'],
    ['98765 4321', 'IN', 'an invalid number'],
    ['98765 43210', undefined, 'no country'],
    ["'+91 98765 43210", 'IN', 'an apostrophe'],
    ['0 9876543210 0000000', 'IN', 'more digits than a number has'],
  ] as const)('leaves %j (%s) to the library: %s', (cell, country, _why) => {
    expect(quick.parse(cell, country)).toBeUndefined();
  });
});
