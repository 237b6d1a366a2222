/**
 * Phone numbers: E.164 normalization and validity with libphonenumber-js and its full
 * ("max") metadata, and for every number that fails a reason a person understands.
 * Results are strings: see e164.ts.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { countryName } from './country-names.js';
import { normalizeCountry, unknownCountry } from './country.js';
import type { PhoneCheck } from './e164.js';
import { digitGroups, ForeignStyleGuard, type ForeignStyle } from './foreign.js';
import { quickRead } from './quick-parse.js';
import { lpn, PlanValidity } from './validity.js';
import { noun } from '../text/text.js';

/** `9.19876E+11`: what Excel writes for a long number in a cell not formatted as text. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/;
/**
 * `9198765432101230000`: what a number cell holds once Excel has kept its 15 significant
 * digits and replaced the rest with zeros (no phone number has more than 15 digits).
 */
const EXCEL_CUT = /^([1-9]\d{14})(0+)$/;
/** Two numbers in one cell, as CRMs export them: "98765 43210 / 91234 56789". */
const TWO_NUMBERS = /\d[\d\s().-]{5,}\d\s*(?:[/,;|&]|\bor\b|\band\b)\s*\+?\d[\d\s().-]{5,}\d/i;

/** libphonenumber's MAX_INPUT_STRING_LENGTH: it refuses longer text as TOO_LONG. */
const MAX_PHONE_CELL_CHARS = 250;

/** Enough for the duplicates of a typical file; a bound, so a million-row file does not grow it. */
const CACHE_LIMIT = 10_000;

/** The country for numbers written without "+", upper-cased; a UsageError naming the flag when unknown. */
export function resolveDefaultCountry(value: string | undefined): string | undefined {
  const cc = normalizeCountry(value);
  if (cc !== undefined && !lpn.isSupportedCountry(cc)) throw unknownCountry(value!);
  return cc;
}

export interface CheckOptions {
  /**
   * The country is the row's own (a country column), not a default for the whole file:
   * the cell is read with it exactly as the library reads it, with no guard against
   * another country's style (foreign.ts).
   */
  rowCountry?: boolean;
}

/**
 * A checker for one run. Results are cached by the exact cell text, so repeated
 * numbers (duplicates, test rows) are parsed once; the answer is the same either way.
 */
export function createPhoneCheck(defaultCountry?: string, options: CheckOptions = {}): PhoneCheck {
  const country = defaultCountry as CountryCode | undefined;
  const validity = new PlanValidity();
  const guard = country !== undefined && !options.rowCountry ? new ForeignStyleGuard(country, validity) : undefined;
  const cache = new Map<string, string>();
  return (raw) => {
    let result = cache.get(raw);
    if (result === undefined) {
      result = checkPhone(raw, country, validity, guard);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(raw, result);
    }
    return result;
  };
}

/** A check of one cell with its row's country (a country column), or the default country when the row has none. */
export type RowCheck = (raw: string, rowCountry: string | undefined) => string;

/** createPhoneCheck per country: the default's (guarded against other countries' styles), and one per row country met. */
export function createRowCheck(defaultCountry?: string): RowCheck {
  const fallback = createPhoneCheck(defaultCountry);
  const byCountry = new Map<string, PhoneCheck>();
  return (raw, rowCountry) => {
    if (rowCountry === undefined) return fallback(raw);
    let check = byCountry.get(rowCountry);
    if (check === undefined) byCountry.set(rowCountry, (check = createPhoneCheck(rowCountry, { rowCountry: true })));
    return check(raw);
  };
}

/**
 * The number as libphonenumber reads it: for a cell holding one number and no words,
 * exactly the verdict and E.164 of `parsePhoneNumberFromString(cell, { defaultCountry })`
 * with the full metadata, which finds the number inside stray punctuation, brackets and
 * the spaces it knows. voicectl refuses three kinds of cell the library would read,
 * because a campaign cannot dial what they mean (docs/contacts.md, "Where voicectl and
 * libphonenumber differ"): words, an extension, and two numbers. `validity` may be
 * shared between calls.
 */
export function checkPhone(raw: string, defaultCountry?: CountryCode, validity: PlanValidity = new PlanValidity(), guard?: ForeignStyleGuard): string {
  const text = cleanCell(raw);
  if (text === '') return 'phone number is empty';
  // The library reads at most 250 characters and calls anything longer too long; the
  // patterns below would take quadratic time (and overflow the stack) on megabytes.
  if (text.length > MAX_PHONE_CELL_CHARS) return hasWords(text) ? 'not a phone number (it contains letters)' : 'too long to be a phone number';
  if (SCIENTIFIC.test(text)) {
    return `Excel turned this number into scientific notation (${text}), so its last digits are lost: format the phone column as Text and export the file again`;
  }
  const cut = EXCEL_CUT.exec(text);
  if (cut) {
    return `Excel cut this number: a number cell keeps 15 significant digits and turns the rest into zeros (${cut[1]} then ${cut[2]!.length} zeros), so its last digits are lost: format the phone column as Text, enter the numbers again and export the file again`;
  }
  // The library would pick "98765 43210" out of "call 98765 43210 after 6pm"; a person
  // should decide what such a cell means.
  if (hasWords(text)) return wordsReason(text, defaultCountry);
  // The cell's groups of digits, found once for both of the guard's questions.
  const groups = guard ? digitGroups(raw) : undefined;
  const american = groups && guard!.northAmerican(raw, groups);
  if (american) return foreignReason(american, defaultCountry!);
  // A plain cell of a valid number, read as the library reads it (quick-parse.ts): no
  // extension, one number. Its PhoneNumber is made only if the guard needs it.
  const quick = quickRead(raw, defaultCountry);
  let phone: PhoneNumber | undefined;
  if (quick === undefined) {
    try {
      // The raw cell, as the library is given it: its own extraction decides where the number starts and ends.
      phone = lpn.parsePhoneNumberWithError(raw, { defaultCountry });
    } catch (err) {
      if (err instanceof lpn.ParseError) return unreadable(text) ?? parseFailure(err.message, text, defaultCountry);
      throw err;
    }
    if (!validity.isValid(phone)) return unreadable(text) ?? invalidReason(text, phone, defaultCountry);
    if (phone.ext) return `has an extension (ext. ${phone.ext}), which a campaign cannot dial: remove it`;
    if (holdsTwoNumbers(text, defaultCountry, validity)) return TWO_NUMBERS_REASON;
  }
  const number = phone ? phone.number : `+${quick!.countryCallingCode}${quick!.nationalNumber}`;
  const foreign = groups && guard!.watchedStyle(raw, phone ?? quick!, groups);
  if (foreign) return foreignReason(foreign, defaultCountry!, number);
  return number;
}

/**
 * Why a number in another country's style is refused (each starts as isForeignStyleReason in e164.ts expects), and the two ways to fix it: "+"
 * and that country's code, or a country column; and what a number of the default country needs.
 */
function foreignReason(foreign: ForeignStyle, home: CountryCode, readAsHome?: string): string {
  const code = lpn.getCountryCallingCode(foreign.country);
  const asThere = foreign.e164 ? ` (${foreign.e164})` : '';
  const what = foreign.country === 'US'
    ? 'looks like a US/Canada number (the North American style, without +1)'
    : `is written the way ${countryLabel(foreign.country)} writes its numbers`;
  const notRead = readAsHome ? `it was not read as ${countryName(home)}'s ${readAsHome}` : `it was not read as a number of ${countryLabel(home)}`;
  return `${what}, so ${notRead}: write it with +${code}${asThere}, or give the row its country in a country column; a number of ${countryName(home)} needs +${lpn.getCountryCallingCode(home)}`;
}

/**
 * Letters, other than the one the library reads as a dash (U+30FC, the katakana
 * prolonged sound mark, which Unicode counts as a letter).
 */
const WORDS = /[^\P{L}\u30fc]/u;

function hasWords(text: string): boolean {
  return WORDS.test(text);
}

function wordsReason(text: string, defaultCountry: CountryCode | undefined): string {
  if (TWO_NUMBERS.test(text)) return TWO_NUMBERS_REASON;
  const found = /\d/.test(text) ? lpn.parsePhoneNumberFromString(text, { defaultCountry }) : undefined;
  if (found?.ext) return `has an extension (ext. ${found.ext}), which a campaign cannot dial: remove it`;
  if (found?.isValid()) return `has words besides the number: keep only the number (${found.number}) in the cell`;
  return 'not a phone number (it contains letters)';
}

const TWO_NUMBERS_REASON = 'holds more than one number: put one number in the cell';
/**
 * What people put between two numbers in one cell. A slash only with spaces around it:
 * "030/1234567" and "49 1512/3456789" are one German number each, written the German way.
 */
const SEPARATORS = /\s[/\uff0f]\s|[,;|&]/;

/**
 * True when the cell splits at a separator into two or more parts that are each a valid
 * number on their own ("98765 43210 / 022 2345 6789"). The library may read the digits of
 * both as one number when they happen to add up to a valid length.
 */
function holdsTwoNumbers(text: string, defaultCountry: CountryCode | undefined, validity: PlanValidity = new PlanValidity()): boolean {
  if (!SEPARATORS.test(text)) return false;
  let numbers = 0;
  for (const part of text.split(SEPARATORS)) {
    if (!/\d/.test(part)) continue;
    const phone = lpn.parsePhoneNumberFromString(part, { defaultCountry });
    if (!phone || !validity.isValid(phone)) return false;
    numbers++;
  }
  return numbers >= 2;
}

/** Digits the library reads besides 0-9: fullwidth, Arabic-Indic and Persian. */
const READ_DIGITS = /[0-9\uff10-\uff19\u0660-\u0669\u06f0-\u06f9]/g;
/** Spaces the library does not read inside a number (it does read ordinary, no-break and ideographic ones). */
const UNREAD_SPACES = /[\u2000-\u200a\u202f\u205f]/;

/**
 * For a number the library refused: when the cause is a character it does not read, a
 * reason naming it, since the number may look right to the person who typed it.
 */
function unreadable(text: string): string | undefined {
  if (/\p{Nd}/u.test(text.replace(READ_DIGITS, ''))) {
    const script = /[\u0966-\u096f]/.test(text) ? 'Devanagari digits' : 'digits of a script';
    return `is written with ${script} that libphonenumber does not read: write the number with 0-9`;
  }
  if (UNREAD_SPACES.test(text)) {
    return 'contains a thin or narrow space, which libphonenumber does not read inside a number: use ordinary spaces';
  }
  return undefined;
}

/**
 * Trims the cell and drops one leading apostrophe: spreadsheet users type '+91… to keep
 * the "+", and voicectl's own --errors-out file writes it that way too. Only for the
 * checks above and for messages: the library skips such characters by itself.
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
      return TWO_NUMBERS.test(text) ? TWO_NUMBERS_REASON : 'too long to be a phone number';
    case 'INVALID_LENGTH':
      return `has the wrong number of digits${defaultCountry ? ` for ${countryLabel(defaultCountry)}` : ''}`;
    default:
      if (TWO_NUMBERS.test(text)) return TWO_NUMBERS_REASON;
      return 'not a phone number';
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
      return `too short for ${where}: ${digits} ${noun(digits, 'digit')} after the country code`;
    case 'TOO_LONG':
      if (TWO_NUMBERS.test(text)) return TWO_NUMBERS_REASON;
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
