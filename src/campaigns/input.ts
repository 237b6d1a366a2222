/**
 * The contacts a `campaign create` sends, from --csv (a spreadsheet, through the same
 * validation as `contacts validate`) or --contacts (a JSON array). Local only: nothing
 * here sends a request.
 */
import { basename } from 'node:path';
import type { Report } from '../contacts/index.js';
import { UsageError } from '../errors.js';
import { readingArgs } from '../contacts/options.js';

export interface InputContact {
  /** Spreadsheet row (header = row 1), or the JSON item's number from 1. */
  row: number;
  phone_number: string;
  name?: string;
  extra?: unknown;
}

export interface ContactsInput {
  kind: 'csv' | 'json';
  path: string;
  fileName: string;
  report: Report;
  contacts: InputContact[];
  /** "row 9" for a spreadsheet, "item 3" for a JSON array. */
  where(row: number): string;
  /** Rows of a spreadsheet with control characters in a cell, in words (a warning). */
  controlWarning?: string;
  /** Numbers written in another country's national style (warnings). */
  styleWarnings?: string[];
  /** The spreadsheet's column holding each row's country, when it has one. */
  countryColumn?: string;
  /** Rows of a spreadsheet with a name column but no name, in words (a warning). */
  unnamedWarning?: string;
  /** The flags that read the file as this read did (readingArgs): every command a hint names carries them. */
  reading: string[];
}

export interface InputFlags {
  csv?: string;
  contacts?: string;
  defaultCountry?: string;
  phoneColumn?: string;
  nameColumn?: string;
  countryColumn?: string;
  sheet?: string;
  keepDuplicates?: boolean;
}

export async function readContactsInput(flags: InputFlags, defaultCountry: string | undefined, signal?: AbortSignal): Promise<ContactsInput> {
  if (flags.csv !== undefined && flags.contacts !== undefined) {
    throw new UsageError('Pass either --csv or --contacts, not both.');
  }
  if (flags.csv !== undefined) {
    // The spreadsheet readers (papaparse, read-excel-file, libphonenumber's full metadata) load only here.
    const [{ validateContactsFile }, { controlCharacterWarning, foreignStyleWarnings, unnamedWarning }] = await Promise.all([import('../contacts/index.js'), import('../contacts/report.js')]);
    const result = await validateContactsFile(flags.csv, {
      defaultCountry,
      phoneColumn: flags.phoneColumn,
      nameColumn: flags.nameColumn,
      countryColumn: flags.countryColumn,
      sheet: flags.sheet,
      keepDuplicates: flags.keepDuplicates,
      collectInvalidRows: false,
      signal,
    });
    return {
      kind: 'csv', path: flags.csv, fileName: basename(flags.csv), report: result.report, contacts: result.contacts, where: (row) => `row ${row}`,
      reading: readingArgs({ ...flags, defaultCountry }),
      controlWarning: controlCharacterWarning(basename(flags.csv), result),
      styleWarnings: foreignStyleWarnings(basename(flags.csv), result),
      unnamedWarning: unnamedWarning(basename(flags.csv), result),
      ...(result.countryColumn !== undefined ? { countryColumn: result.countryColumn } : {}),
    };
  }
  if (flags.contacts !== undefined) {
    if (flags.phoneColumn !== undefined || flags.nameColumn !== undefined || flags.sheet !== undefined || flags.countryColumn !== undefined) {
      throw new UsageError('--phone-column, --name-column, --country-column and --sheet apply to --csv; a --contacts JSON file uses the fields phone_number and name.');
    }
    const { validateContactsJson } = await import('../contacts/json-contacts.js');
    const result = await validateContactsJson(flags.contacts, { defaultCountry, keepDuplicates: flags.keepDuplicates, signal });
    if (result.report.total_rows === 0) throw new UsageError(`${basename(flags.contacts)} holds no contacts.`);
    return {
      kind: 'json', path: flags.contacts, fileName: basename(flags.contacts), report: result.report, contacts: result.contacts, where: (row) => `item ${row}`,
      reading: readingArgs({ defaultCountry, keepDuplicates: flags.keepDuplicates }),
    };
  }
  throw new UsageError('Say where the contacts are: --csv FILE (a spreadsheet: .csv or .xlsx) or --contacts FILE.json.');
}

/** The body's contact: phone_number, name when there is one, extra when it holds anything. */
export function toWire(c: InputContact): { phone_number: string; name?: string; extra?: unknown } {
  const out: { phone_number: string; name?: string; extra?: unknown } = { phone_number: c.phone_number };
  if (c.name !== undefined) out.name = c.name;
  if (c.extra !== undefined && !(isPlainObject(c.extra) && Object.keys(c.extra).length === 0)) out.extra = c.extra;
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
