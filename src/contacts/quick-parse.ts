/**
 * `parsePhoneNumberWithError(cell, { defaultCountry })` of libphonenumber-js for the cells
 * most lists are made of ("98765 43210", "+91 98765 43210", "098765-43210"), without the
 * library's text machinery.
 *
 * Why: profiling `contacts validate` put most of a row's time in the library's parse (its
 * character-by-character reading, option objects and regular expressions built per call),
 * for cells whose reading needs none of it. This class reads only a cell made of digits in
 * groups split by single spaces or dashes, optionally after "+", and follows the library's
 * steps for it (parse.js: the calling code after "+", else the default country; the
 * national prefix; the possible lengths; for a calling code of several countries, +1 or
 * +44, the country by leading digits or number type), with the same metadata. It answers
 * (a valid number, or that the library's number would not be valid) only where no rule it
 * does not follow could apply: an international dialing prefix ("00"), digits starting
 * with the default country's own calling code, or a national prefix rule that captures or
 * rewrites digits. Every other cell goes to the library; so does every number that is not
 * valid where a reason must be given (phone.ts).
 *
 * test/contacts/quick-parse.test.ts compares it with the library, field by field, over
 * numbers of every country written in many styles; the differential test
 * (scripts/phone-cells.js, `npm run differential`) compares the whole check.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/core';
import { remembered } from '../util/memo.js';
import { lpn, maxMetadata, phoneNumberOf, planMetadata, PlanValidity } from './validity.js';

/** What the library would ask of one country's numbering plan, compiled once. */
interface PlanFacts {
  country: CountryCode;
  code: string;
  /** Every country of the calling code, the main one first: the library picks the number's among them. */
  siblings: CountryCode[];
  /** The plan's leading digits at the start (a country sharing its calling code), or null. */
  leading: RegExp | null;
  /** The international dialing prefix at the start ("00" in India), or null. */
  idd: RegExp | null;
  /** The national prefix for parsing at the start ("0" in India), or null when the plan has none. */
  prefix: RegExp | null;
  /** The plan's possible lengths of a national number, or undefined when it lists none. */
  lengths: number[] | undefined;
}

/** A valid number as the library reads it: its country, calling code and national number. */
export interface QuickNumber {
  country: CountryCode;
  countryCallingCode: string;
  nationalNumber: string;
}

/** The longest run of digits read here: longer cells may be Excel's cut numbers (phone.ts), which the library path names. */
const MAX_DIGITS = 15;

export class QuickParse {
  private readonly plans = new Map<CountryCode, PlanFacts | null>();
  private readonly validity = new PlanValidity();

  /**
   * The PhoneNumber the library's parse returns for `raw`, when the cell is plain and its
   * number valid; null when the library reads it as a number that is not valid (or no
   * number); undefined when the library must read it.
   */
  parse(raw: string, defaultCountry: CountryCode | undefined): PhoneNumber | null | undefined {
    const read = this.read(raw, defaultCountry);
    return read ? phoneNumberOf(read) : read;
  }

  /** What parse() says, without building the library's PhoneNumber. */
  read(raw: string, defaultCountry: CountryCode | undefined): QuickNumber | null | undefined {
    const digits = plainDigits(raw);
    if (digits === undefined) return undefined;
    const plus = digits.charCodeAt(0) === 43;
    // The numbering plan the library selects: the calling code's main country after "+",
    // the default country otherwise.
    let facts: PlanFacts | null;
    let rest: string;
    if (plus) {
      // The library: calling codes never start with 0; the first 1 to 3 digits that are a calling code are it.
      if (digits.charCodeAt(1) === 48) return undefined;
      let i = 1;
      while (i <= 3 && maxMetadata.country_calling_codes[digits.slice(1, i + 1)] === undefined) i++;
      if (i > 3) return undefined;
      facts = this.facts(maxMetadata.country_calling_codes[digits.slice(1, i + 1)]![0] as CountryCode);
      rest = digits.slice(i + 1);
    } else {
      if (defaultCountry === undefined) return undefined;
      facts = this.facts(defaultCountry);
      // An international dialing prefix, or the country's own calling code without "+": rules of the library's not followed here.
      if (facts === null || facts.idd?.test(digits) || digits.startsWith(facts.code)) return undefined;
      rest = digits;
    }
    if (facts === null) return undefined;
    let nn = rest;
    if (facts.prefix !== null) {
      const m = facts.prefix.exec(rest);
      if (m !== null && m[0] !== '') {
        // A prefix rule with groups keeps a carrier code or rewrites the digits.
        if (m.length > 1) return undefined;
        const without = rest.slice(m[0].length);
        const keep = this.keepsPrefix(facts, rest, without);
        if (keep === undefined) return undefined;
        nn = keep ? rest : without;
      }
    }
    // The library: too short for a number.
    if (nn.length < 2) return null;
    // The number's country: one of the calling code's by its digits, else (national) the default country.
    const found = this.countryOf(facts, nn);
    const country = found === null ? undefined : found ?? (plus ? undefined : defaultCountry);
    if (country === undefined) return undefined;
    const valid = this.validity.validNational(country, nn);
    if (valid === undefined) return undefined;
    if (!valid) return null;
    return { country, countryCallingCode: facts.code, nationalNumber: nn };
  }

  /**
   * Whether the library keeps a national prefix it found (extractNationalNumber): when the
   * number matches the plan's general pattern with it and not without it, or when the
   * number without it is too short or of an impossible length in the country it belongs
   * to. Undefined when this class cannot tell.
   */
  private keepsPrefix(facts: PlanFacts, withPrefix: string, without: string): boolean | undefined {
    const before = this.validity.matchesGeneral(facts.country, withPrefix);
    const after = this.validity.matchesGeneral(facts.country, without);
    if (before === undefined || after === undefined) return undefined;
    if (before && !after) return true;
    if (facts.lengths === undefined) return false;
    const owner = this.countryOf(facts, without);
    if (owner === null) return undefined;
    const lengths = this.facts(owner ?? facts.country)?.lengths;
    if (lengths === undefined) return false;
    const n = without.length;
    return n < lengths[0]! || (n <= lengths[lengths.length - 1]! && !lengths.includes(n));
  }

  /**
   * The country of national number `nn` among those of the plan's calling code, as the
   * library's getCountryByNationalNumber picks it: the first, main one first, whose leading
   * digits start the number or, without leading digits, of whose number types it is one.
   * Undefined when none is (the library then keeps the default country, or none after
   * "+"); null when a plan has no per-type patterns or could not be read: the library decides those.
   */
  private countryOf(facts: PlanFacts, nn: string): CountryCode | undefined | null {
    const siblings = facts.siblings;
    if (siblings.length === 1) return facts.country;
    for (let i = 0; i < siblings.length; i++) {
      const country = siblings[i]!;
      const sibling = this.facts(country);
      if (sibling === null) return null;
      if (sibling.leading !== null) {
        if (sibling.leading.test(nn)) return country;
        continue;
      }
      const typed = this.validity.validNational(country, nn);
      if (typed === undefined) return null;
      if (typed) return country;
    }
    return undefined;
  }

  private facts(country: CountryCode): PlanFacts | null {
    return remembered(this.plans, country, compileFacts);
  }
}


/** One for the process: its caches hold only the metadata's compiled rules. */
const shared = new QuickParse();
const validity = new PlanValidity();

/** The library's valid reading of a plain cell (QuickParse), or undefined when the library must read it. */
export function quickParse(raw: string, defaultCountry: CountryCode | undefined): PhoneNumber | undefined {
  return shared.parse(raw, defaultCountry) ?? undefined;
}

/** quickParse() without the library's PhoneNumber, for callers that need only its parts. */
export function quickRead(raw: string, defaultCountry: CountryCode | undefined): QuickNumber | undefined {
  return shared.read(raw, defaultCountry) ?? undefined;
}

/**
 * `parsePhoneNumberFromString(text, { defaultCountry })` of the library when it reads a
 * valid number, undefined otherwise; without the library for a plain cell.
 */
export function validNumber(text: string, defaultCountry: CountryCode | undefined): PhoneNumber | undefined {
  const quick = shared.parse(text, defaultCountry);
  if (quick !== undefined) return quick ?? undefined;
  const phone = lpn.parsePhoneNumberFromString(text, { defaultCountry });
  return phone && validity.isValid(phone) ? phone : undefined;
}

/**
 * The cell's digits, with its "+" when it starts with one, when it is plain: digits in
 * groups split by one space or one dash, spaces around. Undefined otherwise.
 */
function plainDigits(raw: string): string | undefined {
  let start = 0;
  let end = raw.length;
  while (start < end && raw.charCodeAt(start) === 32) start++;
  while (end > start && raw.charCodeAt(end - 1) === 32) end--;
  const first = start;
  if (raw.charCodeAt(start) === 43) start++;
  let separated = true;
  let separators = 0;
  let count = 0;
  for (let k = start; k < end; k++) {
    const c = raw.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      count++;
      separated = false;
    } else if ((c === 32 || c === 45) && !separated) {
      separated = true;
      separators++;
    } else {
      return undefined;
    }
  }
  if (separated || count < 4 || count > MAX_DIGITS) return undefined;
  // One string made (every row of a file comes here), not one a digit.
  const text = raw.slice(first, end);
  return separators === 0 ? text : text.replace(SEPARATOR, '');
}

/** The separators plainDigits() allows between groups. */
const SEPARATOR = /[ -]/g;

function compileFacts(country: CountryCode): PlanFacts | null {
  const md = planMetadata(country);
  if (md === undefined) return null;
  try {
    const code = md.numberingPlan.callingCode();
    const idd = md.IDDPrefix();
    const prefix = md.nationalPrefixForParsing();
    const leading = md.leadingDigits();
    return {
      country,
      code,
      siblings: (maxMetadata.country_calling_codes[code] ?? [country]) as CountryCode[],
      idd: idd ? new RegExp(`^(?:${idd})`) : null,
      prefix: prefix ? new RegExp(`^(?:${prefix})`) : null,
      leading: leading ? new RegExp(`^(?:${leading})`) : null,
      lengths: md.possibleLengths(),
    };
  } catch {
    return null;
  }
}
