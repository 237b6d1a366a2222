/**
 * --jq and --template: what a command would print as JSON, filtered with jq or laid out
 * with a Handlebars template instead (docs/scripting.md). Every JSON document src/io
 * prints passes here; the libraries load only when one of the flags is given.
 */
import type { Context } from '../context.js';
import { FailureError, UsageError } from '../errors.js';

/** Whether --jq or --template replaces the JSON output. */
export function filtering(ctx: Context): boolean {
  return ctx.opts.jq !== undefined || ctx.opts.template !== undefined;
}

/** Prints `value` through --jq or --template. */
export async function printFiltered(ctx: Context, value: unknown): Promise<void> {
  const text = ctx.opts.jq !== undefined ? await applyJq(ctx.opts.jq, value) : await applyTemplate(ctx, ctx.opts.template ?? '', value);
  if (text.length > 0) ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * jq as `jq -r` runs it: the real jq, compiled to WebAssembly (jq-wasm), never a jq
 * binary. Strings print raw, as gh's --jq prints them, so `--jq '.[].id'` gives ids a
 * shell loop can use.
 */
async function applyJq(expression: string, value: unknown): Promise<string> {
  // Loaded here: the WebAssembly jq costs start-up time no other command should pay.
  const jq = await import('jq-wasm');
  try {
    return await jq.raw(JSON.stringify(value ?? null), expression, ['-r']);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(/^Failed to execute raw query:\s*/, '').trim();
    if (/compile error/.test(message)) {
      throw new UsageError(`--jq "${expression}" is not a jq expression: ${firstLine(message)}`, { hint: 'jq\'s manual: https://jqlang.org/manual/' });
    }
    throw new FailureError(`--jq "${expression}" failed on the output: ${firstLine(message)}`, { code: 'jq_error' });
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.replace(/^jq: error( \(at [^)]*\))?:\s*/, '');
}

/**
 * Handlebars, with HTML escaping off (this is a terminal), and helpers for what a person
 * prints from JSON: `json`, `join`, `truncate`, `time` and gh's `tablerow` inside `table`.
 */
export async function applyTemplate(ctx: Context, template: string, value: unknown): Promise<string> {
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
  hb.registerHelper('time', (v: unknown, style: unknown) => formatTime(v, typeof style === 'string' ? style : undefined, ctx.now()));
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

/** Rows as columns two spaces apart, as `voicectl`'s tables are. */
function alignRows(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => { widths[i] = Math.max(widths[i] ?? 0, c.length); });
  return rows.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).map((l) => `${l}\n`).join('');
}

/** `time`: an ISO time as `2026-01-02 10:00 UTC`, or with "relative" as `3 hours ago`, "date" as `2026-01-02`. */
export function formatTime(v: unknown, style: string | undefined, now: Date): string {
  if (typeof v !== 'string' && typeof v !== 'number') return '';
  const t = new Date(v);
  if (Number.isNaN(t.getTime())) return String(v);
  if (style === 'relative') {
    const s = Math.round((now.getTime() - t.getTime()) / 1000);
    const abs = Math.abs(s);
    const [n, unit] = abs < 60 ? [abs, 'second'] : abs < 3600 ? [Math.floor(abs / 60), 'minute'] : abs < 86400 ? [Math.floor(abs / 3600), 'hour'] : [Math.floor(abs / 86400), 'day'];
    const words = `${n} ${unit}${n === 1 ? '' : 's'}`;
    return s >= 0 ? `${words} ago` : `in ${words}`;
  }
  const iso = t.toISOString();
  if (style === 'date') return iso.slice(0, 10);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
