/**
 * The contacts a `campaign create` sends, from --csv (a spreadsheet, through the same
 * validation as `contacts validate`) or --contacts (a JSON array). Local only: nothing
 * here sends a request.
 */
import { basename } from 'node:path';
import type { Report } from '../contacts/index.js';
import { UsageError } from '../errors.js';
import { isObject } from '../util/is-object.js';
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

/**
 * Where the contacts are and how to read them. A verb maps its flags onto it with every
 * key written out, so a flag renamed in the verb's spec fails to compile where it is read.
 */
export interface ContactsSource {
  /** A spreadsheet (--csv). */
  csv: string | undefined;
  /** A JSON array of contacts (--contacts). */
  json: string | undefined;
  /** A spreadsheet's columns and sheet (--phone-column, --name-column, --country-column, --sheet): found by name when undefined. */
  columns: { phone: string | undefined; name: string | undefined; country: string | undefined; sheet: string | undefined };
  /** Keep rows whose number repeats an earlier row's (--keep-duplicates). */
  keepDuplicates: boolean;
}

/** A source with only a spreadsheet named: every column found by name, duplicates dropped. */
export function spreadsheetSource(csv: string): ContactsSource {
  return { csv, json: undefined, columns: { phone: undefined, name: undefined, country: undefined, sheet: undefined }, keepDuplicates: false };
}

export async function readContactsInput(source: ContactsSource, defaultCountry: string | undefined, signal?: AbortSignal): Promise<ContactsInput> {
  const { csv, json } = source;
  const { phone, name, country, sheet } = source.columns;
  if (csv !== undefined && json !== undefined) {
    throw new UsageError('Pass either --csv or --contacts, not both.');
  }
  if (csv !== undefined) {
    // The spreadsheet readers (papaparse, read-excel-file, libphonenumber's full metadata) load only here.
    const [{ validateContactsFile }, { controlCharacterWarning, foreignStyleWarnings, unnamedWarning }] = await Promise.all([import('../contacts/index.js'), import('../contacts/report.js')]);
    const result = await validateContactsFile(csv, {
      defaultCountry,
      phoneColumn: phone,
      nameColumn: name,
      countryColumn: country,
      sheet,
      keepDuplicates: source.keepDuplicates,
      collectInvalidRows: false,
      signal,
    });
    return {
      kind: 'csv', path: csv, fileName: basename(csv), report: result.report, contacts: result.contacts, where: (row) => `row ${row}`,
      reading: readingArgs({ defaultCountry, phoneColumn: phone, nameColumn: name, countryColumn: country, sheet, keepDuplicates: source.keepDuplicates }),
      controlWarning: controlCharacterWarning(basename(csv), result),
      styleWarnings: foreignStyleWarnings(basename(csv), result),
      unnamedWarning: unnamedWarning(basename(csv), result),
      ...(result.countryColumn !== undefined ? { countryColumn: result.countryColumn } : {}),
    };
  }
  if (json !== undefined) {
    if (phone !== undefined || name !== undefined || sheet !== undefined || country !== undefined) {
      throw new UsageError('--phone-column, --name-column, --country-column and --sheet apply to --csv; a --contacts JSON file uses the fields phone_number and name.');
    }
    const { validateContactsJson } = await import('../contacts/json-contacts.js');
    const result = await validateContactsJson(json, { defaultCountry, keepDuplicates: source.keepDuplicates, signal });
    if (result.report.total_rows === 0) throw new UsageError(`${basename(json)} holds no contacts.`);
    return {
      kind: 'json', path: json, fileName: basename(json), report: result.report, contacts: result.contacts, where: (row) => `item ${row}`,
      reading: readingArgs({ defaultCountry, keepDuplicates: source.keepDuplicates }),
    };
  }
  throw new UsageError('Say where the contacts are: --csv FILE (a spreadsheet: .csv or .xlsx) or --contacts FILE.json.');
}

/** The body's contact: phone_number, name when there is one, extra when it holds anything. */
export function toWire(c: InputContact): { phone_number: string; name?: string; extra?: unknown } {
  const out: { phone_number: string; name?: string; extra?: unknown } = { phone_number: c.phone_number };
  if (c.name !== undefined) out.name = c.name;
  if (c.extra !== undefined && !(isObject(c.extra) && Object.keys(c.extra).length === 0)) out.extra = c.extra;
  return out;
}
