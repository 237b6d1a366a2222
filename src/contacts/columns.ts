/**
 * Which column is the phone, which is the name, and what goes into `extra`: found from
 * the header row, or named with --phone-column and --name-column.
 *
 * A file `call export` wrote (it has call_id and phone_number columns) is read back as
 * the contacts it came from: phone_number and contact_name, the `extra.<key>` columns
 * and `extra_json` back into `extra` under their own keys, and the call's own fields
 * (status, outcome, summary, times ...) left out. See docs/export.md.
 */
import { UsageError } from '../errors.js';

/** The header row has no phone column (or not the one --phone-column names): a workbook's reader names the sheets that do. */
export class NoPhoneColumn extends UsageError {}

/** Header names of the phone column, most specific first (compared after normalizeHeader). */
const PHONE_HEADERS = ['phone', 'phonenumber', 'mobile', 'mobilenumber', 'number', 'contact', 'msisdn', 'whatsapp'];
/** One column with the whole name, as CRMs head it ("Customer Name", "Lead Name" ...), most specific first. */
const NAME_HEADERS = ['name', 'fullname', 'contactname', 'customername', 'leadname', 'clientname', 'customer'];
const FIRST_NAME_HEADERS = ['firstname', 'givenname', 'fname'];
const LAST_NAME_HEADERS = ['lastname', 'surname', 'familyname', 'lname'];
/** The row's country: "Country", "Country Code", "country_code", "ISO" (compared after normalizeHeader). */
const COUNTRY_HEADERS = ['country', 'countrycode', 'iso'];

export interface ColumnMap {
  /** The header row as written (trimmed). */
  headers: string[];
  phone: number;
  /** One column holding the whole name, or first and last name columns joined with a space. */
  name?: number;
  firstName?: number;
  lastName?: number;
  /** The row's country (a code, name or dial code), read as the default country of that row's number; it stays in `extra` too. */
  country?: number;
  /** Every other column, keyed by its header (made unique, never empty); `extra.<key>` columns by `<key>`. */
  extra: Array<{ index: number; key: string }>;
  /** An `extra_json` column: a JSON object merged into `extra` (or the whole `extra` when it is not an object). */
  extraJson?: number;
  /** The file is a `call export`: values it escaped against formulas are unescaped. */
  fromExport: boolean;
}

/** Column prefix and catch-all column `call export` writes a contact's `extra` into. */
const EXTRA_PREFIX = 'extra.';
const EXTRA_JSON = 'extra_json';

export interface ColumnOptions {
  phoneColumn?: string;
  nameColumn?: string;
  countryColumn?: string;
}

/** Case, spaces, underscores (and hyphens and dots) do not matter: "Mobile_Number" = "mobile number". */
export function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/[\s_.\-]+/g, '');
}

export function mapColumns(rawHeaders: string[], options: ColumnOptions, fileName: string): ColumnMap {
  const headers = rawHeaders.map((h) => h.replace(/^\uFEFF/, '').trim());
  const norm = headers.map(normalizeHeader);
  const listed = headers.filter((h) => h !== '').map((h) => JSON.stringify(h)).join(', ') || '(none)';

  // call_id is the call's own id: only an export of calls has it beside phone_number.
  const fromExport = headers.includes('call_id') && headers.includes('phone_number');
  let phone: number;
  if (options.phoneColumn !== undefined) {
    phone = findNamed(headers, norm, options.phoneColumn);
    if (phone === -1) {
      throw new NoPhoneColumn(`${fileName} has no column "${options.phoneColumn}" (from --phone-column). Headers found: ${listed}.`);
    }
  } else if (fromExport) {
    phone = headers.indexOf('phone_number');
  } else {
    phone = findFirst(norm, PHONE_HEADERS);
    if (phone === -1) {
      throw new NoPhoneColumn(`${fileName} has no phone column. Headers found: ${listed}.`, {
        hint: 'Name the column "phone" (or mobile, phone number, whatsapp, msisdn ...), or pass --phone-column "<header>".',
      });
    }
  }

  /** The column a flag names: exit 2 when there is none, or when it is the phone column. */
  const named = (flag: string, value: string): number => {
    const i = findNamed(headers, norm, value);
    if (i === -1) throw new UsageError(`${fileName} has no column "${value}" (from ${flag}). Headers found: ${listed}.`);
    if (i === phone) throw new UsageError(`${flag} "${value}" is the phone column.`);
    return i;
  };

  let name: number | undefined;
  let firstName: number | undefined;
  let lastName: number | undefined;
  if (options.nameColumn !== undefined) {
    name = named('--name-column', options.nameColumn);
  } else if (fromExport) {
    const i = headers.indexOf('contact_name');
    if (i !== -1 && i !== phone) name = i;
  } else {
    const i = findFirst(norm, NAME_HEADERS, phone);
    if (i !== -1) name = i;
    else {
      const f = findFirst(norm, FIRST_NAME_HEADERS, phone);
      const l = findFirst(norm, LAST_NAME_HEADERS, phone);
      if (f !== -1) firstName = f;
      if (l !== -1) lastName = l;
    }
  }

  let country: number | undefined;
  if (options.countryColumn !== undefined) {
    country = named('--country-column', options.countryColumn);
  } else if (!fromExport) {
    const i = findFirst(norm, COUNTRY_HEADERS, phone);
    if (i !== -1 && i !== name && i !== firstName && i !== lastName) country = i;
  }

  const used = new Set([phone, name, firstName, lastName].filter((i): i is number => i !== undefined));
  const keys = new Set<string>();
  const extra: ColumnMap['extra'] = [];
  let extraJson: number | undefined;
  headers.forEach((h, index) => {
    if (used.has(index)) return;
    if (h === EXTRA_JSON && extraJson === undefined) {
      extraJson = index;
      return;
    }
    // In an export even an empty key ("extra.") is the contact's; elsewhere it names nothing.
    const own = h.startsWith(EXTRA_PREFIX) && (fromExport || h.length > EXTRA_PREFIX.length) ? h.slice(EXTRA_PREFIX.length) : undefined;
    // The call's own fields and any other column of an export are not the contact's data.
    if (fromExport && own === undefined) return;
    const base = own ?? (h === '' ? `column_${index + 1}` : h);
    let key = base;
    for (let n = 2; keys.has(key); n++) key = `${base}_${n}`;
    keys.add(key);
    extra.push({ index, key });
  });
  return { headers, phone, name, firstName, lastName, country, extra, extraJson, fromExport };
}

/** The exact header first, then the same header up to case, spaces and underscores. */
function findNamed(headers: string[], norm: string[], wanted: string): number {
  const exact = headers.indexOf(wanted.trim());
  if (exact !== -1) return exact;
  return norm.indexOf(normalizeHeader(wanted));
}

function findFirst(norm: string[], candidates: string[], skip = -1): number {
  for (const c of candidates) {
    const i = norm.findIndex((n, idx) => n === c && idx !== skip);
    if (i !== -1) return i;
  }
  return -1;
}

/** The contact's name from its cells, or undefined when the cells are empty. */
export function nameOf(map: ColumnMap, cells: string[]): string | undefined {
  if (map.name !== undefined) return cellOf(map, cells, map.name) || undefined;
  const first = map.firstName === undefined ? '' : (cells[map.firstName] ?? '').trim();
  const last = map.lastName === undefined ? '' : (cells[map.lastName] ?? '').trim();
  return [first, last].filter(Boolean).join(' ') || undefined;
}

/**
 * The other columns keyed by header; empty cells are left out. Values are the text of
 * the cells, except what an export wrote as JSON: an `extra_json` object is merged in
 * with its JSON types, and in an export an `extra.<key>` cell holding a JSON object or
 * array is that object or array again. An `extra_json` that is not an object is the
 * whole `extra`, as the export wrote it.
 */
export function extraOf(map: ColumnMap, cells: string[]): unknown {
  const extra: Record<string, unknown> = {};
  for (const { index, key } of map.extra) {
    const v = cellOf(map, cells, index);
    if (v === '') continue;
    extra[key] = map.fromExport ? jsonContainer(v) ?? v : v;
  }
  if (map.extraJson === undefined) return extra;
  const raw = (cells[map.extraJson] ?? '').trim();
  if (raw === '') return extra;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // Not JSON (edited by hand, say): kept as it is rather than lost.
    return { ...extra, [EXTRA_JSON]: raw };
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [k, v] of Object.entries(parsed)) if (!(k in extra)) extra[k] = v;
    return extra;
  }
  return Object.keys(extra).length === 0 ? parsed : { ...extra, [EXTRA_JSON]: parsed };
}

/** A cell's trimmed text; in an export, without the quote it put before = + - @ against formulas. */
function cellOf(map: ColumnMap, cells: string[], index: number): string {
  const v = (cells[index] ?? '').trim();
  return map.fromExport && /^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v;
}

function jsonContainer(text: string): object | undefined {
  const c = text[0];
  if (c !== '{' && c !== '[') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}
