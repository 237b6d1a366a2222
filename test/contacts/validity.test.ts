import { describe, expect, it } from 'vitest';
import { getCountries, getCountryCallingCode, getExampleNumber, parsePhoneNumberWithError, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { compile, NationalFormats, PlanValidity } from '../../src/contacts/validity.js';

/** A small deterministic generator, so a failure names numbers that can be checked again. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The example's head with a random tail, from two digits shorter to two longer, so both valid and invalid numbers come up. */
function mutated(example: string, random: () => number): string {
  const keep = Math.floor(random() * example.length);
  let digits = example.slice(0, keep);
  const len = example.length + Math.floor(random() * 5) - 2;
  while (digits.length < len) digits += String(Math.floor(random() * 10));
  return digits;
}

/**
 * For every country, `perCountry` numbers made from its example by `mutated`, each read by
 * `read` (the country, its calling code, the digits, and which of the country's numbers it
 * is); a number the library cannot read is passed over.
 */
function* mutatedNumbers(random: () => number, perCountry: number, read: (country: CountryCode, cc: string, digits: string, i: number) => PhoneNumber): Generator<{ phone: PhoneNumber; country: CountryCode; cc: string; digits: string }> {
  for (const country of getCountries()) {
    const cc = getCountryCallingCode(country);
    const example = getExampleNumber(country, examples)?.nationalNumber ?? '2015550123';
    for (let i = 0; i < perCountry; i++) {
      const digits = mutated(example, random);
      let phone: PhoneNumber;
      try {
        phone = read(country, cc, digits, i);
      } catch {
        continue;
      }
      yield { phone, country, cc, digits };
    }
  }
}

describe('PlanValidity', () => {
  it('compiles the plans itself (a silent fall-back to the library would be correct but twice as slow)', () => {
    for (const key of ['IN', 'GB', 'US', 'AE', '800']) {
      const plan = compile(key);
      expect(plan, key).not.toBeNull();
      expect(new RegExp(`^(?:${plan!.generalPattern})$`).test('1'), key).toBe(false);
      expect(plan!.lengths!.length, key).toBeGreaterThan(0);
    }
    expect(compile('IN')!.types!.length).toBeGreaterThan(3);
  });

  it('answers exactly as PhoneNumber.isValid() for numbers from every country', () => {
    const random = rng(42);
    const validity = new PlanValidity();
    let compared = 0;
    let valid = 0;
    const mismatches: string[] = [];
    for (const { phone, cc, digits } of mutatedNumbers(random, 40, (_, cc, digits) => parsePhoneNumberWithError(`+${cc}${digits}`))) {
      compared++;
      const expected = phone.isValid();
      if (expected) valid++;
      if (validity.isValid(phone) !== expected) mismatches.push(`+${cc}${digits}`);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(5000);
    // The comparison means something only if both answers occur often.
    expect(valid).toBeGreaterThan(compared / 10);
    expect(compared - valid).toBeGreaterThan(compared / 5);
  });

  it('agrees on national, non-geographic and shared-calling-code numbers', () => {
    const validity = new PlanValidity();
    const samples: Array<[string, string | undefined]> = [
      ['098765 43210', 'IN'], ['0 80 2222 3333', 'IN'], ['1800 425 1234', 'IN'], ['98765', 'IN'],
      ['+1 415 555 2671', undefined], ['+1 555 555 5555', undefined], ['+44 7911 123456', undefined],
      ['+44 1624 756789', undefined], ['+800 1234 5678', undefined], ['+882 1234 5678', undefined],
      ['+7 701 123 4567', undefined], ['+7 912 345 6789', undefined], ['+61 4 1234 5678', undefined],
    ];
    for (const [text, country] of samples) {
      const phone = parsePhoneNumberWithError(text, country as never);
      expect(validity.isValid(phone), text).toBe(phone.isValid());
    }
  });
});

describe('NationalFormats', () => {
  it('formats exactly as PhoneNumber.formatNational() for numbers from every country, valid or not', () => {
    const random = rng(7);
    const formats = new NationalFormats();
    let compared = 0;
    const mismatches: string[] = [];
    // Read as an international number half of the time, as the country's own national one otherwise.
    const read = (country: CountryCode, cc: string, digits: string, i: number) => (i % 2 === 0 ? parsePhoneNumberWithError(`+${cc}${digits}`) : parsePhoneNumberWithError(digits, country));
    for (const { phone, country } of mutatedNumbers(random, 30, read)) {
      compared++;
      if (formats.format(phone) !== phone.formatNational()) mismatches.push(`${phone.number} (${country}): ${formats.format(phone)} / ${phone.formatNational()}`);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(5000);
  });

  it('formats the cells of a mixed list as the library does', () => {
    const formats = new NationalFormats();
    for (const [text, country] of [['098765 43210', 'IN'], ['0 80 2222 3333', 'IN'], ['(646) 555-0143', 'US'], ['07911 123456', 'GB'], ['050 123 4567', 'AE'], ['+800 1234 5678', undefined], ['+44 1624 756789', undefined]] as const) {
      const phone = parsePhoneNumberWithError(text, country as never);
      expect(formats.format(phone), text).toBe(phone.formatNational());
    }
  });
});
