/**
 * The Parquet form of a call (`call export --format parquet`): the schema, stated once
 * and versioned (docs/export.md), the rows of one file gathered column by column, and the
 * file's bytes, written by hyparquet-writer (pure JavaScript: the export needs no native
 * module). Times are Parquet timestamps adjusted to UTC (milliseconds), never text.
 */
import type { Call } from '../api/calls.js';
import { version } from '../version.js';
import { CALL_FIELDS } from './csv.js';
import { isObject } from '../util/is-object.js';

/** Bumped when a column changes its name, its type or its meaning; a column added at the end keeps it. */
export const SCHEMA_VERSION = 1;
export const SCHEMA_KEY = 'voicectl.schema';
export const SCHEMA_NAME = `voicectl.calls/${SCHEMA_VERSION}`;

type Kind = 'text' | 'json' | 'int' | 'bool' | 'time';

export interface ParquetColumn {
  name: string;
  kind: Kind;
  /** call_id is never null; every other column may be. */
  required?: boolean;
  read: (call: Call) => unknown;
  /** Only with --transcripts. */
  transcript?: true;
}

const text = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
};
const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));
const contactOf = (c: Call) => (isObject(c.contact) ? c.contact : undefined);

/** The fields of a call that have a column (or a treatment) of their own. */
const OWN = new Set<string>([...CALL_FIELDS, 'contact', 'transcript']);

/** A column holding the call's own field of that name. */
const own = (name: string & keyof Call, kind: Kind): ParquetColumn => ({ name, kind, read: (c) => c[name] });

export const COLUMNS: readonly ParquetColumn[] = [
  { name: 'call_id', kind: 'text', required: true, read: (c) => c.call_id },
  ...(['campaign_id', 'agent_id', 'agent_name', 'direction', 'phone_number', 'status', 'end_reason'] as const).map((n) => own(n, 'text')),
  // "null when none": an empty label is none too.
  { name: 'outcome', kind: 'text', read: (c) => (c.outcome === '' ? null : c.outcome) },
  own('summary', 'text'),
  own('error', 'text'),
  own('duration_seconds', 'int'),
  own('start_time', 'time'),
  own('end_time', 'time'),
  own('has_recording', 'bool'),
  { name: 'contact_name', kind: 'text', read: (c) => contactOf(c)?.name },
  { name: 'extra', kind: 'json', read: (c) => contactOf(c)?.extra },
  {
    name: 'other_fields', kind: 'json', read: (c) => {
      let rest: Record<string, unknown> | undefined;
      for (const k of Object.keys(c)) if (!OWN.has(k) && c[k] !== undefined) (rest ??= {})[k] = c[k];
      return rest;
    },
  },
  { name: 'transcript', kind: 'json', transcript: true, read: (c) => (Array.isArray(c.transcript) ? c.transcript : null) },
];

export function columnsFor(transcripts: boolean): ParquetColumn[] {
  return COLUMNS.filter((c) => transcripts || !c.transcript);
}

/** The Parquet type of each kind, as BigQuery, Snowflake, ClickHouse and DuckDB read them. */
function schemaElement(col: ParquetColumn): Record<string, unknown> {
  const repetition_type = col.required ? 'REQUIRED' : 'OPTIONAL';
  switch (col.kind) {
    case 'text':
    case 'json':
      return { name: col.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type };
    case 'int':
      return { name: col.name, type: 'INT32', repetition_type };
    case 'bool':
      return { name: col.name, type: 'BOOLEAN', repetition_type };
    case 'time':
      return { name: col.name, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }, repetition_type };
  }
}

/** A call's start time in ms since the epoch; NaN when it has none that reads as a time. */
export function startOf(call: Call): number {
  return typeof call.start_time === 'string' ? Date.parse(call.start_time) : NaN;
}

const DAY_MS = 86_400_000;
let lastDay = NaN;
let lastDayText: string | null = null;

/** The UTC day of a start (ms), the file's partition: `2026-11-28`, or null when the call has none. */
export function utcDay(startMs: number): string | null {
  if (Number.isNaN(startMs)) return null;
  // Calls come day after day: the day's text is made once, not once a call.
  const day = Math.floor(startMs / DAY_MS);
  if (day !== lastDay) {
    lastDayText = new Date(startMs).toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDayText;
}

/** A Parquet timestamp in milliseconds (a bigint, the column's physical INT64), or null. */
const instant = (ms: number): bigint | null => (Number.isNaN(ms) ? null : BigInt(ms));

function cellOf(kind: Kind, v: unknown): unknown {
  switch (kind) {
    case 'text':
      return text(v);
    case 'json':
      return json(v);
    case 'int': {
      // The API's durations are numbers; the column is whole seconds, rounded.
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      return Number.isFinite(n) && Math.abs(n) < 2 ** 31 ? Math.round(n) : null;
    }
    case 'bool':
      return typeof v === 'boolean' ? v : null;
    case 'time':
      return instant(typeof v === 'string' ? Date.parse(v) : NaN);
  }
}

/** The rows of one file, gathered column by column (arrays of cells, not call objects). */
export class RowBatch {
  readonly cells: unknown[][];
  /** Each row's start, for the order within the file. */
  private readonly starts: number[] = [];
  /** The column of the start, whose cell is the start already read. */
  private readonly startColumn: number;
  constructor(readonly columns: readonly ParquetColumn[]) {
    this.cells = columns.map(() => []);
    this.startColumn = columns.findIndex((c) => c.name === 'start_time');
  }

  get size(): number {
    return this.starts.length;
  }

  /** Adds a call; `startMs` is its start, already read (NaN for none). */
  add(call: Call, startMs: number): void {
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) {
      const col = columns[i]!;
      this.cells[i]!.push(i === this.startColumn ? instant(startMs) : cellOf(col.kind, col.read(call)));
    }
    this.starts.push(Number.isNaN(startMs) ? Infinity : startMs);
  }

  /** The columns with rows in start order (then as they came), which makes each row group's min/max narrow. */
  sorted(): unknown[][] {
    const starts = this.starts;
    let inOrder = true;
    for (let i = 1; i < starts.length && inOrder; i++) inOrder = starts[i - 1]! <= starts[i]!;
    if (inOrder) return this.cells;
    const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]! || a - b);
    return this.cells.map((col) => order.map((i) => col[i]));
  }
}

/** The bytes of one Parquet file holding the batch, the schema's name and version in its key-value metadata. */
export async function encodeParquet(batch: RowBatch): Promise<Uint8Array> {
  const { ByteWriter, parquetWrite } = await import('hyparquet-writer');
  const columns = batch.columns;
  const data = batch.sorted();
  const writer = new ByteWriter();
  parquetWrite({
    writer,
    schema: [{ name: 'calls', num_children: columns.length }, ...columns.map(schemaElement)] as never,
    columnData: columns.map((c, i) => ({ name: c.name, data: data[i]! as never })),
    rowGroupSize: 100_000,
    kvMetadata: [
      { key: SCHEMA_KEY, value: SCHEMA_NAME },
      { key: 'voicectl.columns', value: columns.map((c) => c.name).join(',') },
    ],
    createdBy: `voicectl version ${version()}`,
  });
  return new Uint8Array(writer.getBuffer());
}
