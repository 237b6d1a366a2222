/**
 * `call export --format xlsx`: the same columns as the CSV, written as a workbook a
 * person can open without a spreadsheet changing the data. Phone numbers, ids, names and
 * `extra` values are text cells (a CSV value such as +919876543210 is read by every
 * spreadsheet as the number 919876543210), times are date cells in the user's zone
 * (a spreadsheet's dates have no zone, so the header names it), durations are
 * numbers, and the header row is frozen. Rows stream through exceljs's WorkbookWriter
 * with inline strings, so memory holds a few pages, never the workbook.
 */
import { PassThrough } from 'node:stream';
import type { Workbook, Worksheet } from 'exceljs';
import type { Call } from '../api/calls.js';
import { CALL_FIELDS, headerCells, type CsvPlan } from './csv.js';
import { isObject } from '../util/is-object.js';
import { transcriptText } from './transcript.js';
import { wallDate } from '../util/time.js';

/** Excel refuses longer text in a cell (it "repairs" the file and drops the rest). */
const EXCEL_MAX_CELL_CHARS = 32_767;
/**
 * One style object per kind of cell, shared by every cell: exceljs looks a style up by
 * object identity first, and a fresh object per cell made styling most of the work.
 */
const PLAIN_STYLE = Object.freeze({});
const DATE_STYLE = Object.freeze({ numFmt: 'yyyy-mm-dd hh:mm:ss' });
/**
 * Sheet XML waiting for the compressor before the export reads on. exceljs hands the
 * compressor whatever it is given without waiting, so without this pause a fast service
 * would fill memory with XML (the whole export, at 100,000 calls).
 */
const MAX_PENDING_XML_BYTES = 1024 * 1024;

export type Kind = 'text' | 'number' | 'date' | 'boolean' | 'json';

const FIELD_KINDS: Record<string, Kind> = { duration_seconds: 'number', start_time: 'date', end_time: 'date', has_recording: 'boolean' };
const WIDTHS: Record<string, number> = {
  call_id: 24, campaign_id: 38, agent_id: 38, agent_name: 18, phone_number: 16, outcome: 22, summary: 60,
  start_time: 20, end_time: 20, contact_name: 22, transcript: 80,
};

export interface XlsxBook {
  add(calls: Call[]): Promise<void>;
  /** Writes the end of the workbook; resolves once all of it has reached `out`. */
  finish(): Promise<{ cut: number }>;
  /** Stops writing after a failure (the caller discards `out`). */
  abort(): void;
}

/**
 * Starts a workbook whose bytes go to `out.write` (awaited, so the destination's
 * back-pressure reaches the writer). The columns are the CSV's, fixed by `plan`.
 */
export async function openXlsxBook(out: { write(chunk: Uint8Array): Promise<void> }, plan: CsvPlan, signal?: AbortSignal, zone = 'UTC'): Promise<XlsxBook> {
  const headers = headerCells(plan);
  const kinds = headers.map((h, i) => kindOf(h, i, plan));
  const sheet = await openXlsxSheet(out, 'Calls', headers.map((h, i) => ({
    title: kinds[i] === 'date' ? `${h} (${zone})` : h, kind: kinds[i]!, width: WIDTHS[h] ?? (h.startsWith('extra.') ? 16 : 14),
  })), signal, zone);
  return { add: (calls) => sheet.add(calls.map((call) => cellsOf(call, plan))), finish: () => sheet.finish(), abort: () => sheet.abort() };
}

/** A column of a sheet: its title, how its cells are typed, and its width in characters. */
export interface SheetColumn {
  title: string;
  /** text (phone numbers, ids: never a number), number, date (an ISO string, or a Date already holding the wall time), boolean, json. */
  kind: Kind;
  width: number;
}

export interface XlsxSheet {
  add(rows: unknown[][]): Promise<void>;
  finish(): Promise<{ cut: number }>;
  abort(): void;
}

/**
 * A one-sheet workbook of the given columns, streamed to `out` as openXlsxBook streams an
 * export: a frozen bold header, typed cells, dates as wall times in `zone`, text cut at
 * Excel's limit (counted in `cut`).
 */
export async function openXlsxSheet(out: { write(chunk: Uint8Array): Promise<void> }, name: string, columns: SheetColumn[], signal?: AbortSignal, zone = 'UTC'): Promise<XlsxSheet> {
  // exceljs is large (about 1 MB of JavaScript and its zip writer): only xlsx files load it.
  const { default: ExcelJS } = await import('exceljs');
  const bytes = new PassThrough();
  // After abort() the zip writer may still push a last piece into the destroyed stream.
  bytes.on('error', () => {});
  const book: Workbook & { commit(): Promise<void> } = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: bytes, useStyles: true, useSharedStrings: false,
  });
  book.creator = 'voicectl';
  const sheet: Worksheet = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  const kinds = columns.map((c) => c.kind);
  sheet.columns = columns.map((c) => ({ width: Math.max(c.width, c.kind === 'date' ? c.title.length + 2 : 0) }));
  const header = sheet.addRow(columns.map((c) => c.title));
  header.font = { bold: true };
  header.commit();

  let failure: unknown;
  let aborted = false;
  // Moves the zip's bytes to the destination, one awaited write at a time.
  const pumped = (async () => {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      if (aborted) break;
      await out.write(chunk);
    }
  })().catch((err: unknown) => {
    failure = err;
    bytes.destroy();
  });
  // The zip writer never finishes once its destination has failed (a full disk, a closed pipe).
  const destinationFailed = pumped.then(() => {
    if (failure !== undefined) throw failure;
  });
  destinationFailed.catch(() => {});

  let cut = 0;
  const check = () => {
    if (failure !== undefined) throw failure;
  };
  return {
    async add(rows) {
      check();
      for (const values of rows) {
        const row = sheet.addRow(values.map((v, i) => typed(v, kinds[i]!, zone, () => cut++)));
        (row as unknown as { style: object }).style = PLAIN_STYLE;
        row.eachCell({ includeEmpty: true }, (cell, n) => {
          (cell as unknown as { style: object }).style = kinds[n - 1] === 'date' ? DATE_STYLE : PLAIN_STYLE;
        });
        row.commit();
      }
      // Ctrl-C stops the wait at once: the caller then discards the file.
      await settle(sheet, () => failure !== undefined || signal?.aborted === true);
      check();
    },
    async finish() {
      check();
      sheet.commit();
      await Promise.race([book.commit(), destinationFailed]);
      await pumped;
      check();
      return { cut };
    },
    abort() {
      aborted = true;
      bytes.destroy();
    },
  };
}

/** The cell values of one call, in the header's order (typed per column by the sheet). */
function cellsOf(call: Call, plan: CsvPlan): unknown[] {
  const values: unknown[] = [];
  for (const f of CALL_FIELDS) values.push(call[f]);
  for (const f of plan.otherFields) values.push(call[f]);
  const contact = isObject(call.contact) ? call.contact : undefined;
  values.push(contact?.name);
  const ex = contact?.extra;
  if (isObject(ex)) {
    for (const k of plan.extraKeys) values.push(ex[k]);
    const fitted = new Set(plan.extraKeys);
    const rest = Object.keys(ex).filter((k) => !fitted.has(k));
    values.push(rest.length > 0 ? JSON.stringify(Object.fromEntries(rest.map((k) => [k, ex[k]]))) : undefined);
  } else {
    for (let i = 0; i < plan.extraKeys.length; i++) values.push(undefined);
    values.push(ex === undefined || ex === null ? undefined : JSON.stringify(ex));
  }
  if (plan.transcripts) values.push(transcriptText(call));
  return values;
}

function typed(value: unknown, kind: Kind, zone: string, onCut: () => void): unknown {
  if (value === undefined || value === null || value === '') return null;
  switch (kind) {
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? n : text(value, onCut);
    }
    case 'date': {
      if (value instanceof Date) return value;
      const ms = typeof value === 'string' ? Date.parse(value) : NaN;
      // A cell holds a wall time without a zone: the zone's, as the header says.
      return Number.isFinite(ms) ? wallDate(ms, zone) : text(value, onCut);
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : text(value, onCut);
    case 'json':
      // Fields beyond the spec keep their JSON type; strings stay text whatever they hold.
      if (typeof value === 'number' || typeof value === 'boolean') return value;
      return text(value, onCut);
    default:
      return text(value, onCut);
  }
}

/** Text for a cell: strings as they are, anything else as JSON, cut at Excel's limit. */
function text(value: unknown, onCut: () => void): string {
  const s = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  if (s.length <= EXCEL_MAX_CELL_CHARS) return s;
  onCut();
  return s.slice(0, EXCEL_MAX_CELL_CHARS);
}

function kindOf(header: string, index: number, plan: CsvPlan): Kind {
  if (index < CALL_FIELDS.length) return FIELD_KINDS[header] ?? 'text';
  if (index < CALL_FIELDS.length + plan.otherFields.length) return 'json';
  return 'text';
}

/**
 * Waits while the sheet's XML queued for the compressor is over the bound. exceljs
 * writes the sheet into the zip writer's input stream and ignores what write() returns,
 * so that stream's buffer is where the XML waits. (It is a readable-stream 2 stream:
 * `_writableState.length`, not `writableLength`.)
 */
async function settle(sheet: Worksheet, stop: () => boolean): Promise<void> {
  type Queue = { writableLength?: number; _writableState?: { length?: number } };
  const queue = (sheet as unknown as { stream?: { pipes?: Queue[] } }).stream?.pipes?.[0];
  const pending = () => queue?.writableLength ?? queue?._writableState?.length ?? 0;
  // Polled rather than awaited on 'drain': a failed destination stops the compressor for good.
  while (pending() > MAX_PENDING_XML_BYTES && !stop()) await new Promise((r) => setTimeout(r, 2));
}
