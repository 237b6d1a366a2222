/**
 * The Parquet form of a call (`call export --format parquet`): the schema, stated once
 * and versioned (docs/export.md), the rows of one file gathered column by column, and the
 * file's bytes, written by hyparquet-writer (pure JavaScript: the export needs no native
 * module). Times are Parquet timestamps adjusted to UTC (milliseconds), never text.
 */
import type { Call } from '../api/calls.js';
import { version } from '../version.js';
import { CALL_FIELDS, isPlainObject } from './csv.js';

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
const contactOf = (c: Call) => (isPlainObject(c.contact) ? c.contact : undefined);

/** The fields of a call that have a column (or a treatment) of their own. */
const OWN = new Set<string>([...CALL_FIELDS, 'contact', 'transcript']);

export const COLUMNS: readonly ParquetColumn[] = [
  { name: 'call_id', kind: 'text', required: true, read: (c) => c.call_id },
  { name: 'campaign_id', kind: 'text', read: (c) => c.campaign_id },
  { name: 'agent_id', kind: 'text', read: (c) => c.agent_id },
  { name: 'agent_name', kind: 'text', read: (c) => c.agent_name },
  { name: 'direction', kind: 'text', read: (c) => c.direction },
  { name: 'phone_number', kind: 'text', read: (c) => c.phone_number },
  { name: 'status', kind: 'text', read: (c) => c.status },
  { name: 'end_reason', kind: 'text', read: (c) => c.end_reason },
  // "null when none": an empty label is none too.
  { name: 'outcome', kind: 'text', read: (c) => (c.outcome === '' ? null : c.outcome) },
  { name: 'summary', kind: 'text', read: (c) => c.summary },
  { name: 'error', kind: 'text', read: (c) => c.error },
  { name: 'duration_seconds', kind: 'int', read: (c) => c.duration_seconds },
  { name: 'start_time', kind: 'time', read: (c) => c.start_time },
  { name: 'end_time', kind: 'time', read: (c) => c.end_time },
  { name: 'has_recording', kind: 'bool', read: (c) => c.has_recording },
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

/** The UTC day of a start (ms), the file's partition: `2026-11-28`, or null when the call has none. */
export function utcDay(startMs: number): string | null {
  return Number.isNaN(startMs) ? null : new Date(startMs).toISOString().slice(0, 10);
}

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
    case 'time': {
      const ms = typeof v === 'string' ? Date.parse(v) : NaN;
      return Number.isNaN(ms) ? null : new Date(ms);
    }
  }
}

/** The rows of one file, gathered column by column (arrays of cells, not call objects). */
export class RowBatch {
  readonly cells: unknown[][];
  /** Each row's start, for the order within the file. */
  private readonly starts: number[] = [];
  constructor(readonly columns: readonly ParquetColumn[]) {
    this.cells = columns.map(() => []);
  }

  get size(): number {
    return this.starts.length;
  }

  /** Adds a call; `startMs` is its start, already read (NaN for none). */
  add(call: Call, startMs: number): void {
    for (let i = 0; i < this.columns.length; i++) {
      const col = this.columns[i]!;
      this.cells[i]!.push(col.name === 'start_time' ? (Number.isNaN(startMs) ? null : new Date(startMs)) : cellOf(col.kind, col.read(call)));
    }
    this.starts.push(Number.isNaN(startMs) ? Infinity : startMs);
  }

  /** The columns with rows in start order (then as they came), which makes each row group's min/max narrow. */
  sorted(): unknown[][] {
    const order = this.starts.map((_, i) => i).sort((a, b) => this.starts[a]! - this.starts[b]! || a - b);
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
