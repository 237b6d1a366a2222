/**
 * run(argv, ctx) → exit code. The one place where errors become exit codes and
 * messages (CLI.md, "Exit codes").
 */
import { Context, type ContextInit } from './context.js';
import { EXIT, InterruptedError, isCommanderError } from './errors.js';
import { version } from './version.js';
import { exitWhenIdle, flushed } from './io/drain.js';
import { directOutput } from './io/fd-write.js';
import { fsErrorReason } from './util/fs-error.js';
import { errorJson, report, wantsJsonErrors } from './outcome.js';

export { EXIT };
export { describe, errorJson, exitCodeFor, wantsJsonErrors } from './outcome.js';

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
  const stderr = directOutput(2, () => process.stderr);
  const ctx = new Context({
    // Getters: process.stdin costs a stream (and tty or net) that most commands never read.
    io: {
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr,
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
  const streams = [process.stdout, stderr];
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
    if (!isCommanderError(err)) await ctx.io.loadColors();
    return report(ctx, err);
  } finally {
    await ctx.close();
  }
}

