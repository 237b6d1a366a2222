/**
 * `PhoneNumber.isValid()` of libphonenumber-js, with each numbering plan's patterns
 * compiled once.
 *
 * Why: the library builds a `new RegExp` from the metadata's pattern text on every
 * check (helpers/matchesEntirely.js), and India's patterns run to kilobytes; profiling a
 * 1,000,000-row import put ~40% of the time there. This class asks the same questions of
 * the same metadata in the same way (getNumberType: the general pattern, then each type,
 * with their possible lengths; only whether one matches is asked, so the type that matched
 * last is tried first), so the answers are the library's;
 * test/contacts/validity.test.ts and the differential test (scripts/phone-cells.js,
 * `npm run differential`) compare the two over numbers from every country. It costs
 * ~10 ms per 50,000 numbers where isValid() costs ~700 ms (more than the parsing).
 * If the metadata ever has a shape this code does not know, it asks the library itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  getCountryCallingCode,
  isSupportedCountry,
  Metadata,
  ParseError,
  parsePhoneNumberFromString,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type MetadataJson,
  type NumberingPlan,
  PhoneNumber,
} from 'libphonenumber-js/core';
import { remembered } from '../util/memo.js';
import { requiredPackageFile } from '../util/package-path.js';

/**
 * libphonenumber-js with its full ("max") metadata, as `libphonenumber-js/max` binds it.
 * The build bundles the functions voicectl uses into the spreadsheet commands' chunk (from
 * node_modules they are a hundred small files, ~70 ms of a 10,000-row run and again in
 * every worker thread), and the metadata is read as JSON, which parses several times
 * faster than the same data as a JavaScript module.
 */
const metadataFile = requiredPackageFile(import.meta.url, 'libphonenumber-js', 'metadata.max.json');
export const maxMetadata = JSON.parse(readFileSync(metadataFile.path, 'utf8')) as MetadataJson;

/** The installed libphonenumber-js's version (whose metadata maxMetadata is), or undefined when unknown. */
export function libraryVersion(): string | undefined {
  if (metadataFile.manifest) return metadataFile.manifest.version;
  try {
    return (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('libphonenumber-js/package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

type ParseOptions = { defaultCountry?: CountryCode; extract?: boolean };

export const lpn = {
  ParseError,
  parsePhoneNumberWithError: (text: string, options: ParseOptions) => parsePhoneNumberWithError(text, options, maxMetadata),
  /** The same parse, undefined instead of a ParseError. */
  parsePhoneNumberFromString: (text: string, options: ParseOptions) => parsePhoneNumberFromString(text, options, maxMetadata),
  validatePhoneNumberLength: (text: string, options: ParseOptions) => validatePhoneNumberLength(text, options, maxMetadata),
  isSupportedCountry: (country: string) => isSupportedCountry(country as CountryCode, maxMetadata),
  getCountryCallingCode: (country: CountryCode) => getCountryCallingCode(country, maxMetadata),
  /** Every country the metadata has. */
  countries: () => Object.keys(maxMetadata.countries) as CountryCode[],
  /** The country's national (trunk) prefix, "0" in India, or undefined. */
  nationalPrefix: (country: CountryCode): string | undefined => planMetadata(country)?.numberingPlan.nationalPrefix() || undefined,
  /** The main country of a calling code ("1": US, "44": GB), or undefined when the code does not exist. */
  mainCountryOf: (code: string): CountryCode | undefined => (maxMetadata.country_calling_codes[code]?.[0] as CountryCode | undefined),
  /** Every country of a calling code, the main one first. */
  countriesOfCode: (code: string): CountryCode[] => [...(maxMetadata.country_calling_codes[code] ?? [])] as CountryCode[],
};

/** The number types getNumberType() tries, fixed line first. */
const TYPES = [
  'FIXED_LINE', 'MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST',
  'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL',
] as const;

interface TypeRule {
  /** The type's pattern, compiled when a number first gets this far (most are refused by the general pattern or a length). */
  pattern: string;
  re?: RegExp;
  lengths: number[] | undefined;
}

export interface Plan {
  /** The general pattern, compiled when a number of a possible length first comes. */
  generalPattern: string;
  general?: RegExp;
  /**
   * Every length a number of any of the plan's types has, when each type lists its own:
   * a number of another length is of no type, and no pattern is tried (a list with 245
   * countries' plans, such as the national-style scan, compiles few of them).
   */
  lengths: number[] | undefined;
  /** null: the plan has no per-type patterns, and the general pattern decides. */
  types: TypeRule[] | null;
  /** The type that matched last, tried first next time. */
  lastHit?: number;
}

/**
 * What voicectl reads of libphonenumber's Metadata with a numbering plan selected: the
 * library's own methods, most of which its typings leave out.
 */
export interface PlanMetadata {
  selectNumberingPlan(key: string): void;
  hasTypes(): boolean;
  nationalNumberPattern(): string;
  type(name: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
  formats(): FormatView[];
  IDDPrefix(): string | undefined;
  /** The national prefix for parsing, or the national prefix when the plan has none of its own. */
  nationalPrefixForParsing(): string | undefined;
  possibleLengths(): number[] | undefined;
  leadingDigits(): string | undefined;
  numberingPlan: NumberingPlan & { callingCode(): string; nationalPrefix(): string | undefined };
}

const PLAN_METHODS = ['hasTypes', 'nationalNumberPattern', 'type', 'formats', 'IDDPrefix', 'nationalPrefixForParsing', 'possibleLengths', 'leadingDigits'] as const;

/**
 * The metadata with the plan of `key` (a country, or a calling code) selected; undefined
 * when there is no such plan, or the library's Metadata is not of the shape this module
 * knows (its callers then leave the question to the library itself).
 */
export function planMetadata(key: string): PlanMetadata | undefined {
  try {
    const md = new Metadata(maxMetadata) as PlanMetadata;
    if (typeof md.selectNumberingPlan !== 'function') return undefined;
    md.selectNumberingPlan(key);
    for (const m of PLAN_METHODS) if (typeof md[m] !== 'function') return undefined;
    const plan = md.numberingPlan as Partial<PlanMetadata['numberingPlan']> | undefined;
    if (typeof plan?.callingCode !== 'function' || typeof plan.nationalPrefix !== 'function') return undefined;
    return md;
  } catch {
    return undefined;
  }
}

/**
 * Compiled plans, keyed like the library selects plans: country, or calling code when there
 * is none. One cache for the process (the metadata never changes), shared by every
 * PlanValidity: the quick reading, the guard, the national-style warning and the time zones
 * each keep one, and each used to compile the same plans again.
 */
const PLANS = new Map<string, Plan | null>();

export class PlanValidity {
  private plans = PLANS;

  isValid(phone: PhoneNumber): boolean {
    const plan = this.plan(phone.country || phone.countryCallingCode);
    if (plan === null) return phone.isValid();
    return matches(plan, phone.nationalNumber);
  }

  /**
   * Whether `nn`, taken as a national number of `country` as it stands, matches its plan:
   * a quick test before a parse (true when the plan could not be compiled: never a verdict).
   */
  isValidNational(country: CountryCode, nn: string): boolean {
    const plan = this.plan(country);
    return plan === null ? true : matches(plan, nn);
  }

  /**
   * The library's verdict on `nn` as a national number of `country` (getNumberType() gives
   * it a type), or undefined when the plan could not be compiled or has no per-type patterns.
   */
  validNational(country: CountryCode, nn: string): boolean | undefined {
    const plan = this.plan(country);
    return plan === null || plan.types === null ? undefined : matches(plan, nn);
  }

  /** Whether `nn` matches the plan's general pattern (the library's nationalNumberPattern()), or undefined when the plan could not be compiled. */
  matchesGeneral(country: CountryCode, nn: string): boolean | undefined {
    const plan = this.plan(country);
    return plan === null ? undefined : general(plan).test(nn);
  }

  private plan(key: string): Plan | null {
    return remembered(this.plans, key, compile);
  }
}

function matches(plan: Plan, nn: string): boolean {
  if (plan.lengths !== undefined && !plan.lengths.includes(nn.length)) return false;
  if (!general(plan).test(nn)) return false;
  if (plan.types === null) return true;
  // Whether any type matches (the answer does not depend on the order): the type that
  // matched last first, since a list's numbers are mostly of one type (mobiles), and a
  // mobile would otherwise be tried against the fixed-line pattern, India's kilobytes long, first.
  const types = plan.types;
  const last = plan.lastHit;
  if (last !== undefined && tryType(types[last]!, nn)) return true;
  for (let i = 0; i < types.length; i++) {
    if (i === last || !tryType(types[i]!, nn)) continue;
    plan.lastHit = i;
    return true;
  }
  return false;
}

function tryType(t: TypeRule, nn: string): boolean {
  if (t.lengths && !t.lengths.includes(nn.length)) return false;
  return (t.re ??= entire(t.pattern)).test(nn);
}

function general(plan: Plan): RegExp {
  return (plan.general ??= entire(plan.generalPattern));
}

function entire(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`);
}

/** The compiled patterns of one numbering plan, or null when the metadata is not as expected. Exported for tests. */
export function compile(key: string): Plan | null {
  try {
    const md = planMetadata(key);
    if (md === undefined) return null;
    const generalPattern = md.nationalNumberPattern();
    if (!md.hasTypes()) return { generalPattern, lengths: undefined, types: null };
    const types: TypeRule[] = [];
    for (const name of TYPES) {
      const t = md.type(name);
      const pattern = t?.pattern();
      if (!t || !pattern) continue;
      types.push({ pattern, lengths: t.possibleLengths() });
    }
    const lengths = new Set(types.flatMap((t) => t.lengths ?? []));
    return { generalPattern, lengths: types.every((t) => t.lengths !== undefined) ? [...lengths] : undefined, types };
  } catch {
    return null;
  }
}

/** A number as the quick reading (quick-parse.ts) has it, without the library's PhoneNumber. */
export interface NumberParts {
  country?: CountryCode;
  countryCallingCode: string;
  nationalNumber: string;
}

/** The library's PhoneNumber of a number's parts. */
export function phoneNumberOf(parts: NumberParts): PhoneNumber {
  const phone = new PhoneNumber(`+${parts.countryCallingCode}${parts.nationalNumber}`, maxMetadata);
  phone.country = parts.country;
  return phone;
}

/** One national format of a plan, its patterns compiled when the format is first tried. */
interface CompiledFormat {
  view: FormatView;
  /** The last leading-digits pattern, at the start of the number (the library's `search(...) === 0`); null: none. */
  leading?: RegExp | null;
  entire?: RegExp;
  pattern?: RegExp;
  /** The replacement the library uses for the national format, its national prefix rule applied. */
  replacement?: string;
}

/** What this module reads of a format in libphonenumber's Metadata. */
interface FormatView {
  pattern(): string;
  format(): string;
  leadingDigitsPatterns(): string[];
  nationalPrefixFormattingRule(): string | undefined;
}

const FIRST_GROUP = /(\$\d)/;

/**
 * `PhoneNumber.formatNational()` of libphonenumber-js, with each plan's formats compiled
 * once (each when it is first tried). The library builds a `new RegExp` from a format's pattern text for each format it
 * tries and again for the replacement, on every call; the foreign-style guard
 * (foreign.ts) formats many rows of a file, and profiling a 10,000-row `contacts
 * validate` put two thirds of the guard's time there. This class picks the format as the
 * library does (format.js, chooseFormatForNumber: the first whose last leading-digits
 * pattern matches at the start and whose pattern matches the whole number) and replaces
 * as it does (formatNationalNumberUsingFormat, with the national prefix rule), so the
 * text is the library's; test/contacts/validity.test.ts compares the two over numbers of
 * every country. A number with an extension, or metadata of a shape this code does not
 * know, is formatted by the library itself.
 */
/** Compiled national formats, one cache for the process like PLANS. */
const FORMATS = new Map<string, CompiledFormat[] | null>();

export class NationalFormats {
  private plans = FORMATS;

  /** `phone`: the library's PhoneNumber, or the parts of one (a quick reading's), made into one only if the library must format it. */
  format(phone: PhoneNumber | NumberParts): string {
    const key = phone.country && phone.country !== ('001' as CountryCode) ? phone.country : phone.countryCallingCode;
    const formats = remembered(this.plans, key, compileFormats);
    if (formats === null || ('ext' in phone && phone.ext)) return ('formatNational' in phone ? phone : phoneNumberOf(phone)).formatNational();
    const nn = phone.nationalNumber;
    if (!nn) return '';
    // Indexed: a row in four of a list comes here, and for...of makes an iterator's results.
    for (let i = 0; i < formats.length; i++) {
      const f = formats[i]!;
      if (f.leading === undefined) {
        const leading = f.view.leadingDigitsPatterns();
        f.leading = leading.length > 0 ? new RegExp(`^(?:${leading[leading.length - 1]})`) : null;
      }
      if (f.leading && !f.leading.test(nn)) continue;
      if (!(f.entire ??= entire(f.view.pattern())).test(nn)) continue;
      if (f.replacement === undefined) {
        const rule = f.view.nationalPrefixFormattingRule();
        f.replacement = rule ? f.view.format().replace(FIRST_GROUP, rule) : f.view.format();
      }
      return nn.replace((f.pattern ??= new RegExp(f.view.pattern())), f.replacement);
    }
    return nn;
  }
}

/** The national formats of one plan, compiled, or null when the metadata is not as expected. */
function compileFormats(key: string): CompiledFormat[] | null {
  try {
    // Compiled as each is first tried (format()): most numbers of a list match one of a few.
    return planMetadata(key)?.formats().map((view) => ({ view })) ?? null;
  } catch {
    return null;
  }
}
