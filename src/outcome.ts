/**
 * What an error means: its exit code (CLI.md, "Exit codes") and its message in words.
 * main.ts reports every command's error through it, and so does anything else that runs
 * voicectl's verbs (the MCP server), so a failure reads the same wherever it surfaces.
 */
import { ApiError, describeLimit } from './api/errors.js';
import type { Context } from './context.js';
import {
  AuthError,
  ChangesPendingError,
  CliError,
  commanderExitCode,
  EXIT,
  FailureError,
  InterruptedError,
  isCommanderError,
  NotFoundError,
  SilentExit,
  UsageError,
} from './errors.js';
import { terminalSafe } from './io/terminal-text.js';
import { fsErrorReason, isFsError } from './util/fs-error.js';

export function exitCodeFor(err: unknown, ctx?: Context): number {
  if (err instanceof SilentExit) return err.exitCode;
  if (isCommanderError(err)) return commanderExitCode(err);
  if (err instanceof InterruptedError || ctx?.signal.aborted) return EXIT.INTERRUPTED;
  if (err instanceof UsageError) return EXIT.USAGE;
  if (err instanceof AuthError) return EXIT.AUTH;
  if (err instanceof NotFoundError) return EXIT.NOT_FOUND;
  if (err instanceof FailureError) return EXIT.FAILURE;
  if (err instanceof ChangesPendingError) return EXIT.CHANGES_PENDING;
  if (err instanceof ApiError) {
    switch (err.status) {
      case 401:
      case 403:
        return EXIT.AUTH;
      case 404:
        return EXIT.NOT_FOUND;
      case 402:
        return EXIT.PLAN_LIMIT;
      default:
        return EXIT.FAILURE;
    }
  }
  return EXIT.FAILURE;
}

/** Prints the error on the context's stderr as every command does, and returns its exit code. */
export function report(ctx: Context, err: unknown): number {
  const code = exitCodeFor(err, ctx);
  if (err instanceof SilentExit) return code;
  // commander has already printed its own message (unknown option, missing argument, help).
  if (isCommanderError(err)) return code;
  const c = ctx.errColor;
  const debug = ctx.opts.debug || (ctx.env.VOICECTL_DEBUG ?? '') === '1';
  if (code === EXIT.INTERRUPTED) {
    ctx.io.stderr.write(`${c.yellow(err instanceof CliError ? terminalSafe(ctx.redact(err.message), { multiline: true }) : 'Interrupted')}\n`);
    return code;
  }
  // Messages carry what servers, files and input said: a key echoed back, a URL with
  // credentials (masked), control characters (shown, not obeyed).
  const { message, hint } = describe(err);
  ctx.io.stderr.write(`${c.red('error:')} ${terminalSafe(ctx.redact(message), { multiline: true })}\n`);
  if (hint) ctx.io.stderr.write(`${c.dim(terminalSafe(ctx.redact(hint), { multiline: true }))}\n`);
  if (debug && err instanceof Error && err.stack) ctx.io.stderr.write(`${c.dim(ctx.redact(err.stack))}\n`);
  else if (code === EXIT.FAILURE && !(err instanceof CliError) && !(err instanceof ApiError) && !isFsError(err)) {
    ctx.io.stderr.write(`${c.dim('Run again with --debug for details.')}\n`);
  }
  return code;
}

/** The message and the next step for an error, in words. */
export function describe(err: unknown): { message: string; hint?: string } {
  if (err instanceof CliError) return { message: err.message, hint: err.hint };
  if (err instanceof ApiError) {
    const where = `${err.method} ${pathOf(err.url)}`;
    switch (err.status) {
      case 401:
        return {
          message: `the service refused the API key (401): ${err.message}`,
          hint: 'Check VOICECTL_API_KEY (or --api-key), or run `voicectl login` to save a working key.',
        };
      case 403:
        return {
          message: `permission denied (403) for ${where}: ${err.message}`,
          hint: err.scope
            ? `This needs an API key with the "${err.scope}" scope. Create one in the dashboard under API access, or use a key that has it.`
            : 'The API key lacks a scope this operation needs.',
        };
      case 402:
        return {
          message: `plan limit reached (402${err.limit ? `, ${err.limit}` : ''}): ${err.message}`,
          hint: describeLimit(err.limit) ? `This means ${describeLimit(err.limit)}.` : 'The plan does not allow this; upgrade it or free up capacity.',
        };
      case 404:
        // Our own lookups (an agent by name) say what was looked for; a server's generic
        // "not found" adds nothing to the path.
        return {
          message: `not found (or it belongs to another organization): ${where}${err.message && !/^(not found|resource not found)\.?$/i.test(err.message) && !err.message.startsWith(err.host) ? ` (${err.message})` : ''}`,
        };
      default:
        if (err.kind === 'http') return { message: `${where} failed (HTTP ${err.status}): ${err.message}` };
        return { message: err.message };
    }
  }
  // A file-system error no command put in words: still the file and the cause, not a stack.
  if (isFsError(err)) {
    const where = typeof err.path === 'string' ? `${err.path}: ` : '';
    return { message: `${where}${fsErrorReason(err)}` };
  }
  if (err instanceof Error) return { message: `unexpected error: ${err.message}` };
  return { message: `unexpected error: ${String(err)}` };
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
