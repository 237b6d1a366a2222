/**
 * Phone numbers: E.164 normalization and validity with libphonenumber-js and its full
 * ("max") metadata, and for every number that fails a reason a person understands.
 * Results are strings: see e164.ts.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { countryName } from './country-names.js';
import { normalizeCountry, unknownCountry } from './country.js';
import type { PhoneCheck } from './e164.js';
import { lpn, PlanValidity } from './validity.js';

/** `9.19876E+11`: what Excel writes for a long number in a cell not formatted as text. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/;
/** Two numbers in one cell, as CRMs export them: "98765 43210 / 91234 56789". */
const TWO_NUMBERS = /\d[\d\s().-]{5,}\d\s*(?:[/,;|&]|\bor\b|\band\b)\s*\+?\d[\d\s().-]{5,}\d/i;
const LETTERS = /\p{L}/u;

/** Enough for the duplicates of a typical file; a bound, so a million-row file does not grow it. */
const CACHE_LIMIT = 10_000;

/** The country for numbers written without "+", upper-cased; a UsageError naming the flag when unknown. */
export function resolveDefaultCountry(value: string | undefined): string | undefined {
  const cc = normalizeCountry(value);
  if (cc !== undefined && !lpn.isSupportedCountry(cc)) throw unknownCountry(value!);
  return cc;
}

/**
 * A checker for one run. Results are cached by the exact cell text, so repeated
 * numbers (duplicates, test rows) are parsed once; the answer is the same either way.
 */
export function createPhoneCheck(defaultCountry?: string): PhoneCheck {
  const country = defaultCountry as CountryCode | undefined;
  const validity = new PlanValidity();
  const cache = new Map<string, string>();
  return (raw) => {
    let result = cache.get(raw);
    if (result === undefined) {
      result = checkPhone(raw, country, validity);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(raw, result);
    }
    return result;
  };
}

/** The number as libphonenumber reads it; `validity` may be shared between calls. */
export function checkPhone(raw: string, defaultCountry?: CountryCode, validity: PlanValidity = new PlanValidity()): string {
  const text = cleanCell(raw);
  if (text === '') return 'phone number is empty';
  if (SCIENTIFIC.test(text)) {
    return `Excel turned this number into scientific notation (${text}), so its last digits are lost: format the phone column as Text and export the file again`;
  }
  let phone: PhoneNumber;
  try {
    // extract: false: the whole cell must be the number, so "call 98765 43210 after 6pm" is not silently read as a number.
    phone = lpn.parsePhoneNumberWithError(text, { defaultCountry, extract: false });
  } catch (err) {
    if (err instanceof lpn.ParseError) return parseFailure(err.message, text, defaultCountry);
    throw err;
  }
  if (!validity.isValid(phone)) return invalidReason(text, phone, defaultCountry);
  if (phone.ext) return `has an extension (ext. ${phone.ext}), which a campaign cannot dial: remove it`;
  return phone.number;
}

/**
 * Trims the cell and drops one leading apostrophe: spreadsheet users type '+91… to keep
 * the "+", and voicectl's own --errors-out file writes it that way too.
 */
function cleanCell(raw: string): string {
  let s = raw.trim();
  if (s.charCodeAt(0) === 39) s = s.slice(1).trim();
  return s;
}

function parseFailure(code: string, text: string, defaultCountry: CountryCode | undefined): string {
  switch (code) {
    case 'INVALID_COUNTRY':
      if (hasPlus(text)) return 'the country code after "+" does not exist';
      return 'has no country code: write it as +<country code><number>, or pass --default-country (for example --default-country IN)';
    case 'TOO_SHORT':
      return 'too short to be a phone number';
    case 'TOO_LONG':
      return TWO_NUMBERS.test(text) ? 'holds more than one number: put one number in the cell' : 'too long to be a phone number';
    case 'INVALID_LENGTH':
      return `has the wrong number of digits${defaultCountry ? ` for ${countryLabel(defaultCountry)}` : ''}`;
    default:
      if (TWO_NUMBERS.test(text)) return 'holds more than one number: put one number in the cell';
      return LETTERS.test(text) ? 'not a phone number (it contains letters)' : 'not a phone number';
  }
}

function invalidReason(text: string, phone: PhoneNumber, defaultCountry: CountryCode | undefined): string {
  const where = phone.country ? countryLabel(phone.country) : `country code +${phone.countryCallingCode}`;
  const digits = phone.nationalNumber.length;
  const foreignHint = !hasPlus(text) && defaultCountry
    ? '; a number from another country needs "+" and its country code'
    : '';
  switch (lpn.validatePhoneNumberLength(text, { defaultCountry })) {
    case 'TOO_SHORT':
      return `too short for ${where}: ${digits} digit${digits === 1 ? '' : 's'} after the country code`;
    case 'TOO_LONG':
      if (TWO_NUMBERS.test(text)) return 'holds more than one number: put one number in the cell';
      return `too long for ${where}: ${digits} digits after the country code${foreignHint}`;
    case 'INVALID_LENGTH':
      return `has the wrong number of digits for ${where} (${digits} after the country code)`;
    default:
      return `not a valid phone number ${phone.country ? 'in' : 'for'} ${where}${foreignHint}`;
  }
}

function hasPlus(text: string): boolean {
  return /^[+＋]/.test(text);
}

/** "India (+91)". */
export function countryLabel(country: CountryCode): string {
  return `${countryName(country)} (+${lpn.getCountryCallingCode(country)})`;
}
