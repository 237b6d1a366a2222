/**
 * What an error means: its exit code (CLI.md, "Exit codes") and its message in words.
 * main.ts reports every command's error through it, and so does anything else that runs
 * voicectl's verbs (the MCP server), so a failure reads the same wherever it surfaces.
 */
import { ApiError, describeLimit } from './api/errors.js';
import type { Context } from './context.js';
import {
  AuthError,
  ChangesPendingError, GuardrailError,
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
import { terminalSafe } from './text/terminal-text.js';
import { fsErrorReason, isFsError } from './util/fs-error.js';
import { redact, redactDeep } from './util/redact.js';

export function exitCodeFor(err: unknown, ctx?: Context): number {
  if (err instanceof SilentExit) return err.exitCode;
  if (isCommanderError(err)) return commanderExitCode(err);
  if (err instanceof InterruptedError || ctx?.signal.aborted) return EXIT.INTERRUPTED;
  if (err instanceof UsageError) return EXIT.USAGE;
  if (err instanceof AuthError) return EXIT.AUTH;
  if (err instanceof NotFoundError) return EXIT.NOT_FOUND;
  if (err instanceof FailureError) return EXIT.FAILURE;
  if (err instanceof ChangesPendingError) return EXIT.CHANGES_PENDING;
  if (err instanceof GuardrailError) return EXIT.GUARDRAIL;
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

/** Prints the error on the context's stderr as every command does (one JSON object under --json), and returns its exit code. */
export function report(ctx: Context, err: unknown): number {
  const code = exitCodeFor(err, ctx);
  if (ctx.jsonErrors && code !== EXIT.OK) {
    const json = errorJson(err, code, ctx);
    if (json) ctx.io.stderr.write(`${JSON.stringify(json)}\n`);
    return code;
  }
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

/**
 * Errors as JSON: --json, -o json (or jsonl, the other JSON format) or
 * VOICECTL_ERROR_FORMAT=json. Read from argv before parsing, since a bad command line is
 * an error too. `--` ends the options.
 */
export function wantsJsonErrors(argv: readonly string[], env: Record<string, string | undefined>): boolean {
  const fromEnv = env.VOICECTL_ERROR_FORMAT?.trim().toLowerCase();
  if (fromEnv === 'json') return true;
  if (fromEnv === 'text') return false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--json') return true;
    const value = a === '-o' || a === '--output' ? argv[i + 1] : /^(?:--output=|-o=?)(.+)$/.exec(a)?.[1];
    if (value === 'json' || value === 'jsonl') return true;
  }
  return false;
}

/** What errors as JSON print: one object on stderr (docs/errors.md lists the codes). */
export interface ErrorJson {
  error: string;
  code: string;
  exit_code: number;
  retryable: boolean;
  hint?: string;
  details?: unknown;
}

/** The error as one JSON object; undefined for a failure already reported (a command that printed its own outcome) without one. */
export function errorJson(err: unknown, exitCode: number, ctx?: Context): ErrorJson | undefined {
  // Every field is masked as the message is: a path may carry the base URL's query
  // (`?api_key=…`), a detail what a server or a file said.
  const clean = (s: string) => (ctx ? ctx.redact(s) : redact(s));
  const cleanDetails = (d: unknown) => redactDeep(d, clean);
  if (err instanceof SilentExit) {
    if (!err.error) {
      return { error: exitCode === EXIT.INTERRUPTED ? 'Interrupted' : 'the command failed; its output says why', code: codeForExit(exitCode), exit_code: exitCode, retryable: false };
    }
    const { message, hint, details, code } = err.error;
    return withOptional({ error: clean(message), code, exit_code: exitCode, retryable: false }, hint && clean(hint), cleanDetails(details));
  }
  if (isCommanderError(err)) {
    return { error: clean(err.message.replace(/^error:\s*/i, '').trim()), code: 'usage', exit_code: exitCode, retryable: false, hint: 'Run the command with --help for its options.' };
  }
  const code = errorCode(err, exitCode);
  const { message, hint } = exitCode === EXIT.INTERRUPTED && !(err instanceof CliError) ? { message: 'Interrupted', hint: undefined } : describe(err);
  return withOptional(
    { error: clean(message), code, exit_code: exitCode, retryable: RETRYABLE.has(code) },
    hint && clean(hint),
    cleanDetails(errorDetails(err)),
  );
}

function withOptional(base: ErrorJson, hint: string | undefined, details: unknown): ErrorJson {
  if (hint) base.hint = hint;
  if (details !== undefined) base.details = details;
  return base;
}

/** Codes whose cause may pass: the same command, run again later, may succeed. */
const RETRYABLE = new Set(['network', 'timeout', 'server_error', 'rate_limited', 'incomplete_list']);

/** The stable machine word for an error (docs/errors.md). */
export function errorCode(err: unknown, exitCode: number): string {
  if (exitCode === EXIT.INTERRUPTED) return 'interrupted';
  if (err instanceof CliError && err.code) return err.code;
  if (err instanceof SilentExit) return err.error?.code ?? codeForExit(exitCode);
  if (isCommanderError(err)) return 'usage';
  if (err instanceof ApiError) {
    if (err.code === 'incomplete_list') return 'incomplete_list';
    if (err.kind === 'network') return 'network';
    if (err.kind === 'timeout') return 'timeout';
    if (err.kind === 'unexpected') return 'unexpected_response';
    const status = err.status ?? 0;
    if (status === 401) return 'auth';
    if (status === 403) return 'forbidden';
    if (status === 402) return 'plan_limit';
    if (status === 404) return 'not_found';
    if (status === 429) return 'rate_limited';
    if (status >= 500) return 'server_error';
    if (status >= 300 && status < 400) return 'redirect';
    return 'rejected';
  }
  if (isFsError(err)) return 'file_error';
  if (err instanceof CliError) return codeForExit(exitCode);
  return 'internal';
}

function codeForExit(exitCode: number): string {
  switch (exitCode) {
    case EXIT.USAGE: return 'usage';
    case EXIT.AUTH: return 'auth';
    case EXIT.NOT_FOUND: return 'not_found';
    case EXIT.PLAN_LIMIT: return 'plan_limit';
    case EXIT.CHANGES_PENDING: return 'changes_pending';
    case EXIT.GUARDRAIL: return 'guardrail';
    case EXIT.INTERRUPTED: return 'interrupted';
    default: return 'failed';
  }
}

/** What a script may act on, beyond the message: the request, the status, the limit or scope, the server's own code. */
function errorDetails(err: unknown): unknown {
  if (err instanceof CliError) return err.details;
  if (err instanceof ApiError) {
    const d: Record<string, unknown> = { method: err.method, path: pathOf(err.url) };
    if (err.status !== undefined) d.status = err.status;
    if (err.limit) d.limit = err.limit;
    if (err.scope) d.scope = err.scope;
    if (err.code && err.code !== 'incomplete_list') d.server_code = err.code;
    if (err.retryAfterMs !== undefined) d.retry_after_seconds = Math.ceil(err.retryAfterMs / 1000);
    return d;
  }
  if (isFsError(err) && typeof err.path === 'string') return { path: err.path, errno: err.code };
  return undefined;
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
