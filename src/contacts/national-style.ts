/**
 * Numbers written the way another country writes its own numbers at home, such as
 * "(646) 555-0143" or "646-555-0143" (the United States) in a file read with
 * --default-country IN: the ten digits also make a valid Indian mobile number, which
 * would be dialled instead. A cell's style is its groups of digits ("(646) 555-0143" is
 * 3, 3, 4); a country writes that style when its national format of the number has the
 * same groups, with or without its national prefix ("098765 43210" and "98765-43210" are
 * both India's 5, 5). Each shape of cell is learnt once per file. Only cells without "+"
 * or "00" are read with the default country, so only they are looked at; a cell of bare
 * digits has no style.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { commonRank, countryName } from './country-names.js';
import type { Country } from './report.js';
import { digitBreaks, fitsFormat } from './foreign.js';
import { validNumber } from './quick-parse.js';
import { libraryVersion, lpn, NationalFormats, PlanValidity } from './validity.js';
import NATIONAL_DIGITS from './national-digits.json' with { type: 'json' };

const ANY_DIGIT = /[0-9]/g;
const SPACE_RUN = /[ \t\u00a0]+/g;

/** Shapes learnt per file: a bound, so a file of ragged cells costs at most this many lookups. */
const MAX_SHAPES = 200;
/** Shapes compared with each cell before one is made for it: a list's cells mostly have a few. */
const RECENT_SHAPES = 6;
/** Longer cells are not one number in a national style. */
const MAX_CELL = 40;

export class NationalStyle {
  private readonly shapes = new Map<string, CountryCode[]>();
  /** The shapes of the last cells, the latest first. */
  private readonly recent: string[] = [];
  private readonly validity = new PlanValidity();
  private readonly formats = new NationalFormats();

  /** `bounded`: a new shape's scan leaves out the countries whose numbers never have the cell's digits (false in tests only). */
  constructor(
    private readonly home: CountryCode,
    private readonly bounded = true,
  ) {}

  /**
   * The countries (one, or a few that write numbers alike) whose national style `raw` is
   * written in and reads as one of theirs, when the default country does not write it so.
   */
  countriesOf(raw: string): CountryCode[] | undefined {
    // One pass over the cell (every row of a large file comes here): its shape, or undefined.
    let start = 0;
    let end = raw.length;
    while (start < end && raw.charCodeAt(start) <= 32) start++;
    if (raw.charCodeAt(start) === 39 /* ' */) start++;
    while (start < end && raw.charCodeAt(start) <= 32) start++;
    while (end > start && raw.charCodeAt(end - 1) <= 32) end--;
    if (end - start > MAX_CELL || end - start < 2) return undefined;
    // "00" starts an international number: not read with the default country.
    if (raw.charCodeAt(start) === 48 && raw.charCodeAt(start + 1) === 48) return undefined;
    let groups = 0;
    let digits = 0;
    let inDigits = false;
    let inSpace = false;
    // Spaces other than one plain space between groups (a tab, a no-break space, two spaces), which the shape writes as one space.
    let oddSpaces = false;
    for (let k = start; k < end; k++) {
      const c = raw.charCodeAt(k);
      if (c >= 48 && c <= 57) {
        digits++;
        if (!inDigits) groups++;
        inDigits = true;
        inSpace = false;
        continue;
      }
      inDigits = false;
      if (c === 32 || c === 9 || c === 160) {
        if (inSpace || c !== 32) oddSpaces = true;
        inSpace = true;
        continue;
      }
      inSpace = false;
      // Brackets, dash, dot, slash; anything else ("+", letters) is not a national style.
      if (c !== 40 && c !== 41 && c !== 45 && c !== 46 && c !== 47) return undefined;
    }
    if (groups < 2) return undefined;
    // Each digit a "d", each run of spaces one space: "(646) 555-0143" is "(ddd) ddd-dddd".
    // Every row of a file comes here, and most have one of a few shapes: those met last
    // are compared with the cell character by character, and a shape is made only for
    // a cell of none of them.
    const shape = this.recentShape(raw, start, end) ?? this.shapeOf(raw.slice(start, end), oddSpaces);
    let candidates = this.shapes.get(shape);
    if (candidates !== undefined && candidates.length === 0) return undefined;
    const text = raw.slice(start, end);
    if (candidates === undefined) {
      if (this.shapes.size >= MAX_SHAPES) return undefined;
      const bounds = this.bounded ? digitBounds() : undefined;
      const mayWrite = (c: CountryCode) => {
        const b = bounds?.[c];
        return b === undefined || (digits >= b[0] && digits <= b[1]);
      };
      candidates = this.writes(this.home, text) ? [] : lpn.countries().filter((c) => c !== this.home && mayWrite(c) && this.writes(c, text));
      this.shapes.set(shape, candidates);
    }
    if (candidates.length === 0) return undefined;
    const found = candidates.filter((c) => this.writes(c, text));
    if (found.length === 0) return undefined;
    if (found.length === 1) return found;
    // A country whose format is exactly the cell ("(646) 555-0143") first, then the countries contact files come from most.
    const exact = (c: CountryCode) => this.formats.format(validNumber(text, c)!).replace(/\d/g, 'd').replace(/\s+/g, ' ') === shape;
    const rank = (c: CountryCode) => (exact(c) ? 0 : 1000) + commonRank(c);
    return found.sort((a, b) => rank(a) - rank(b));
  }

  /** The one of the recent shapes that is the cell's, moved to the front, or undefined. */
  private recentShape(raw: string, start: number, end: number): string | undefined {
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      const shape = recent[i]!;
      if (!isShapeOf(shape, raw, start, end)) continue;
      for (let j = i; j > 0; j--) recent[j] = recent[j - 1]!;
      recent[0] = shape;
      return shape;
    }
    return undefined;
  }

  /** A cell's shape, made (two strings, not one a character), and kept as the most recent. */
  private shapeOf(text: string, oddSpaces: boolean): string {
    const digitsOut = text.replace(ANY_DIGIT, 'd');
    const shape = oddSpaces ? digitsOut.replace(SPACE_RUN, ' ') : digitsOut;
    if (this.recent.length >= RECENT_SHAPES) this.recent.pop();
    this.recent.unshift(shape);
    return shape;
  }

  /** The country's name and calling code, for the warning; the default country without one. */
  describe(country: CountryCode = this.home): Country {
    return { code: country, name: countryName(country), calling_code: lpn.getCountryCallingCode(country) };
  }

  /**
   * True when `country` reads `text` as a valid number of its own, written in its national
   * groups; for the default country, loosely: groups its format splits further count too
   * ("022-23456789" is India's "022 2345 6789").
   */
  private writes(country: CountryCode, text: string): boolean {
    const phone = validNumber(text, country);
    if (!phone || phone.country !== country || !this.validity.isValid(phone)) return false;
    const written = digitBreaks(text);
    // The national prefix ("0" in India) may be written or left out.
    return fitsFormat(digitBreaks(this.formats.format(phone)), written.at, written.digits, country === this.home ? 'loose' : 'exact');
  }
}

/** Whether `raw` from `start` to `end` has `shape`: each digit a "d", each run of spaces one space, anything else itself. */
function isShapeOf(shape: string, raw: string, start: number, end: number): boolean {
  let j = 0;
  let inSpace = false;
  for (let k = start; k < end; k++) {
    const c = raw.charCodeAt(k);
    if (c === 32 || c === 9 || c === 160) {
      if (!inSpace && shape.charCodeAt(j++) !== 32) return false;
      inSpace = true;
      continue;
    }
    inSpace = false;
    if (shape.charCodeAt(j++) !== (c >= 48 && c <= 57 ? 100 : c)) return false;
  }
  return j === shape.length;
}

/** The bounds once read: null when they are not for the installed library. */
let knownBounds: Record<string, readonly number[]> | null | undefined;

/**
 * For each country, the fewest and most digits a cell it writes can have
 * (scripts/national-digits.js says why): a new shape's scan of 245 countries tries only
 * those whose bounds hold the cell's digits, 79 for "0 80 4332 8266", and so compiles
 * fewer plans (about 11 ms of a 10,000-row file). Worked out from the metadata of the
 * libphonenumber-js the file was written with: with another installed, every country is
 * tried (null).
 */
function digitBounds(): Record<string, readonly number[]> | undefined {
  knownBounds ??= NATIONAL_DIGITS['libphonenumber-js'] === libraryVersion() ? NATIONAL_DIGITS.bounds : null;
  return knownBounds ?? undefined;
}
