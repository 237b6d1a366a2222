import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { checkPhone, countryLabel, createPhoneCheck } from '../../src/contacts/phone.js';
import { isE164 } from '../../src/contacts/e164.js';
import { resolveDefaultCountry } from '../../src/contacts/phone.js';
import { UsageError } from '../../src/errors.js';

/** libphonenumber-js's answer, as the tests below compare it: its E.164 when valid, else 'invalid'. */
function library(cell: string, country?: 'IN' | 'DE'): string {
  const phone = parsePhoneNumberFromString(cell, { defaultCountry: country });
  return phone?.isValid() ? phone.number : 'invalid';
}

/** Each number, and the ways a cell may write it under --default-country IN. */
const WRITTEN: Array<[e164: string, cells: string[]]> = [
  ['+919876543210', [
    '098765 43210', '+91-98765-43210', '9876543210', '91 98765 43210', '0091 98765 43210', '  +91 98765 43210  ',
    "'+91 98765 43210", // the apostrophe spreadsheets (and --errors-out) put before "+"
    '+91\u00a098765\u00a043210', '98765\u00a043210', // non-breaking spaces from a web page
    '(+91) 98 7654 3210', '(+91) 98765-43210', '＋91 98765 43210', // fullwidth plus
    '+٩١ ٩٨٧٦٥ ٤٣٢١٠', '+۹۱ ۹۸۷۶۵ ۴۳۲۱۰', '+９１ ９８７６５ ４３２１０', // Arabic-Indic, Persian and fullwidth digits
    '98765.43210', '98765/43210', '98765-43210', '-98765-43210-', '.98765 43210.', '(98765) 43210)', '#98765 43210', '*98765 43210', '9876543210,',
    '98765ー43210', // the one letter the library reads as a dash is no word
  ]],
  ['+918022223333', ['0 80 2222 3333']], // Bengaluru landline
  ['+912223456789', ['(022) 2345 6789', '+91 22 2345 6789']], // Mumbai landline
  ['+911123456789', ['011 2345 6789']], // Delhi landline
  ['+9118004251234', ['1800 425 1234']], // toll-free
  ['+442079460958', ['+44 20 7946 0958', '+44 (0)20 7946 0958', '0044 20 7946 0958']],
  ['+14155552671', ['+1 (415) 555-2671']],
  ['+18005550199', ['+1 800 555 0199']],
];

describe('checkPhone: valid numbers become E.164, as the library reads them', () => {
  it.each(WRITTEN.flatMap(([e164, cells]) => cells.map((cell) => [cell, e164])))('%j -> %s', (cell, e164) => {
    expect(library(cell, 'IN')).toBe(e164);
    expect(checkPhone(cell, 'IN')).toBe(e164);
  });

  it('reads numbers with "+" without a default country', () => {
    expect(checkPhone('+91 98765 43210')).toBe('+919876543210');
    expect(checkPhone('+65 8123 4567')).toBe('+6581234567');
  });
});

describe('checkPhone: a reason for every invalid number', () => {
  it.each([
    ['', 'phone number is empty'],
    ['   ', 'phone number is empty'],
    ['call me', 'not a phone number (it contains letters)'],
    ['---', 'not a phone number'],
    ['98765', 'too short for India (+91): 5 digits after the country code'],
    ['98765432101234', 'too long for India (+91): 14 digits after the country code; a number from another country needs "+" and its country code'],
    // Valid with the default ("min") metadata, not with the full metadata.
    ['056370 63157', 'not a valid phone number in India (+91); a number from another country needs "+" and its country code'],
    ['+44 7700 900123', 'not a valid phone number for country code +44'],
    ['+1 555 555 5555', 'not a valid phone number for country code +1'],
    ['+999 1234 5678', 'the country code after "+" does not exist'],
    ['98765 43210 / 91234 56780', 'holds more than one number: put one number in the cell'],
    ['+91 80 2222 3333 ext 12', 'has an extension (ext. 12), which a campaign cannot dial: remove it'],
  ])('%j', (raw, reason) => {
    const result = checkPhone(raw, 'IN');
    expect(isE164(result)).toBe(false);
    expect(result).toBe(reason);
  });

  it.each(['9.19876E+11', '9.19876e+11', '9,19876E+11', '9E+11', '+9.19876E+11'])('scientific notation %j: digits are lost', (raw) => {
    expect(checkPhone(raw, 'IN')).toBe(
      `Excel turned this number into scientific notation (${raw}), so its last digits are lost: format the phone column as Text and export the file again`,
    );
  });

  it.each([
    ['9198765432101230000', '919876543210123', 4],
    ['4915123456789010', '491512345678901', 1],
  ])('a number cell Excel cut to 15 significant digits, %j, is explained as Excel\'s doing', (raw, kept, zeros) => {
    expect(checkPhone(raw, 'IN')).toBe(
      `Excel cut this number: a number cell keeps 15 significant digits and turns the rest into zeros (${kept} then ${zeros} zeros), so its last digits are lost: format the phone column as Text, enter the numbers again and export the file again`,
    );
  });

  it('a cell of megabytes is too long at once, not a stack overflow', () => {
    expect(checkPhone('9'.repeat(4 * 1024 * 1024), 'IN')).toBe('too long to be a phone number');
    expect(checkPhone(`${'98765 43210 / '.repeat(300_000)}`, 'IN')).toBe('too long to be a phone number');
    expect(checkPhone(`call ${'9'.repeat(1_000_000)}`, 'IN')).toBe('not a phone number (it contains letters)');
  });

  it('without a default country, a number without "+" says to pass one', () => {
    expect(checkPhone('098765 43210')).toBe(
      'has no country code: write it as +<country code><number>, or pass --default-country (for example --default-country IN)',
    );
  });

  it('never returns a reason that could be mistaken for a number', () => {
    for (const raw of ['', 'x', '1', '+1', '+999', '12345678901234567890', '9.1E+11']) {
      const r = checkPhone(raw, 'IN');
      expect(isE164(r)).toBe(false);
    }
  });
});

describe('checkPhone: numbers the library finds invalid too', () => {
  it.each([
    ['९८७६५ ४३२१०', 'is written with Devanagari digits that libphonenumber does not read: write the number with 0-9'],
    ['+91 98765\u200943210', 'contains a thin or narrow space, which libphonenumber does not read inside a number: use ordinary spaces'],
    ['98765\u202f43210', 'contains a thin or narrow space, which libphonenumber does not read inside a number: use ordinary spaces'],
    ['++91 98765 43210', 'not a phone number'],
    ['call 98765 43210 after 6pm', 'not a phone number (it contains letters)'],
  ])('%j is invalid to the library too, with a reason naming the cause', (cell, reason) => {
    expect(library(cell, 'IN')).toBe('invalid');
    expect(checkPhone(cell, 'IN')).toBe(reason);
  });
});

describe('checkPhone: where voicectl refuses what the library reads (docs/contacts.md)', () => {
  const words = 'has words besides the number: keep only the number (+919876543210) in the cell';
  const extension = (n: number) => `has an extension (ext. ${n}), which a campaign cannot dial: remove it`;
  // Two numbers in one cell are refused even where their digits together make a valid number.
  it.each([
    ['Mob: 98765 43210', 'IN', '+919876543210', words],
    ['tel:+919876543210', undefined, '+919876543210', words],
    ['98765 43210 (home)', 'IN', '+919876543210', words],
    ['98765 43210#12', 'IN', '+919876543210', extension(12)],
    ['98765 43210;12', 'IN', '+919876543210', extension(12)],
    ['+91 80 2222 3333 x 7', 'IN', '+918022223333', extension(7)],
    ['030 1234 / 030 5678', 'DE', '+493012340305678', 'holds more than one number: put one number in the cell'],
  ] as const)('%j with default country %s: the library reads %s, voicectl says %j', (cell, country, read, reason) => {
    expect(library(cell, country)).toBe(read);
    expect(checkPhone(cell, country)).toBe(reason);
  });

  it('a slash inside one number, as Germans write it, is not a second number', () => {
    expect(checkPhone('030/1234567', 'DE')).toBe(library('030/1234567', 'DE'));
    expect(checkPhone('030/1234567', 'DE')).toBe('+49301234567');
  });
});

describe('createPhoneCheck', () => {
  it('gives the same answers as checkPhone, also for repeated cells', () => {
    const check = createPhoneCheck('IN');
    for (const raw of ['098765 43210', '98765', '098765 43210', 'abc', '98765']) {
      expect(check(raw)).toBe(checkPhone(raw, 'IN'));
    }
  });
});

describe('resolveDefaultCountry', () => {
  it('upper-cases known codes and passes undefined through', () => {
    expect(resolveDefaultCountry('in')).toBe('IN');
    expect(resolveDefaultCountry(' gb ')).toBe('GB');
    expect(resolveDefaultCountry(undefined)).toBeUndefined();
    expect(resolveDefaultCountry('')).toBeUndefined();
  });

  it('refuses codes libphonenumber does not know, naming the flag', () => {
    expect(() => resolveDefaultCountry('XX')).toThrow(UsageError);
    expect(() => resolveDefaultCountry('India')).toThrow(/not a country code/);
    try {
      resolveDefaultCountry('ZZ');
    } catch (err) {
      expect((err as UsageError).hint).toMatch(/--default-country IN/);
    }
  });

  it('labels countries with their name and calling code', () => {
    expect(countryLabel('IN')).toBe('India (+91)');
    expect(countryLabel('GB')).toBe('United Kingdom (+44)');
  });
});
