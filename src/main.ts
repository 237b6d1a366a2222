/**
 * run(argv, ctx) → exit code. The one place where errors become exit codes and
 * messages (CLI.md, "Exit codes").
 */
import { ApiError, describeLimit } from './api/errors.js';
import { Context, type ContextInit } from './context.js';
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
import { version } from './version.js';
import { exitWhenIdle, flushed } from './io/drain.js';
import { terminalSafe } from './io/terminal-text.js';
import { fsErrorReason, isFsError } from './util/fs-error.js';

export { EXIT };

/** Entry for bin/voicectl.js (through dist/start.cjs): real streams, real environment, Ctrl-C handling, and the process exit. */
export async function main(argv: string[], init: Partial<ContextInit> = {}): Promise<number> {
  const interrupt = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    // A second Ctrl-C means "now": do not wait for clean-up.
    if (interrupts > 1) process.exit(EXIT.INTERRUPTED);
    interrupt.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  // `voicectl watch … | head`: a reader that closed the pipe has all it wants; stop
  // quietly, as Unix tools do, instead of dying on an unhandled EPIPE. Left in place
  // after run() returns: the error of a buffered write can arrive later.
  // Any other failure (a full disk under `> file`) means the data did not arrive: the
  // command must not exit 0 as if it had.
  let stdoutFailure: NodeJS.ErrnoException | undefined;
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.OK);
    stdoutFailure ??= err;
  };
  process.stdout.on('error', onStdoutError);
  const ctx = new Context({
    // Getters: process.stdin costs a stream (and tty or net) that most commands never read.
    io: {
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr: process.stderr,
    },
    env: process.env,
    signal: interrupt.signal,
    ...init,
  });
  let code: number;
  try {
    code = await run(argv, ctx);
  } finally {
    // From here on Ctrl-C ends the process at once: nothing is left to clean up.
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  // What a slow or late reader has not taken yet is part of the output; a failure to
  // deliver it (a full disk behind the pipe) arrives only once it is written.
  const streams = [process.stdout, process.stderr];
  await Promise.all(streams.map(flushed));
  if (stdoutFailure && code === EXIT.OK) {
    ctx.io.stderr.write(`${ctx.errColor.red('error:')} cannot write to standard output: ${fsErrorReason(stdoutFailure)}.\n`);
    code = EXIT.FAILURE;
  }
  // Safety net: a stray handle must never keep a finished command alive; nor may the net
  // cut what stdout or stderr still hold.
  exitWhenIdle(streams, code, 3000, (c) => process.exit(c));
  return code;
}

export async function run(argv: string[], ctx: Context): Promise<number> {
  // The one answer that needs no command tree at all.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    ctx.out(version());
    return EXIT.OK;
  }
  // Loaded here, not at the top: `--version` above needs neither commander nor the tree.
  const { buildProgram } = await import('./program.js');
  ctx.jsonErrors = wantsJsonErrors(argv, ctx.env);
  const program = buildProgram(ctx, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    // A long-running command (sandbox, listen, watch) that stopped cleanly on Ctrl-C.
    if (ctx.signal.aborted) {
      if (ctx.jsonErrors) ctx.io.stderr.write(`${JSON.stringify(errorJson(new InterruptedError(), EXIT.INTERRUPTED, ctx))}\n`);
      return EXIT.INTERRUPTED;
    }
    return EXIT.OK;
  } catch (err) {
    // commander prints its own messages (and help); only our own errors use colour.
    if (!isCommanderError(err)) await ctx.loadColors();
    return report(ctx, err);
  } finally {
    await ctx.close();
  }
}

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

function report(ctx: Context, err: unknown): number {
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
  const clean = (s: string) => (ctx ? ctx.redact(s) : s);
  if (err instanceof SilentExit) {
    if (!err.error) {
      return { error: exitCode === EXIT.INTERRUPTED ? 'Interrupted' : 'the command failed; its output says why', code: codeForExit(exitCode), exit_code: exitCode, retryable: false };
    }
    const { message, hint, details, code } = err.error;
    return withOptional({ error: clean(message), code, exit_code: exitCode, retryable: false }, hint && clean(hint), details);
  }
  if (isCommanderError(err)) {
    return { error: err.message.replace(/^error:\s*/i, '').trim(), code: 'usage', exit_code: exitCode, retryable: false, hint: 'Run the command with --help for its options.' };
  }
  const code = errorCode(err, exitCode);
  const { message, hint } = exitCode === EXIT.INTERRUPTED && !(err instanceof CliError) ? { message: 'Interrupted', hint: undefined } : describe(err);
  return withOptional(
    { error: clean(message), code, exit_code: exitCode, retryable: RETRYABLE.has(code) },
    hint && clean(hint),
    errorDetails(err),
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
