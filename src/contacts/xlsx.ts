/**
 * .xlsx workbooks, first sheet, through read-excel-file: every cell becomes the text a
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
import { checkWorkbook, MAX_WORKBOOK_INFLATED_BYTES } from './workbook-guard.js';

export async function readXlsx(source: Extract<Source, { kind: 'xlsx' }>, sink: RecordSink): Promise<void> {
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
  // read-excel-file (and its unzip and XML parser) load only for workbooks.
  const { readSheet } = await import('read-excel-file/universal');
  let rows: unknown[][];
  try {
    const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    rows = await readSheet<string>(bytes, { parseNumber: (s) => s, trim: false }) as unknown[][];
  } catch (err) {
    throw new UsageError(`${source.name} is not a readable .xlsx workbook: ${(err as Error)?.message ?? String(err)}`, {
      hint: 'Open it in Excel and save it again as .xlsx, or export the sheet as CSV UTF-8.',
    });
  }
  // read-excel-file returns sheet rows from row 1, empty rows included, so index + 1 is the row number.
  const BATCH = 5000;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH).map((r) => r.map(cellText));
    await sink.records(batch, i + 1);
  }
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
