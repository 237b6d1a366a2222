/**
 * A spinner on stderr for requests slow enough to notice: only on a terminal, never
 * with machine output, and only after a short delay (ora is loaded then, not before).
 */
import type { Context } from '../context.js';

const SHOW_AFTER_MS = 250;

export async function withSpinner<T>(ctx: Context, text: string, work: () => Promise<T>): Promise<T> {
  if (!ctx.interactiveStderr) return ctx.accessible ? withProgressLine(ctx, text, work) : work();
  let spinner: { stop(): void } | undefined;
  let done = false;
  const timer = setTimeout(() => {
    void import('ora').then(({ default: ora }) => {
      if (done) return;
      spinner = ora({ text, stream: ctx.io.stderr as NodeJS.WriteStream, color: 'cyan' }).start();
    });
  }, SHOW_AFTER_MS);
  try {
    return await work();
  } finally {
    done = true;
    clearTimeout(timer);
    spinner?.stop();
  }
}

/** Accessible mode: the spinner's text once, as a plain line a screen reader reads, when the wait is long enough to notice. */
async function withProgressLine<T>(ctx: Context, text: string, work: () => Promise<T>): Promise<T> {
  if (!ctx.io.stderr.isTTY || ctx.machineOutput) return work();
  const timer = setTimeout(() => ctx.info(`${text}…`), SHOW_AFTER_MS);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
  }
}
