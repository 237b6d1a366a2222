/**
 * .xlsx workbooks, the first sheet or the one --sheet names, through read-excel-file: every cell becomes the text a
 * person sees, so a customer id stored as text stays "007" and a long number keeps all
 * its digits (numbers are taken as written in the file, not as floating point).
 *
 * The file is checked against zip bombs first (workbook-guard.ts), then read with
 * read-excel-file's universal build: it inflates from the zip's directory into buffers of
 * the declared sizes, where its Node build would follow the local headers unbounded.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import type { RecordSink } from './csv.js';
import type { Source } from './source.js';
import { shellQuote } from '../text/text.js';
import { mapColumns, NoPhoneColumn } from './columns.js';
import { checkWorkbook, MAX_WORKBOOK_INFLATED_BYTES } from './workbook-guard.js';

export interface SheetOptions {
  /** --sheet: a sheet's name, or its number from 1 (a name that is all digits wins over the number). */
  sheet?: string;
  phoneColumn?: string;
}

export async function readXlsx(source: Extract<Source, { kind: 'xlsx' }>, sink: RecordSink, options: SheetOptions = {}): Promise<void> {
  if (source.size > MAX_WORKBOOK_INFLATED_BYTES) {
    throw new UsageError(`${source.name}: the workbook is too large (${Math.round(source.size / 1024 / 1024)} MB on disk; voicectl reads workbooks up to ${MAX_WORKBOOK_INFLATED_BYTES / 1024 / 1024} MB).`, {
      hint: 'Save just the sheet with the contacts as CSV UTF-8 and use that.',
    });
  }
  let data: Buffer;
  try {
    data = await readFile(source.path);
  } catch (err) {
    throw new UsageError(`Cannot read ${source.path}: ${(err as Error)?.message ?? String(err)}`);
  }
  await checkWorkbook(data, source.name);
  const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  const sheet = options.sheet === undefined ? 1 : await whichSheet(bytes, options.sheet, source.name);
  const rows = await readRows(bytes, sheet, source.name);
  // read-excel-file returns sheet rows from row 1, empty rows included, so index + 1 is the row number.
  const BATCH = 5000;
  try {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH).map((r) => r.map(cellText));
      await sink.records(batch, i + 1);
    }
  } catch (err) {
    if (err instanceof NoPhoneColumn) throw await withOtherSheets(err, bytes, sheet, source.name, options);
    throw err;
  }
}

const READ_OPTIONS = { parseNumber: (s: string) => s, trim: false };

async function readRows(bytes: ArrayBuffer, sheet: number | string, fileName: string): Promise<unknown[][]> {
  // read-excel-file (and its unzip and XML parser) load only for workbooks.
  const { readSheet } = await import('read-excel-file/universal');
  try {
    return await readSheet<string>(bytes, sheet, READ_OPTIONS) as unknown[][];
  } catch (err) {
    throw new UsageError(`${fileName} is not a readable .xlsx workbook: ${(err as Error)?.message ?? String(err)}`, {
      hint: 'Open it in Excel and save it again as .xlsx, or export the sheet as CSV UTF-8.',
    });
  }
}

/** The workbook's sheet names, in order (from the error read-excel-file gives for a sheet it lacks). */
async function sheetNames(bytes: ArrayBuffer, fileName: string): Promise<string[]> {
  const { readSheet } = await import('read-excel-file/universal');
  try {
    await readSheet<string>(bytes, '\u0000', READ_OPTIONS);
  } catch (err) {
    const names = (err as { sheets?: unknown }).sheets;
    if (Array.isArray(names)) return names.map(String);
    throw new UsageError(`${fileName} is not a readable .xlsx workbook: ${(err as Error)?.message ?? String(err)}`, {
      hint: 'Open it in Excel and save it again as .xlsx, or export the sheet as CSV UTF-8.',
    });
  }
  return [];
}

async function whichSheet(bytes: ArrayBuffer, wanted: string, fileName: string): Promise<string | number> {
  const names = await sheetNames(bytes, fileName);
  if (names.includes(wanted)) return wanted;
  const trimmed = wanted.trim();
  const byCase = names.filter((n) => n.trim().toLowerCase() === trimmed.toLowerCase());
  if (byCase.length === 1) return byCase[0]!;
  if (/^\d+$/.test(trimmed) && Number(trimmed) >= 1 && Number(trimmed) <= names.length) return Number(trimmed);
  throw new UsageError(`${fileName} has no sheet ${/^\d+$/.test(trimmed) ? `number ${trimmed} (it has ${names.length})` : `"${wanted}"`} (from --sheet). Its sheets: ${listSheets(names)}.`, {
    hint: 'Pass --sheet with a sheet\'s name or its number from 1.',
  });
}

function listSheets(names: string[]): string {
  return names.map((n, i) => `${JSON.stringify(n)} (${i + 1})`).join(', ') || '(none)';
}

/**
 * The sheet read has no phone column: the same error, naming the sheets that have one
 * (their first row that is not empty is the header, as for the sheet read).
 */
async function withOtherSheets(err: NoPhoneColumn, bytes: ArrayBuffer, read: number | string, fileName: string, options: SheetOptions): Promise<UsageError> {
  const names = await sheetNames(bytes, fileName);
  if (names.length < 2) return err;
  const current = typeof read === 'number' ? names[read - 1] : read;
  const found: string[] = [];
  for (const [i, name] of names.entries()) {
    if (name === current) continue;
    const rows = await readRows(bytes, i + 1, fileName).catch(() => []);
    const header = rows.map((r) => r.map(cellText)).find((r) => r.some((c) => c.trim() !== ''));
    if (!header) continue;
    try {
      const map = mapColumns(header, { phoneColumn: options.phoneColumn }, fileName);
      found.push(`${JSON.stringify(name)} (phone column ${JSON.stringify(map.headers[map.phone])})`);
    } catch {
      // no phone column on this sheet either
    }
  }
  const which = `That is sheet ${JSON.stringify(current)}${options.sheet === undefined ? ', the first' : ''} of ${names.length}`;
  if (found.length === 0) return new NoPhoneColumn(`${err.message} ${which}, and no other sheet has one either.`, { hint: err.hint });
  const first = found[0]!.slice(0, found[0]!.indexOf(' (phone column'));
  return new NoPhoneColumn(`${err.message} ${which}; ${found.length === 1 ? 'the sheet with one is' : 'the sheets with one are'} ${found.join(', ')}.`, {
    hint: `Pass --sheet ${shellQuote(JSON.parse(first) as string)} to read it.`,
  });
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return String(value);
}
