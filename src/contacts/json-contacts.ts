/**
 * `--contacts FILE.json`: an array of {phone_number, name, country, extra} checked
 * exactly like a spreadsheet's rows (the same phone rules, duplicates, report), where the
 * "row" of item i is i + 1 and messages call it "item N". An item's `country` is read as
 * a spreadsheet's country column is: that item's default country.
 */
import { stat } from 'node:fs/promises';
import { readUserText, userFileReason } from '../util/user-file.js';
import { basename } from 'node:path';
import { UsageError } from '../errors.js';
import { JsonTooDeepError, parseJsonWithin } from '../util/json-depth.js';
import { createRowCheck, isE164, resolveDefaultCountry, type Report, type RowError, type DuplicateRow } from './index.js';
import { CountryCells } from './country-cell.js';
import { isObject } from '../util/is-object.js';

export interface JsonContact {
  /** The item's number in the array, from 1. */
  row: number;
  phone_number: string;
  name?: string;
  extra?: unknown;
}

export interface JsonValidation {
  report: Report;
  contacts: JsonContact[];
}

export interface JsonOptions {
  defaultCountry?: string;
  keepDuplicates?: boolean;
  /** Stops reading the file (Ctrl-C). */
  signal?: AbortSignal;
}

export async function validateContactsJson(path: string, options: JsonOptions = {}): Promise<JsonValidation> {
  const items = await readItems(path, options.signal);
  // An item's `country` is its own default country, read as a spreadsheet's country column is.
  const check = createRowCheck(resolveDefaultCountry(options.defaultCountry));
  const countries = new CountryCells();
  const errors: RowError[] = [];
  const duplicateRows: DuplicateRow[] = [];
  const contacts: JsonContact[] = [];
  const firstRowOf = new Map<string, number>();
  let total = 0;
  items.forEach((item, i) => {
    const row = i + 1;
    total++;
    const fail = (column: string, value: unknown, message: string) => errors.push({ row, column, value: shown(value), message });
    if (!isObject(item)) {
      fail('', item, 'is not an object: each item is {"phone_number": "...", "name": "...", "extra": {...}}');
      return;
    }
    const r = item;
    const raw = r.phone_number;
    if (raw === undefined || raw === null) {
      const alias = ['phone', 'mobile', 'number', 'phoneNumber'].find((k) => r[k] !== undefined);
      fail('phone_number', '', `has no phone_number${alias ? ` (it has "${alias}": rename it to "phone_number")` : ''}`);
      return;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      fail('phone_number', raw, 'phone_number must be a string such as "+919876543210"');
      return;
    }
    if (r.name !== undefined && r.name !== null && typeof r.name !== 'string') {
      fail('name', r.name, 'name must be a string');
      return;
    }
    let country: string | undefined;
    if (r.country !== undefined && r.country !== null) {
      if (typeof r.country !== 'string' && typeof r.country !== 'number') {
        fail('country', r.country, 'country must be a string such as "US", "India" or "+91"');
        return;
      }
      const read = countries.read(String(r.country));
      if (read !== undefined && 'error' in read) {
        fail('country', r.country, read.error);
        return;
      }
      country = read?.country;
    }
    const result = check(String(raw), country);
    if (!isE164(result)) {
      fail('phone_number', raw, result);
      return;
    }
    const first = firstRowOf.get(result);
    if (first !== undefined) {
      duplicateRows.push({ row, first_row: first, phone_number: result });
      if (!options.keepDuplicates) return;
    } else {
      firstRowOf.set(result, row);
    }
    const contact: JsonContact = { row, phone_number: result };
    if (typeof r.name === 'string' && r.name.trim() !== '') contact.name = r.name.trim();
    if (r.extra !== undefined && r.extra !== null) contact.extra = r.extra;
    // The country goes with the contact, as a spreadsheet's country column does (in extra),
    // so that a redial reads a number the service returns as uploaded with it too.
    if (country !== undefined) contact.extra = withCountry(contact.extra, r.country as string | number);
    contacts.push(contact);
  });
  const invalid = errors.length;
  return {
    report: { total_rows: total, valid: total - invalid, invalid, duplicates: duplicateRows.length, errors, duplicate_rows: duplicateRows },
    contacts,
  };
}

/** The array itself, or the `contacts` array of an object (a body saved from --dry-run). */
async function readItems(path: string, signal?: AbortSignal): Promise<unknown[]> {
  const name = basename(path);
  let text: string;
  try {
    if ((await stat(path)).isDirectory()) throw new UsageError(`${path} is a directory, not a JSON file.`);
    text = await readUserText(path, { signal });
  } catch (err) {
    if (err instanceof UsageError || signal?.aborted) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`File not found: ${path}`, { hint: 'Check the path; it is read relative to the current directory.' });
    throw new UsageError(`Cannot read ${path}: ${userFileReason(err)}.`);
  }
  if (text.trim() === '') throw new UsageError(`${name} is empty.`, { hint: 'It should hold a JSON array: [{"phone_number": "+919876543210", "name": "Asha"}]' });
  let parsed: unknown;
  try {
    parsed = parseJsonWithin(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    if (err instanceof JsonTooDeepError) {
      throw new UsageError(`${name} cannot be used: ${err.message}.`, { hint: 'A contact\'s extra may hold any JSON, but not nested that deep.' });
    }
    throw new UsageError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
  if (Array.isArray(parsed)) return parsed;
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as { contacts?: unknown }).contacts)) {
    return (parsed as { contacts: unknown[] }).contacts;
  }
  throw new UsageError(`${name} does not hold an array of contacts.`, {
    hint: 'Write it as [{"phone_number": "+919876543210", "name": "Asha", "extra": {"city": "Pune"}}, ...], or use --csv for a spreadsheet.',
  });
}

/** `extra` with the item's country, unless it names one itself (or is not an object, which is sent as it is). */
function withCountry(extra: unknown, country: string | number): unknown {
  if (extra === undefined) return { country: String(country) };
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) return extra;
  if (Object.keys(extra).some((k) => k.toLowerCase() === 'country')) return extra;
  return { ...(extra as Record<string, unknown>), country: String(country) };
}

function shown(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
