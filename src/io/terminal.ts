/**
 * Whether the run's streams are terminals, and how wide stdout is, for code that holds
 * the run rather than its streams: both ask ctx.io (src/io/streams.ts), the one home of
 * the rule.
 */
import type { IoContext } from './streams.js';

/** Whether one of the run's streams is a terminal. */
export function isTerminal(ctx: IoContext, which: 'stdin' | 'stdout' | 'stderr'): boolean {
  return ctx.io.isTerminal(which);
}

/**
 * The width lines are fitted to: stdout's columns on a terminal (`fallback` when it does
 * not say), undefined in a pipe or file, where lines are printed whole.
 */
export function lineWidth(ctx: IoContext, fallback?: number): number | undefined {
  return ctx.io.lineWidth(fallback);
}

/**
 * The width of lines a person reads on stderr (a forecast, a summary): its columns at a
 * terminal, otherwise 80, so that the lines read well when pasted or logged too.
 */
export function readingWidth(ctx: IoContext): number {
  return ctx.io.helpWidth('stderr');
}
