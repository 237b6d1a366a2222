/**
 * What validation produces: the report object of CLI.md, the contacts to send, the bad
 * rows as the user wrote them, and the helpers campaign commands need on top (the
 * --errors-out CSV, the 10,000-contact limit and --split).
 */
import { FailureError, UsageError } from '../errors.js';
import { csvCell } from '../io/csv.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { grouped } from '../text/text.js';

export interface RowError {
  /** Spreadsheet row number: the header is row 1. */
  row: number;
  /** The header of the column at fault, as written in the file. */
  column: string;
  value: string;
  message: string;
}

export interface DuplicateRow {
  row: number;
  /** The earlier row with the same number, which is kept. */
  first_row: number;
  phone_number: string;
}

/**
 * CLI.md's report object. `valid + invalid = total_rows`; `duplicates` counts valid rows
 * whose number repeats an earlier row's, and `duplicate_rows` (an addition to CLI.md)
 * names them. Duplicates are not errors: the first row is kept, later ones are dropped
 * unless --keep-duplicates.
 */
export interface Report {
  total_rows: number;
  valid: number;
  invalid: number;
  duplicates: number;
  errors: RowError[];
  duplicate_rows: DuplicateRow[];
}

export interface Contact {
  row: number;
  phone_number: string;
  name?: string;
  /** The other columns by header; from a `call export`, the contact's `extra` as it was. */
  extra: unknown;
}

export interface InvalidRow {
  row: number;
  /** The row's cells exactly as read. */
  cells: string[];
  message: string;
}

export interface ValidationResult {
  report: Report;
  /** Valid contacts in file order; duplicates dropped unless keepDuplicates. */
  contacts: Contact[];
  /** Bad rows in file order (empty when collectInvalidRows was false). */
  invalidRows: InvalidRow[];
  /**
   * Rows (the first 100, in file order) with a control character (an escape sequence, a
   * bell) in a cell, and how many there are: not errors, but worth a warning, since the
   * file came from somewhere else.
   */
  controlRows: number[];
  controlRowCount: number;
  /** Rows (the first 10) whose name cells are empty in a file that has a name column, and how many there are. */
  unnamedRows?: number[];
  unnamedRowCount?: number;
  /** Numbers read with the default country but written the way another country writes its own. */
  foreignStyle?: ForeignStyle[];
  headers: string[];
  /** The header of the phone column, and of the name column(s) when there are. */
  phoneColumn: string;
  nameColumns: string[];
  /** The header of the column holding each row's country, when there is one. */
  countryColumn?: string;
  /** The CSV delimiter the file used (a comma for .xlsx). */
  delimiter: ',' | ';' | '\t';
}

/**
 * The warning for cells with control characters (escape sequences, a bell), or
 * undefined when there are none. They are the caller's data and are sent as they are,
 * but they are rarely meant, and the file came from somewhere else: say which rows.
 */
export function controlCharacterWarning(file: string, result: Pick<ValidationResult, 'controlRows' | 'controlRowCount'>): string | undefined {
  const n = result.controlRowCount;
  if (n === 0) return undefined;
  const rows = result.controlRows;
  const listed = rows.length < n ? `${rows.join(', ')} and ${grouped(n - rows.length)} more` : rows.join(', ');
  return `${file}: ${n === 1 ? 'row' : 'rows'} ${listed} ${n === 1 ? 'has' : 'have'} control characters (such as terminal escape sequences) in a cell. `
    + 'They are kept in what is sent; voicectl shows them escaped, as \\x1b, at a terminal.';
}

/** The warning for rows without a name in a file with a name column, or undefined. */
export function unnamedWarning(file: string, result: Pick<ValidationResult, 'unnamedRows' | 'unnamedRowCount'>): string | undefined {
  const n = result.unnamedRowCount ?? 0;
  if (n === 0) return undefined;
  const rows = result.unnamedRows ?? [];
  const listed = rows.length < n ? `${rows.join(', ')} and ${grouped(n - rows.length)} more` : rows.join(', ');
  return `${file}: ${n === 1 ? 'row' : 'rows'} ${listed} ${n === 1 ? 'has' : 'have'} no name, so ${n === 1 ? 'that contact is' : 'those contacts are'} sent without one.`;
}

/**
 * --strict (or the profile's strict setting): the warnings about a contacts file, and
 * what else a person should look at, as one error (exit 2). Each item is a short phrase.
 */
export function strictError(file: string, problems: string[]): UsageError {
  return new UsageError(`--strict: ${file} has ${problems.length === 1 ? 'a warning' : `${problems.length} warnings`}, which strict mode treats as errors: ${problems.join('; ')}.`, {
    code: 'strict',
    hint: 'Fix the file and run again, or leave out --strict (`voicectl config set strict false` turns the profile\'s setting off) to accept them as warnings.',
  });
}

export interface Country {
  code: string;
  name: string;
  /** Without "+": "91". */
  calling_code: string;
}

export interface ForeignStyle {
  /** The country, or the few countries that write numbers alike, most exact first. */
  countries: Country[];
  /** The default country they were read with. */
  home: Country;
  count: number;
  /** How many of them are valid numbers of the default country (and would be sent as such). */
  valid: number;
  /** The first rows. */
  rows: number[];
  example: string;
}

/**
 * The warnings for numbers written in another country's national style: how many, where,
 * what they were read as, and how to read them as that country's.
 */
export function foreignStyleWarnings(file: string, result: Pick<ValidationResult, 'foreignStyle'>): string[] {
  return (result.foreignStyle ?? []).map((f) => {
    const label = (c: Country) => `${c.name} (+${c.calling_code})`;
    const where = f.countries.slice(0, 3).map(label).join(' or ');
    const rows = `${f.count === 1 ? 'row' : 'rows'} ${f.rows.join(', ')}${f.count > f.rows.length ? ` and ${grouped(f.count - f.rows.length)} more` : ''}`;
    const home = label(f.home);
    const n = f.count;
    const read = f.valid === n
      ? `${n === 1 ? 'it was read as a number' : 'they were read as numbers'} of ${home}`
      : f.valid === 0 ? `${n === 1 ? 'it is not a valid number' : 'they are not valid numbers'} of ${home}`
        : `${grouped(f.valid)} of them were read as numbers of ${home}`;
    const first = f.countries[0]!;
    const them = n === 1 ? 'it' : 'them';
    return `${file}: ${grouped(n)} ${n === 1 ? 'number is' : 'numbers are'} written the way ${where} writes its own (such as "${f.example}", ${rows}), and ${read}. `
      + `If ${n === 1 ? 'it is a number' : 'they are numbers'} of ${first.name}, pass --default-country ${first.code} to read ${them} so, or write ${them} with +${first.calling_code} in front.`;
  });
}

/** The service takes at most this many contacts in one campaign (api-spec, Limits). */
export const MAX_CONTACTS_PER_CAMPAIGN = 10_000;

/** How many contacts a campaign gets from a file: its valid rows, less repeated numbers unless they are kept. */
export function contactsToSend(report: Pick<Report, 'valid' | 'duplicates'>, keepDuplicates = false): number {
  return keepDuplicates ? report.valid : report.valid - report.duplicates;
}

/** How many campaigns --split makes of `count` contacts. */
export function splitParts(count: number, max = MAX_CONTACTS_PER_CAMPAIGN): number {
  return Math.max(1, Math.ceil(count / max));
}

/** Throws when there are more contacts than one campaign takes, pointing at --split. */
export function assertCampaignSize(count: number, max = MAX_CONTACTS_PER_CAMPAIGN): void {
  if (count > max) {
    throw new UsageError(`The file has ${grouped(count)} valid contacts; a campaign takes at most ${grouped(max)}.`, {
      hint: `Pass --split to create ${Math.ceil(count / max)} campaigns named "NAME (1/${Math.ceil(count / max)})" and so on, or split the file.`,
    });
  }
}

/** Contacts in file order, cut into the fewest near-equal parts of at most `max`. */
export function splitContacts<T>(contacts: T[], max = MAX_CONTACTS_PER_CAMPAIGN): T[][] {
  if (contacts.length === 0) return [];
  const parts = Math.ceil(contacts.length / max);
  const out: T[][] = [];
  let start = 0;
  for (let p = 0; p < parts; p++) {
    const size = Math.ceil((contacts.length - start) / (parts - p));
    out.push(contacts.slice(start, start + size));
    start += size;
  }
  return out;
}

/** "Diwali offer (2/3)"; a single part keeps the name as it is. */
export function partName(name: string, index: number, parts: number): string {
  return parts <= 1 ? name : `${name} (${index + 1}/${parts})`;
}

/**
 * Writes every bad row as CSV: the original cells plus an `error` column, with the
 * file's own delimiter, a UTF-8 byte-order mark and CRLF so Excel opens it as it is.
 * Cells a spreadsheet would run as formulas are prefixed with a quote. The file is
 * written beside the target and renamed, so a failed write never leaves half a file.
 */
export async function writeErrorsCsv(path: string, result: Pick<ValidationResult, 'headers' | 'invalidRows' | 'delimiter'>): Promise<void> {
  const d = result.delimiter;
  let width = result.headers.length;
  for (const r of result.invalidRows) width = Math.max(width, r.cells.length);
  const header = [...result.headers];
  while (header.length < width) header.push('');
  const lines = [[...header, 'error'].map((c) => safeCell(c, d)).join(d)];
  for (const r of result.invalidRows) {
    const cells = [...r.cells];
    while (cells.length < width) cells.push('');
    lines.push([...cells, `row ${r.row}: ${r.message}`].map((c) => safeCell(c, d)).join(d));
  }
  try {
    await writeFileAtomic(path, `\uFEFF${lines.join('\r\n')}\r\n`);
  } catch (err) {
    throw new FailureError(`Could not write ${path}: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** Cells as the user wrote them: escaped as text, numbers included, for any of the three delimiters. */
function safeCell(value: string, delimiter: string): string {
  return csvCell(value, { delimiter, escapeNumbers: true });
}
