/**
 * What a verb prints when its result is not a list (output.ts has lists and objects):
 * src/io decides, from the run's output format, what is printed; a verb says what it has.
 *
 * - `render` prints one result: its JSON for scripts (--json pretty, -o jsonl on one
 *   line), the rows of its CSV form when it has one, or what `human` prints for a person.
 * - `note` is a line for a person on stderr (hints, "Showing 50 of 120"), never printed
 *   when a script reads the output.
 * - `recordLine` is one line of a stream (watch, listen, tail): JSON for scripts, text
 *   for people.
 * - `refuseCsv` is for verbs that have no CSV form: a usage error before anything runs.
 * - `chooseView` picks a live view: JSON lines for scripts, a redrawn view on a terminal,
 *   plain lines in a log or pipe.
 * - `ownFormat` is for verbs with formats of their own (`campaign report --format md`,
 *   `call export --format xlsx`): their flag, the file's extension, then the run's format.
 */
import type { IoContext, TerminalOptions } from './streams.js';
import { UsageError } from '../errors.js';
import { csvLine } from './csv.js';
import { flushed, pending, type DrainableStream } from './drain.js';
import { extname } from 'node:path';
import { asksForJson, csvColumns, csvName, csvRow, type Column } from './output.js';
import { filtering, printFiltered } from './filter.js';

/** How a result's JSON is laid out: by format (one line for -o jsonl, pretty otherwise), or always one way. */
export type JsonLayout = 'by-format' | 'pretty' | 'compact';

export interface Rendering<T = Record<string, unknown>> {
  /** What scripts get, as JSON. Without it, nothing is printed for them. */
  json?: unknown;
  layout?: JsonLayout;
  /** What -o jsonl prints, one JSON line each (default: `json` on one line). */
  lines?: unknown[];
  /**
   * The person's form is for a terminal only: a table sent to a pipe or file gets the
   * JSON, laid out as `layout` says (a summary is no use to the program reading it).
   */
  terminalOnly?: boolean;
  /** The CSV form: these rows under these columns. Without it, -o csv prints the JSON. */
  csv?: { columns: Column<T>[]; rows: T[] };
  /** What a person sees on the terminal. */
  human?: () => void | Promise<void>;
  /**
   * For --json of a result too large to build as one string (ten thousand calls' verdicts):
   * the same JSON text in pieces, written as the stream takes them.
   */
  jsonPieces?: () => Iterable<string>;
}

export async function render<T>(ctx: IoContext, r: Rendering<T>): Promise<void> {
  const person = !ctx.io.machineOutput && (!r.terminalOnly || ctx.io.stdout.isTTY);
  if (person) {
    await r.human?.();
    return;
  }
  if (ctx.io.format === 'jsonl' && r.lines) {
    for (const line of r.lines) ctx.out(JSON.stringify(line));
    return;
  }
  if (ctx.io.format === 'csv' && r.csv) {
    const columns = csvColumns(r.csv.columns);
    ctx.out(csvLine(columns.map(csvName)));
    for (const row of r.csv.rows) ctx.out(csvRow(row, columns));
    return;
  }
  if (r.jsonPieces && ctx.io.format === 'json') {
    await writePieces(ctx, r.jsonPieces());
    return;
  }
  if (r.json === undefined) return;
  if (filtering(ctx)) return printFiltered(ctx, r.json);
  ctx.out(jsonText(ctx, r.json, r.layout ?? 'by-format'));
}

async function writePieces(ctx: IoContext, pieces: Iterable<string>): Promise<void> {
  const stdout = ctx.io.stdout as unknown as DrainableStream;
  let chunk = '';
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length < 65_536) continue;
    ctx.io.stdout.write(chunk);
    chunk = '';
    // Held to what the reader takes: a slow pipe does not make voicectl hold the whole text.
    if (pending(stdout) > 1 << 20) await flushed(stdout);
  }
  ctx.io.stdout.write(`${chunk}\n`);
}

function jsonText(ctx: IoContext, value: unknown, layout: JsonLayout): string {
  const pretty = layout === 'pretty' || (layout === 'by-format' && ctx.io.format !== 'jsonl');
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/** A value that is JSON whatever the format (`voicectl api`, `--format json`): by default one line under -o jsonl, pretty otherwise. */
export async function printJson(ctx: IoContext, value: unknown, layout: JsonLayout = 'by-format'): Promise<void> {
  if (filtering(ctx)) return printFiltered(ctx, value);
  ctx.out(jsonText(ctx, value, layout));
}

/**
 * Streams (watch, listen, call tail) print a JSON line per record as it happens; --jq and
 * --template work on one whole document, so they are refused here, before anything runs.
 */
export function refuseFilterOnStream(ctx: IoContext, example: string): void {
  if (filtering(ctx)) {
    throw new UsageError('--jq and --template work on commands that print one JSON document; this one prints JSON lines as they happen.', {
      hint: `Pipe its JSON lines to jq instead: ${example} --json | jq -c '…'`,
    });
  }
}

/** A line for a person (stderr); scripts reading the output never see it. */
export function note(ctx: IoContext, text: string): void {
  if (!ctx.io.machineOutput) ctx.info(text);
}

/** Runs `human` only when a person reads the output (a table on a terminal or in a pipe). */
export async function forPeople(ctx: IoContext, human: () => void | Promise<void>): Promise<void> {
  if (!ctx.io.machineOutput) await human();
}

/** One record of a stream: a JSON line for scripts, `human()` for people. */
export function recordLine(ctx: IoContext, record: unknown, human: () => string): string {
  return ctx.io.machineOutput ? JSON.stringify(record) : human();
}

/** For verbs whose output has no CSV form. */
export function refuseCsv(ctx: IoContext, message: string, hint: string): void {
  if (ctx.io.format === 'csv') throw new UsageError(message, { hint });
}

/** A live view: JSON lines for scripts, a redrawn view on a terminal, plain lines in a log or pipe. */
export function chooseView<V>(ctx: IoContext, views: { json: () => V; terminal: () => V; plain: () => V }): V {
  if (ctx.io.machineOutput) return views.json();
  if (ctx.io.redraws(ctx.io.stdout)) return views.terminal();
  return views.plain();
}

/**
 * What a question is about, before it is asked: on stdout when the output is for a person;
 * on stderr when stdout is for a script and a person may still answer (no --yes).
 */
export function showBeforeAsking(ctx: IoContext, lines: (color: IoContext['color']) => string[]): void {
  if (!ctx.io.machineOutput) for (const line of lines(ctx.color)) ctx.out(line);
  else if (!ctx.opts.yes) for (const line of lines(ctx.errColor)) ctx.info(line);
}

export interface OwnFormats<F extends string> {
  /** The verb's own flag (`--format`), when given. */
  flag?: F;
  /** The file the verb writes (`--out`): its extension names a format, `extensions` says which. */
  file?: string;
  extensions?: Record<string, F>;
  /** The format when the run asked for JSON (--json, -o json, -o jsonl). */
  json: F;
  /** The format otherwise. */
  otherwise: F;
}

/**
 * The format of a verb whose output has formats of its own: its flag wins, then the
 * extension of the file it writes (calls.jsonl, calls.xlsx), then the run's output format.
 */
export function ownFormat<F extends string>(ctx: IoContext, formats: OwnFormats<F>): F {
  if (formats.flag !== undefined) return formats.flag;
  const byName = formats.file ? formats.extensions?.[extname(formats.file).toLowerCase()] : undefined;
  if (byName !== undefined) return byName;
  return asksForJson(ctx) ? formats.json : formats.otherwise;
}

/**
 * The output the user chose (--json, -o, --color), for a context that prints on their
 * behalf, such as the demo's own context: io reads the choice, the verb hands it on.
 */
export function outputChoice(ctx: IoContext): Pick<TerminalOptions, 'json' | 'output' | 'color'> {
  return { json: ctx.opts.json, output: ctx.opts.output, color: ctx.opts.color };
}
