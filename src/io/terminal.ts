/**
 * Whether the run's streams are terminals, and how wide stdout is: verbs and domain
 * modules ask here rather than reading isTTY themselves, so the rule has one home.
 */
import type { Context } from '../context.js';

/** Whether one of the run's streams is a terminal. */
export function isTerminal(ctx: Context, which: 'stdin' | 'stdout' | 'stderr'): boolean {
  return Boolean(ctx.io[which].isTTY);
}

/**
 * The width lines are fitted to: stdout's columns on a terminal (`fallback` when it does
 * not say), undefined in a pipe or file, where lines are printed whole.
 */
export function lineWidth(ctx: Context, fallback?: number): number | undefined {
  return ctx.io.stdout.isTTY ? ctx.io.stdout.columns || fallback : undefined;
}

/**
 * The width of lines a person reads on stderr (a forecast, a summary): its columns at a
 * terminal, otherwise 80, so that the lines read well when pasted or logged too.
 */
export function readingWidth(ctx: Context): number {
  return (ctx.io.stderr.isTTY && ctx.io.stderr.columns) || 80;
}
