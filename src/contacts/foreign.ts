/**
 * Numbers written the way another country writes its own, without "+", in a row that has
 * no country of its own: refused rather than read with the default country, since the
 * library would read many of them as valid numbers of the default country and a campaign
 * would call a stranger there ("(646) 555-0143" under IN is the Indian landline
 * +916465550143). docs/contacts.md, "Numbers in another country's style", lists the rules.
 *
 * Two rules, both about the cell's groups of digits (a cell of bare digits has no style):
 * - North America: groups of 3, 3 and 4 digits (optionally after a lone "1"), the area
 *   code and the exchange starting with 2-9, under any default country outside +1,
 *   unless the default country writes that very number in those groups itself, with
 *   every digit (Italy's "312 345 6789"). Refused whether or not the default country
 *   would read it.
 * - India, the United Kingdom and the United Arab Emirates (with North America, the
 *   countries mixed lists come from most): a cell written exactly in one of their national
 *   groupings (with or without its national prefix), valid there, that the default
 *   country reads as valid but does not write in those groups ("07911 123456", a UK
 *   mobile, is "079 1112 3456" in India).
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { validNumber, type QuickNumber } from './quick-parse.js';
import { lpn, NationalFormats, type PlanValidity } from './validity.js';

/** Countries whose national styles are watched besides North America's (the corpus of the differential test). */
export const WATCHED: readonly CountryCode[] = ['IN', 'GB', 'AE'];
/**
 * The calling codes of the default countries the watched styles are refused under: the
 * watched countries' and North America's, where the library shows them colliding. Under
 * other defaults only the North American rule applies.
 */
const WATCHED_HOMES = new Set(['1', '91', '44', '971']);

/** The national formats, compiled once for every guard (the metadata does not change). */
const formats = new NationalFormats();

/** Longer cells are not one number in a national style. */
const MAX_CELL = 40;

export interface ForeignStyle {
  /** 'US' for the North American style (any +1 country), otherwise the watched country. */
  country: CountryCode;
  /** The number read as that country's (E.164), when it is valid there. */
  e164?: string;
}

/** The groups of digits of a cell written in a national style, or undefined (a "+", "00", letters, bare digits). */
export function digitGroups(raw: string): string[] | undefined {
  let start = 0;
  let end = raw.length;
  while (start < end && raw.charCodeAt(start) <= 32) start++;
  if (raw.charCodeAt(start) === 39 /* ' */) start++;
  while (start < end && (raw.charCodeAt(start) <= 32 || raw.charCodeAt(start) === 160)) start++;
  while (end > start && (raw.charCodeAt(end - 1) <= 32 || raw.charCodeAt(end - 1) === 160)) end--;
  if (end - start > MAX_CELL || end - start < 2) return undefined;
  // "00" starts an international number: not read with the default country.
  if (raw.charCodeAt(start) === 48 && raw.charCodeAt(start + 1) === 48) return undefined;
  const groups: string[] = [];
  let from = -1; // where the current group of digits starts
  for (let k = start; k < end; k++) {
    const c = raw.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      if (from === -1) from = k;
      continue;
    }
    // Spaces, brackets, dash, dot, slash; anything else ("+", "#", letters) is not a national style.
    if (c !== 32 && c !== 9 && c !== 160 && c !== 40 && c !== 41 && c !== 45 && c !== 46 && c !== 47) return undefined;
    if (from !== -1) groups.push(raw.slice(from, k));
    from = -1;
  }
  if (from !== -1) groups.push(raw.slice(from, end));
  return groups.length >= 2 ? groups : undefined;
}

/** Groups of 3, 3 and 4 digits, optionally after a lone "1", area code and exchange from 2-9. */
export function isNorthAmericanStyle(groups: string[]): boolean {
  const g = groups.length === 4 && groups[0] === '1' ? groups.slice(1) : groups;
  return g.length === 3 && g[0]!.length === 3 && g[1]!.length === 3 && g[2]!.length === 4
    && g[0]!.charCodeAt(0) >= 50 && g[1]!.charCodeAt(0) >= 50;
}

/** The guard for one default country; cheap for the cells it lets through (most of a file). */
export class ForeignStyleGuard {
  private readonly homeCode: string;
  private readonly watched: Array<{ country: CountryCode; code: string; prefix: string; maybe: (nn: string) => boolean }>;

  constructor(private readonly home: CountryCode, private readonly validity: PlanValidity) {
    this.homeCode = lpn.getCountryCallingCode(home);
    this.watched = !WATCHED_HOMES.has(this.homeCode) ? [] : WATCHED.filter((c) => lpn.getCountryCallingCode(c) !== this.homeCode).map((country) => {
      const code = lpn.getCountryCallingCode(country);
      // Every plan of the calling code: "07911 123456" is Guernsey's to the library, a UK style to people.
      const plans = lpn.countriesOfCode(code);
      const maybe = (nn: string) => {
        for (let i = 0; i < plans.length; i++) if (validity.isValidNational(plans[i]!, nn)) return true;
        return false;
      };
      return { country, code, prefix: lpn.nationalPrefix(country) ?? '', maybe };
    });
  }

  /**
   * Before the cell is read (`groups`: its digitGroups): the North American style under a default country outside +1.
   * Refused even when the default country would not read it, so the reason says what it is.
   */
  northAmerican(raw: string, groups: string[]): ForeignStyle | undefined {
    if (this.homeCode === '1' || !isNorthAmericanStyle(groups)) return undefined;
    const home = validNumber(raw, this.home);
    if (home && this.validity.isValid(home) && this.writes(home, groups, 'same digits')) return undefined;
    const us = validNumber(raw, 'US');
    return { country: 'US', e164: us && this.validity.isValid(us) ? us.number : undefined };
  }

  /**
   * After the cell was read as a valid number of the default country (`home`; the quick
   * reading's, whose PhoneNumber is made only when needed): a watched country's style.
   */
  watchedStyle(raw: string, home: PhoneNumber | QuickNumber, groups: string[]): ForeignStyle | undefined {
    const watched = this.watched;
    if (watched.length === 0) return undefined;
    const digits = groups.join('');
    let homeWrites: boolean | undefined;
    for (let i = 0; i < watched.length; i++) {
      const w = watched[i]!;
      // Cheap first: could the digits be a valid national number there at all?
      if (!w.maybe(digits)
        && !(w.prefix !== '' && digits.startsWith(w.prefix) && w.maybe(digits.slice(w.prefix.length)))
        && !(digits.startsWith(w.code) && w.maybe(digits.slice(w.code.length)))) continue;
      // What the default country writes so is its own, whoever else does too: asked once,
      // before another country's parse (most cells that get here are the default's own).
      homeWrites ??= this.writes(home, groups, 'loose');
      if (homeWrites) return undefined;
      const there = validNumber(raw, w.country);
      if (!there || there.countryCallingCode !== w.code || !this.validity.isValid(there) || !this.writes(there, groups, 'exact')) continue;
      return { country: w.country, e164: there.number };
    }
    return undefined;
  }

  /**
   * True when the national format of `phone` has the cell's groups: 'exact', with or
   * without its national prefix; 'same digits', exactly and with every digit of the
   * format (Italy's "312 345 6789", where "212-555-0198" is India's "0212 555 0198" only
   * with the prefix); 'loose', for the default country: groups its format splits further
   * count too ("022-23456789" is India's "022 2345 6789").
   */
  private writes(phone: PhoneNumber | QuickNumber, groups: string[], how: FormatFit): boolean {
    const written: number[] = [];
    let digits = 0;
    for (let i = 0; i < groups.length; i++) {
      if (i > 0) written.push(digits);
      digits += groups[i]!.length;
    }
    return fitsFormat(digitBreaks(formats.format(phone)), written, digits, how);
  }
}

/** How a cell's groups must match a national format's (ForeignStyleGuard.writes says). */
export type FormatFit = 'exact' | 'same digits' | 'loose';

/**
 * Whether a cell of `digits` digits, its groups breaking after `written` digits (increasing),
 * has the groups of a national format's `format`, with or without the format's leading
 * digits (a national prefix, up to 3). Compared in one pass, without arrays of the breaks
 * the cell should have (a row in four of a list comes here).
 */
export function fitsFormat(format: { at: number[]; digits: number }, written: readonly number[], digits: number, how: FormatFit): boolean {
  // The digits the cell leaves out (a national prefix): the format's breaks are that much further on.
  const shift = format.digits - digits;
  if (shift < 0 || shift > 3 || (how === 'same digits' && shift !== 0)) return false;
  const at = format.at;
  // The format's first break inside the cell.
  let j = 0;
  while (j < at.length && at[j]! - shift <= 0) j++;
  for (let i = 0; i < written.length; i++) {
    const b = written[i]!;
    if (how === 'loose') {
      // Any of the format's breaks; they increase, so the next one of the cell is at or after it.
      while (j < at.length && at[j]! - shift < b) j++;
      if (j === at.length || at[j]! - shift !== b) return false;
    } else if (j === at.length || at[j]! - shift !== b) {
      return false;
    } else {
      j++;
    }
  }
  return how === 'loose' || j === at.length;
}

/**
 * Where a text's groups of digits break, as digits before each break ("(646) 555-0143":
 * 3 and 6), and how many digits it has.
 */
export function digitBreaks(text: string): { at: number[]; digits: number } {
  const at: number[] = [];
  let digits = 0;
  let inDigits = false;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      if (!inDigits && digits > 0) at.push(digits);
      inDigits = true;
      digits++;
    } else {
      inDigits = false;
    }
  }
  return { at, digits };
}
