/**
 * Printing data: a table on a terminal, or JSON, JSON lines or CSV for scripts. JSON
 * prints the API's objects unchanged; tables and CSV print the chosen columns. Every
 * cell of a table goes through terminal-text.ts: control characters in data are shown,
 * never obeyed.
 */
import type { Writable } from 'node:stream';
import type { IoContext } from './streams.js';
import { csvLine } from './csv.js';
import { PacedWriter } from './drain.js';
import { filtering, printFiltered, printFilteredList } from './filter.js';
import { withSpinner } from './progress.js';
import { terminalLine, terminalSafe } from '../text/terminal-text.js';
import { truncate } from '../text/text.js';

export interface Column<T = Record<string, unknown>> {
  header: string;
  /** Reads the cell; defaults to the field named by `key`. */
  get?: (row: T) => unknown;
  key?: string;
  /**
   * Longest width in a table before the cell is cut with an ellipsis. Only such columns
   * (names, summaries) are cut further to fit a narrower terminal; ids (`id`) are only
   * shortened to a unique prefix.
   */
  max?: number;
  /**
   * How the column is written in -o csv: its header (snake_case; by default `key`, or the
   * header in snake_case), `{ name, get }` when the file holds something other than the
   * table's cell (the raw value behind a formatted one), or `false` for a column only a
   * person's table has.
   */
  csv?: string | false | { name?: string; get?: (row: T) => unknown };
  /** `false`: a column only -o csv has (the table has no room for it). */
  table?: false;
  /**
   * On a terminal too narrow for the table, columns with a `drop` rank are left out,
   * highest rank first, before any text is cut. Columns without one always stay.
   */
  drop?: number;
  /**
   * An identifier (a call's, a campaign's): on a terminal too narrow for the table it is
   * shortened to the shortest prefix unique among the rows shown (at least ID_MIN
   * characters), as git shortens commit ids, before any column is left out; a line on
   * stderr says how to see them whole. --json, CSV and a pipe keep it whole.
   */
  id?: boolean;
}

/** A column's CSV header. */
export function csvName(col: Column<never>): string {
  const named = typeof col.csv === 'string' ? col.csv : typeof col.csv === 'object' ? col.csv.name : undefined;
  return named ?? col.key ?? col.header.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** The columns -o csv writes, in order. */
export function csvColumns<T>(columns: Column<T>[]): Column<T>[] {
  return columns.filter((c) => c.csv !== false);
}

/** The columns a table shows, in order. */
export function tableColumns<T>(columns: Column<T>[]): Column<T>[] {
  return columns.filter((c) => c.table !== false);
}

/** A row as -o csv writes it under `columns` (csvColumns of them). */
export function csvRow<T>(row: T, columns: Column<T>[]): string {
  return csvLine(columns.map((c) => cell(typeof c.csv === 'object' && c.csv.get ? c.csv.get(row) : read(row, c))));
}

export function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(cell).join(', ');
  return JSON.stringify(value);
}

function read<T>(row: T, col: Column<T>): unknown {
  if (col.get) return col.get(row);
  if (col.key) return (row as Record<string, unknown>)[col.key];
  return undefined;
}

export interface ListOptions<T> {
  /** Said on stderr, for a person, when there is nothing to list. */
  empty?: string;
  /** The columns of -o csv for `machineRows`, which are not the table's rows (the table's columns otherwise). */
  csv?: Column<any>[];
  /** What scripts get instead of `rows` (JSON, JSON lines, and the rows of `csv`), when it differs. */
  machineRows?: unknown[];
  /** Work only the table needs, done just before it is drawn (reading names to show beside ids). */
  beforeTable?: () => Promise<void>;
  /** The order a person reads the table's rows in (newest first); scripts get the rows in the service's order. */
  tableOrder?: (a: T, b: T) => number;
}

/** Prints a list of objects in the run's output format. */
export async function printList<T>(ctx: IoContext, rows: T[], columns: Column<T>[], options: ListOptions<T> = {}): Promise<void> {
  if (ctx.io.format !== 'table') {
    await printForScripts(ctx, (options.machineRows ?? rows) as unknown[], columns, options);
    return;
  }
  if (rows.length === 0) {
    ctx.info(options.empty ?? 'Nothing to show.');
    return;
  }
  await options.beforeTable?.();
  if (options.tableOrder) rows = [...rows].sort(options.tableOrder);
  columns = tableColumns(columns);
  const all = rows.map((r) => columns.map((c) => terminalLine(cell(read(r, c)))));
  const width = ctx.io.stdout.isTTY ? ctx.io.stdout.columns : undefined;
  await printFitted(ctx, columns, all, width);
}

/**
 * The one way a table is fitted to a terminal of `width` (undefined: a pipe, whole):
 * ids shortened to a unique prefix, then columns left out by their `drop` rank, then text
 * columns cut. Says on stderr when ids were shortened, and how to see them whole.
 */
async function printFitted(ctx: IoContext, columns: Array<Pick<Column<never>, 'header' | 'max' | 'drop' | 'id'>>, all: string[][], width: number | undefined): Promise<void> {
  const short = shortenIds(columns, all, width);
  const kept = keptColumns(columns, short.texts, width);
  const shown = kept.map((i) => columns[i]!);
  const texts = short.texts.map((row) => kept.map((i) => row[i]!));
  const widths = fitWidths(shown, texts, width);
  await printTable(ctx, shown.map((c) => c.header), texts.map((row) => row.map((t, i) => truncate(t, widths[i]))));
  if (short.shortened && kept.some((i) => columns[i]!.id)) {
    ctx.info(ctx.errColor.dim('Ids are shortened to a prefix unique in this list; --json (or a wider terminal) shows them whole.'));
  }
}

/** The shortest an id is cut to: eight characters, a little more than git's seven. */
export const ID_MIN = 8;

/**
 * The length of the shortest prefix, at least `min`, that tells apart every distinct id
 * of `ids` (the longest id's length when none shorter does). Exported for tests.
 */
export function uniquePrefixLength(ids: string[], min = ID_MIN): number {
  const distinct = [...new Set(ids.filter((x) => x !== ''))].sort();
  let n = min;
  // Sorted, the longest prefix two ids share is between neighbours.
  for (let i = 1; i < distinct.length; i++) {
    const a = distinct[i - 1]!;
    const b = distinct[i]!;
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    n = Math.max(n, k + 1);
  }
  return n;
}

/**
 * When the table is wider than `width`, the `id` columns' cells cut to their shortest
 * unique prefix (no ellipsis: the prefix is an id a person can match). Exported for tests.
 */
export function shortenIds(columns: Array<Pick<Column<never>, 'header' | 'max' | 'id'>>, texts: string[][], width: number | undefined): { texts: string[][]; shortened: boolean } {
  if (!width || !columns.some((c) => c.id)) return { texts, shortened: false };
  const natural = columns.map((c, i) => {
    const longest = Math.max(c.header.length, ...texts.map((row) => row[i]!.length));
    return c.max === undefined ? longest : Math.min(longest, c.max, FIT_FLOOR);
  });
  if (natural.reduce((a, w) => a + w + GAP, -GAP) <= width) return { texts, shortened: false };
  let shortened = false;
  const out = texts.map((row) => [...row]);
  columns.forEach((c, i) => {
    if (!c.id) return;
    const n = uniquePrefixLength(texts.map((row) => row[i]!));
    for (const row of out) {
      if (row[i]!.length > n) {
        row[i] = row[i]!.slice(0, n);
        shortened = true;
      }
    }
  });
  return { texts: out, shortened };
}

/**
 * Prints a listing while it is read, a page at a time, when a script reads the output
 * (JSON, JSON lines, CSV): memory holds a page, not the list (`call list --all` of two
 * million calls). A table needs every row for its widths: its rows are read first, behind
 * a spinner. Output for scripts is what printList prints for the same items.
 *
 * A listing that ends (however early) ends the output as a whole list. One that fails
 * leaves a JSON array unclosed, so no parser takes what was printed for the whole list.
 */
export async function printListing<T>(ctx: IoContext, items: AsyncIterable<T>, columns: Column<T>[], options: Omit<ListOptions<T>, 'machineRows'> & { spinner: string }): Promise<void> {
  if (ctx.io.format !== 'table') {
    await printForScripts(ctx, items, columns, options);
    return;
  }
  const rows = await withSpinner(ctx, options.spinner, async () => {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  });
  await printList(ctx, rows, columns, options);
}

/** Items of an in-memory list written by one JSON.stringify: few enough that the text stays small. */
const JSON_SLICE = 64;

/**
 * JSON, JSON lines or CSV, written a piece at a time at the reader's pace: a list may
 * hold two million calls, whose JSON is more than one string can hold.
 */
async function printForScripts(ctx: IoContext, items: Iterable<unknown> | AsyncIterable<unknown>, columns: Column<never>[], options: { csv?: Column<any>[] }): Promise<void> {
  if (filtering(ctx)) {
    await printFilteredList(ctx, items);
    return;
  }
  const paced = new PacedWriter(ctx.io.stdout as Writable);
  switch (ctx.io.format) {
    case 'json': {
      // The bytes of JSON.stringify(list, null, 2). A list in memory is written a slice of
      // items at a time, each slice one JSON.stringify (its brackets left off); a listing
      // still being read, an item at a time. JSON text has no raw newline inside a string:
      // every newline of an item starts a line to indent.
      let first = true;
      if (Array.isArray(items)) {
        for (let i = 0; i < items.length; i += JSON_SLICE) {
          const text = JSON.stringify(items.slice(i, i + JSON_SLICE), null, 2);
          // "[\n" + the items, each indented by two + "\n]".
          await paced.add(`${first ? '[\n' : ',\n'}${text.slice(2, -2)}`);
          first = false;
        }
      } else {
        for await (const r of items) {
          await paced.add(`${first ? '[\n  ' : ',\n  '}${(JSON.stringify(r, null, 2) ?? 'null').replaceAll('\n', '\n  ')}`);
          first = false;
        }
      }
      await paced.add(first ? '[]\n' : '\n]\n');
      break;
    }
    case 'jsonl':
      for await (const r of items) await paced.add(`${JSON.stringify(r) ?? ''}\n`);
      break;
    case 'csv': {
      const cols = csvColumns((options.csv ?? columns) as Column<unknown>[]);
      await paced.add(`${csvLine(cols.map(csvName))}\n`);
      for await (const r of items) await paced.add(`${csvRow(r, cols)}\n`);
      break;
    }
  }
  await paced.flush();
}

/**
 * The columns a terminal of `terminalWidth` shows: all of them when they fit (text
 * columns cut to FIT_FLOOR at most), otherwise fewer, leaving out the columns with the
 * highest `drop` rank first. Exported for tests.
 */
export function keptColumns(columns: Array<Pick<Column<never>, 'header' | 'max' | 'drop'>>, texts: string[][], terminalWidth: number | undefined): number[] {
  let kept = columns.map((_, i) => i);
  if (!terminalWidth) return kept;
  const natural = (i: number) => {
    const c = columns[i]!;
    const longest = Math.max(c.header.length, ...texts.map((row) => row[i]!.length));
    return c.max === undefined ? longest : Math.min(longest, c.max, FIT_FLOOR);
  };
  const total = (idx: number[]) => idx.reduce((a, i) => a + natural(i) + GAP, -GAP);
  const droppable = kept.filter((i) => columns[i]!.drop !== undefined).sort((a, b) => columns[b]!.drop! - columns[a]!.drop!);
  for (const i of droppable) {
    if (total(kept) <= terminalWidth) break;
    kept = kept.filter((k) => k !== i);
  }
  return kept;
}

/** The narrowest a column is cut to when fitting a terminal. */
const FIT_FLOOR = 10;
/** cli-table3's padding between columns (see printTable). */
const GAP = 2;

/**
 * Each column's cut width: its `max`, then, on a terminal narrower than the table, the
 * columns that have a `max` cut further, widest first and evenly (never below
 * FIT_FLOOR), until it fits; when even that would not fit, they are left as they are.
 * Exported for tests.
 */
export function fitWidths(columns: Array<Pick<Column<never>, 'header' | 'max'>>, texts: string[][], terminalWidth: number | undefined): (number | undefined)[] {
  const widths = columns.map((c, i) => {
    const longest = Math.max(c.header.length, ...texts.map((row) => terminalLine(row[i]!).length));
    return c.max === undefined ? longest : Math.min(longest, c.max);
  });
  const total = (ws: number[]) => ws.reduce((a, w) => a + w + GAP, -GAP);
  // Cutting names to the floor is only worth it if the table then fits: if the ids and
  // other whole columns alone are too wide, the lines wrap anyway, with readable names.
  const narrowest = widths.map((w, i) => (columns[i]!.max === undefined ? w : Math.min(w, FIT_FLOOR)));
  if (terminalWidth && total(narrowest) <= terminalWidth) {
    let excess = total(widths) - terminalWidth;
    while (excess > 0) {
      const cuttable = columns.flatMap((c, i) => (c.max !== undefined && widths[i]! > FIT_FLOOR ? [i] : []));
      if (cuttable.length === 0) break;
      cuttable.sort((a, b) => widths[b]! - widths[a]!);
      const widest = cuttable[0]!;
      // Down to the next widest, so the text columns end up evenly cut.
      const next = Math.max(FIT_FLOOR, cuttable.length > 1 ? widths[cuttable[1]!]! : FIT_FLOOR);
      const cut = Math.min(excess, Math.max(1, widths[widest]! - next));
      widths[widest]! -= cut;
      excess -= cut;
    }
  }
  return widths.map((w, i) => (columns[i]!.max === undefined ? undefined : w));
}

/**
 * A table of text for a person that fits stdout's terminal (80 columns when it does not
 * say; whole in a pipe): the columns with a `max` are cut to it, then further, widest
 * first, as printList cuts them. --json is where the whole text is.
 */
export async function printFittedTable(ctx: IoContext, columns: Array<Pick<Column<never>, 'header' | 'max' | 'drop' | 'id'>>, rows: string[][]): Promise<void> {
  const texts = rows.map((r) => r.map((t) => terminalLine(t)));
  const width = ctx.io.stdout.isTTY ? ctx.io.stdout.columns || 80 : undefined;
  await printFitted(ctx, columns, texts, width);
}

/** Prints one object: JSON as is, or a two-column table of the chosen fields. */
export async function printObject<T>(ctx: IoContext, obj: T, fields: Column<T>[]): Promise<void> {
  switch (ctx.io.format) {
    case 'json':
      if (filtering(ctx)) await printFiltered(ctx, obj);
      else ctx.out(JSON.stringify(obj, null, 2));
      return;
    case 'jsonl':
      ctx.out(JSON.stringify(obj));
      return;
    case 'csv': {
      const cols = csvColumns(fields);
      ctx.out(csvLine(cols.map(csvName)));
      ctx.out(csvRow(obj, cols));
      return;
    }
    case 'table': {
      fields = tableColumns(fields);
      const c = ctx.color;
      const width = Math.max(...fields.map((f) => f.header.length));
      // Continuation lines start under the value, so a multi-line prompt keeps its indentation.
      const indent = ' '.repeat(width + 2);
      for (const f of fields) {
        const v = terminalSafe(cell(read(obj, f)), { multiline: true }).split('\n').map((l, i) => (i === 0 || l === '' ? l : indent + l)).join('\n');
        ctx.out(`${c.bold(f.header.padEnd(width))}  ${v}`);
      }
    }
  }
}

/** A table with cli-table3 (loaded here: only table output needs it). */
export async function printTable(ctx: IoContext, head: string[], body: string[][]): Promise<void> {
  const { default: Table } = await import('cli-table3');
  const c = ctx.color;
  // Borderless, like gh: easy to read, and easy to cut and grep.
  const table = new Table({
    head: head.map((h) => c.bold(terminalLine(h))),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: NO_BORDER,
    wordWrap: false,
  });
  for (const row of body) table.push(row.map(terminalLine));
  ctx.out(table.toString().split('\n').map((l) => l.trimEnd()).join('\n'));
}

const NO_BORDER = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '',
};


/** Whether the run asked for JSON (`--json`, `-o json` or `-o jsonl`): a file writer's cue to write JSON lines. */
export function asksForJson(ctx: IoContext): boolean {
  return ctx.opts.output === 'jsonl' || ctx.opts.output === 'json' || Boolean(ctx.opts.json);
}
