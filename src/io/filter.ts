/**
 * --jq and --template: what a command would print as JSON, filtered with jq or laid out
 * with a Handlebars template instead (docs/scripting.md). Every JSON document src/io
 * prints passes here; the libraries load only when one of the flags is given.
 */
import type { IoContext } from './streams.js';
import { FailureError, InterruptedError, UsageError } from '../errors.js';
import { jsonText } from '../util/json-text.js';
import { formatDateTime, zoneAbbreviation } from '../util/time.js';
import { jqWorkerFile, takeWarmJq } from './jq-warm.js';
import type { JqJob, JqMessage } from './jq-worker.js';
import { noun } from '../text/text.js';

/** Whether --jq or --template replaces the JSON output. */
export function filtering(ctx: IoContext): boolean {
  return ctx.opts.jq !== undefined || ctx.opts.template !== undefined;
}

/** Prints `value` through --jq or --template. */
export async function printFiltered(ctx: IoContext, value: unknown): Promise<void> {
  if (ctx.opts.jq !== undefined) return runFilter(ctx, ctx.opts.jq, async (write) => write(jsonText(value ?? null)));
  const text = await applyTemplate(ctx, ctx.opts.template ?? '', value);
  if (text.length > 0) ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Prints a list through --jq or --template. jq gets the list as its items arrive, so it
 * parses one page while the next is read; a template takes the whole list, held in memory.
 */
export async function printFilteredList(ctx: IoContext, items: Iterable<unknown> | AsyncIterable<unknown>): Promise<void> {
  if (ctx.opts.jq === undefined) {
    const all: unknown[] = [];
    for await (const item of items) all.push(item);
    return printFiltered(ctx, all);
  }
  return runFilter(ctx, ctx.opts.jq, async (write) => {
    let first = true;
    write('[');
    for await (const item of items) {
      write(first ? jsonText(item) : `,${jsonText(item)}`);
      first = false;
    }
    write(']');
  });
}

/** Hands jq its input text: `write` as often as needed; jq has it all when the promise resolves. */
type Feed = (write: (text: string) => void) => Promise<void>;

/**
 * --jq: jq 1.7.1 as `jq -r PROGRAM` runs it on the same JSON text (the service's own,
 * numbers as it wrote them: util/json-text.ts), built into voicectl as WebAssembly
 * (src/io/jq-engine.ts), so no jq program is needed. Strings print raw, as gh's --jq
 * prints them; the output is jq's, byte for byte, written as it comes. jq's exit status
 * decides: a program that does not compile is a usage error (exit 2), a runtime error
 * a failure (exit 1) even after some output. It runs on a worker thread that Ctrl-C
 * abandons at once (src/io/jq-worker.ts).
 */
async function runFilter(ctx: IoContext, program: string, feed: Feed): Promise<void> {
  const env = { ...ctx.env };
  const errors: string[] = [];
  let line = '';
  let inError = false;
  // jq's error lines (with what follows them: the lines of an error message, the program
  // quoted under a compile error) become the command's error; anything else jq writes to its standard error (debug,
  // stderr, halt_error's message) passes through as it comes.
  const onStderr = (chunk: Uint8Array) => {
    line += Buffer.from(chunk).toString('utf8');
    let nl: number;
    while ((nl = line.indexOf('\n')) >= 0) {
      const one = line.slice(0, nl + 1);
      line = line.slice(nl + 1);
      if (/^jq: (error|\d+ compile error)/.test(one)) {
        inError = true;
        errors.push(one.trimEnd());
      } else if (inError && !/^(jq: |\["DEBUG:")/.test(one)) {
        errors[errors.length - 1] += `\n${one.trimEnd()}`;
      } else {
        inError = false;
        ctx.io.stderr.write(one);
      }
    }
  };
  const onStdout = (chunk: Uint8Array) => { ctx.io.stdout.write(chunk); };
  const file = jqWorkerFile();
  let result: { status: number; outOfMemory?: boolean };
  if (file) {
    result = await inWorker(ctx, file, program, env, feed, onStdout, onStderr);
  } else {
    const parts: string[] = [];
    await feed((text) => { parts.push(text); });
    const { runJq } = await import('./jq-engine.js');
    result = await runJq({ program, env, input: new TextEncoder().encode(parts.join('')), stdout: onStdout, stderr: onStderr });
  }
  if (line.length > 0) ctx.io.stderr.write(line);
  if (result.outOfMemory) {
    throw new FailureError(`--jq "${program}" ran out of memory (jq has ${JQ_MEMORY} here).`, {
      code: 'jq_out_of_memory',
      hint: 'Give jq less at once (a narrower list, --limit), or pipe --json to a jq program.',
    });
  }
  if (result.status === 0) return;
  if (result.status === 2 || result.status === 3) {
    throw new UsageError(`--jq "${program}" is not a jq expression: ${jqMessage(errors) || 'jq could not compile it'}`, { hint: 'jq\'s manual: https://jqlang.org/manual/' });
  }
  throw new FailureError(`--jq "${program}" failed on the output: ${jqMessage(errors) || `jq stopped with exit status ${result.status}`}`, { code: 'jq_error' });
}

/** What the heap of jq-wasm's WebAssembly memory can grow to. */
const JQ_MEMORY = '256 MiB';

/** jq's error lines without their `jq: error (at <stdin>:0):` prefix; the compile error's count line left out. */
function jqMessage(lines: string[]): string {
  return lines
    .filter((l) => !/^jq: \d+ compile errors?$/.test(l))
    .map((l) => l.replace(/^jq: error( \(at [^)]*\))?:\s*/, ''))
    .join('; ');
}

/** Pieces of input sent to the worker at a time. */
const INPUT_PIECE = 256 * 1024;

/** Runs jq on a worker thread, fed as `feed` writes; Ctrl-C (the run's signal) terminates it. */
async function inWorker(
  ctx: IoContext, file: string, program: string, env: Record<string, string | undefined>, feed: Feed,
  stdout: (c: Uint8Array) => void, stderr: (c: Uint8Array) => void,
): Promise<{ status: number; outOfMemory?: boolean }> {
  const { Worker, MessageChannel } = await import('node:worker_threads');
  if (ctx.signal.aborted) throw new InterruptedError();
  const worker = takeWarmJq(ctx) ?? new Worker(file);
  worker.ref();
  const { port1, port2 } = new MessageChannel();
  const arrived = new Int32Array(new SharedArrayBuffer(4));
  let stopped: unknown;
  const finished = new Promise<{ status: number; outOfMemory?: boolean }>((resolve, reject) => {
    let done: { status: number; outOfMemory?: boolean } | undefined;
    const onAbort = () => {
      stopped = new InterruptedError();
      void worker.terminate();
      reject(stopped);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: JqMessage) => {
      if (m.type === 'done') done = { status: m.status, outOfMemory: m.outOfMemory };
      else if (m.type === 'stdout') stdout(m.chunk);
      else stderr(m.chunk);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      ctx.signal.removeEventListener('abort', onAbort);
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') resolve({ status: 1, outOfMemory: true });
      else reject(new FailureError(`--jq could not run: ${err.message}`, { cause: err }));
    });
    worker.on('exit', () => {
      ctx.signal.removeEventListener('abort', onAbort);
      port1.close();
      if (done) resolve(done);
      else if (!ctx.signal.aborted) reject(new FailureError('--jq stopped without finishing.'));
    });
  });
  // Seen by whoever awaits `finished`; kept from being reported unhandled while the input is still being read.
  finished.catch(() => {});
  worker.postMessage({ program, env, input: port2, arrived } satisfies JqJob, [port2]);
  const send = (piece: Uint8Array | null) => {
    port1.postMessage(piece);
    Atomics.add(arrived, 0, 1);
    Atomics.notify(arrived, 0);
  };
  let pending = '';
  try {
    await feed((text) => {
      pending += text;
      if (pending.length >= INPUT_PIECE) {
        send(Buffer.from(pending, 'utf8'));
        pending = '';
      }
    });
  } catch (err) {
    // Reading the list failed: jq is not left waiting for the rest.
    void worker.terminate();
    throw stopped ?? err;
  }
  if (pending.length > 0) send(Buffer.from(pending, 'utf8'));
  send(null);
  return finished;
}

/**
 * Handlebars, with HTML escaping off (this is a terminal), and helpers for what a person
 * prints from JSON: `json`, `join`, `truncate`, `time` and gh's `tablerow` inside `table`.
 */
export async function applyTemplate(ctx: IoContext, template: string, value: unknown): Promise<string> {
  // Loaded here: only --template needs a template engine.
  const { default: Handlebars } = await import('handlebars');
  const hb = Handlebars.create();
  const tables: string[][][] = [];
  hb.registerHelper('json', (v: unknown) => JSON.stringify(v));
  hb.registerHelper('join', (v: unknown, sep: unknown) => (Array.isArray(v) ? v.map(String).join(typeof sep === 'string' ? sep : ', ') : String(v ?? '')));
  hb.registerHelper('truncate', (v: unknown, n: unknown) => {
    const s = String(v ?? '');
    const max = typeof n === 'number' ? n : Number(n);
    return Number.isFinite(max) && s.length > max ? `${s.slice(0, Math.max(1, max - 1))}…` : s;
  });
  hb.registerHelper('time', (v: unknown, style: unknown) => formatTime(v, typeof style === 'string' ? style : undefined, ctx.now(), ctx.timeZone));
  hb.registerHelper('table', function (this: unknown, options: { fn: (ctx: unknown) => string }) {
    tables.push([]);
    const rest = options.fn(this);
    const rows = tables.pop()!;
    return alignRows(rows) + rest;
  });
  hb.registerHelper('tablerow', (...args: unknown[]) => {
    const cells = args.slice(0, -1).map((a) => String(a ?? ''));
    const table = tables.at(-1);
    if (table) {
      table.push(cells);
      return '';
    }
    return `${cells.join('\t')}\n`;
  });
  let compiled: (v: unknown) => string;
  try {
    compiled = hb.compile(template, { noEscape: true, strict: false });
    return compiled(value);
  } catch (err) {
    throw new UsageError(`--template could not be used: ${firstLine(err instanceof Error ? err.message : String(err))}`, { hint: 'The syntax is Handlebars: https://handlebarsjs.com/guide/ (docs/scripting.md lists the helpers).' });
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]!;
}

/** Rows as columns two spaces apart, as `voicectl`'s tables are. */
function alignRows(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => { widths[i] = Math.max(widths[i] ?? 0, c.length); });
  return rows.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).map((l) => `${l}\n`).join('');
}

/**
 * `time`: an ISO time in `zone` (--tz), as `2026-01-02 15:30 IST`; with "relative" as
 * `3 hours ago`, with "date" as the day in that zone, `2026-01-02`.
 */
export function formatTime(v: unknown, style: string | undefined, now: Date, zone = 'UTC'): string {
  if (typeof v !== 'string' && typeof v !== 'number') return '';
  const t = new Date(v);
  if (Number.isNaN(t.getTime())) return String(v);
  if (style === 'relative') {
    const s = Math.round((now.getTime() - t.getTime()) / 1000);
    const abs = Math.abs(s);
    const [n, unit] = abs < 60 ? [abs, 'second'] : abs < 3600 ? [Math.floor(abs / 60), 'minute'] : abs < 86400 ? [Math.floor(abs / 3600), 'hour'] : [Math.floor(abs / 86400), 'day'];
    const words = `${n} ${noun(n, unit)}`;
    return s >= 0 ? `${words} ago` : `in ${words}`;
  }
  const local = formatDateTime(t.getTime(), zone, { minutes: true });
  if (style === 'date') return local.slice(0, 10);
  return `${local} ${zoneAbbreviation(zone, t.getTime())}`;
}
