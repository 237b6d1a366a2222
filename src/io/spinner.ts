/**
 * A spinner on stderr for requests slow enough to notice: only on a terminal, never
 * with machine output, and only after a short delay (ora is loaded then, not before).
 */
import type { Context } from '../context.js';

const SHOW_AFTER_MS = 250;

export async function withSpinner<T>(ctx: Context, text: string, work: () => Promise<T>): Promise<T> {
  if (!ctx.interactiveStderr) return work();
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
