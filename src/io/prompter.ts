/**
 * Questions to a person, through @inquirer/prompts on the context's streams (so tests
 * answer by writing to stdin). Loaded only when a command asks something.
 */
import { Writable } from 'node:stream';
import type { IoContext } from './streams.js';
import { InterruptedError, UsageError } from '../errors.js';
import { terminalSafe } from '../text/terminal-text.js';

/**
 * Inquirer ends its output stream after each prompt; process.stderr ignores that, any
 * other stream (a test's, a pipe's) would close for good. So each prompt writes through
 * a stream that forwards to stderr and never ends it.
 */
function streams(ctx: IoContext) {
  const target = ctx.io.stderr;
  const output = new Writable({
    write(chunk, _encoding, done) {
      target.write(chunk, done);
    },
  });
  Object.assign(output, { isTTY: target.isTTY, columns: target.columns ?? 80, rows: (target as { rows?: number }).rows ?? 24 });
  return { input: ctx.io.stdin as NodeJS.ReadableStream, output: output as NodeJS.WritableStream, clearPromptOnDone: false };
}

/** Turns inquirer's "user pressed Ctrl-C" into exit 130. */
async function asked<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) throw new InterruptedError('Cancelled');
    throw err;
  }
}

/**
 * The action a question asks about, to name it in the error when no one can answer:
 * "Delete agent X (id)? Its calls remain." names "Delete agent X (id)".
 */
export function refusedAction(question: string): string {
  const asked = question.lastIndexOf('?');
  return (asked >= 0 ? question.slice(0, asked) : question.replace(/[.!:;,\s]+$/, '')).trim();
}

export async function confirm(ctx: IoContext, message: string, options: { default?: boolean; flag?: string } = {}): Promise<boolean> {
  if (ctx.opts.yes) return true;
  if (!ctx.io.canPrompt()) {
    throw new UsageError(`${refusedAction(message)} needs confirmation, and no one is at a terminal to give it.`, {
      hint: `Pass ${options.flag ?? '--yes'} to go ahead without asking.`,
    });
  }
  if (ctx.io.accessible) return (await import('./plain-prompt.js')).plainConfirm(ctx, message, options.default ?? false);
  const { confirm: ask } = await import('@inquirer/prompts');
  // Questions quote names from the service ("Delete agent …?"): shown, never obeyed.
  return asked(ask({ message: terminalSafe(message, { multiline: true }), default: options.default ?? false }, { ...streams(ctx), signal: ctx.signal }));
}

export async function input(ctx: IoContext, message: string, options: { default?: string; required?: boolean; validate?: (v: string) => true | string } = {}): Promise<string> {
  if (ctx.io.accessible) return (await import('./plain-prompt.js')).plainInput(ctx, message, options);
  const { input: ask } = await import('@inquirer/prompts');
  return asked(ask({ message, default: options.default, required: options.required, validate: options.validate }, { ...streams(ctx), signal: ctx.signal }));
}

export async function password(ctx: IoContext, message: string): Promise<string> {
  if (ctx.io.accessible) return (await import('./plain-prompt.js')).plainPassword(ctx, message);
  const { password: ask } = await import('@inquirer/prompts');
  return asked(ask({ message, mask: '*' }, { ...streams(ctx), signal: ctx.signal }));
}

export { streams as promptStreams };

export interface SelectChoice<T> {
  value: T;
  name?: string;
  description?: string;
  short?: string;
  disabled?: boolean | string;
}

export async function select<T>(ctx: IoContext, message: string, choices: SelectChoice<T>[], options: { default?: T; pageSize?: number } = {}): Promise<T> {
  if (ctx.io.accessible) return (await import('./plain-prompt.js')).plainSelect(ctx, message, choices, options.default);
  const { select: ask } = await import('@inquirer/prompts');
  return asked(ask<T>({ message, choices, default: options.default, pageSize: options.pageSize ?? 12, loop: false }, { ...streams(ctx), signal: ctx.signal }));
}

export interface CheckboxChoice<T> extends SelectChoice<T> {
  checked?: boolean;
}

export async function checkbox<T>(ctx: IoContext, message: string, choices: CheckboxChoice<T>[], options: { pageSize?: number; required?: boolean } = {}): Promise<T[]> {
  if (ctx.io.accessible) return (await import('./plain-prompt.js')).plainCheckbox(ctx, message, choices, options.required);
  const { checkbox: ask } = await import('@inquirer/prompts');
  return asked(ask<T>({ message, choices, pageSize: options.pageSize ?? 12, loop: false, required: options.required }, { ...streams(ctx), signal: ctx.signal }));
}

/** Opens $VISUAL or $EDITOR on the text; callers check that one is set first. */
export async function editor(
  ctx: IoContext,
  message: string,
  options: { default?: string; postfix?: string; validate?: (v: string) => true | string; waitForUserInput?: boolean } = {},
): Promise<string> {
  const { editor: ask } = await import('@inquirer/prompts');
  return asked(ask({
    message, default: options.default, postfix: options.postfix ?? '.md', validate: options.validate, waitForUserInput: options.waitForUserInput,
  }, { ...streams(ctx), signal: ctx.signal }));
}
