/**
 * Runs one voicectl command line in this process, the way bin/voicectl.js would, with
 * its output captured: every MCP tool is a command line, so a tool answers exactly what
 * the CLI's --json prints for the same request and fails with the CLI's own message.
 */
import { PassThrough, Writable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { Context, type Env } from '../context.js';
import { isCommanderError } from '../errors.js';
import { report } from '../outcome.js';

/** Builds the program for a command line (program.ts's buildProgram, passed in: src/mcp must not import the program that imports it). */
export type ProgramBuilder = (ctx: Context, argv: string[]) => CommandUnknownOpts;

export interface VerbOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunnerOptions {
  build: ProgramBuilder;
  env: Env;
  cwd: string;
  /** Global flags every command line starts with (--profile, --base-url, --api-key). */
  globals: string[];
  signal: AbortSignal;
  now?: () => Date;
}

/** What a command may write: collected as text, capped so that no answer can fill the memory. */
class Sink extends Writable {
  isTTY = false;
  private chunks: string[] = [];
  private size = 0;
  constructor(private readonly cap: number) {
    super();
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.size < this.cap) this.chunks.push(text);
    this.size += text.length;
    done();
  }
  text(): string {
    return this.chunks.join('');
  }
}

const STDOUT_CAP = 64 * 1024 * 1024;
const STDERR_CAP = 256 * 1024;

export class VerbRunner {
  constructor(private readonly options: RunnerOptions) {}

  /** A context of its own for a domain call that no verb prints (the launch plan). */
  context(): { ctx: Context; release: () => void } {
    return this.makeContext(new Sink(0), new Sink(STDERR_CAP));
  }

  /** Runs `voicectl GLOBALS... ARGV... --json --no-input` and returns its exit code and output. */
  async run(argv: Arg[], instead?: Instead): Promise<VerbOutcome> {
    const stdout = new Sink(STDOUT_CAP);
    const stderr = new Sink(STDERR_CAP);
    const { ctx, release } = this.makeContext(stdout, stderr);
    const full = [...argvWithoutPositionals(argv), ...this.options.globals, '--json', '--no-input', '--no-color', ...positionals(argv)];
    let code: number;
    try {
      const program = this.options.build(ctx, full);
      if (instead) {
        const cmd = findCommand(program, instead.verb);
        if (!cmd) throw new Error(`no verb ${instead.verb}`);
        cmd.action(async () => instead.action(ctx, cmd.opts()));
      }
      // A command's help or a parse error is written by commander itself: it lands in the sinks.
      await program.parseAsync(full, { from: 'user' });
      code = 0;
    } catch (err) {
      code = report(ctx, err);
      if (isCommanderError(err)) code = code || 2;
    } finally {
      await ctx.close();
      release();
    }
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  }

  /**
   * A context of its own, with a signal of its own that the server's aborts: what a
   * command hangs on its signal (AbortSignal.any of each request) goes with the context,
   * instead of piling up on the server's signal call after call.
   */
  private makeContext(stdout: Sink, stderr: Sink): { ctx: Context; release: () => void } {
    const stdin = new PassThrough();
    stdin.end();
    const parent = this.options.signal;
    const own = new AbortController();
    const onAbort = () => own.abort(parent.reason);
    if (parent.aborted) own.abort(parent.reason);
    else parent.addEventListener('abort', onAbort, { once: true });
    const ctx = new Context({
      io: { stdin, stdout, stderr },
      // Colour and prompts are for people: nothing a command writes here reaches one.
      env: { ...this.options.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' },
      cwd: this.options.cwd,
      // A folder a tool names is walked by the command: what it finds must stay in the server's folder too.
      filesInside: this.options.cwd,
      signal: own.signal,
      now: this.options.now,
    });
    return { ctx, release: () => parent.removeEventListener('abort', onAbort) };
  }
}

/** The command of `verb` ("campaign run", "plan") in a built program, or undefined. */
export function findCommand(program: CommandUnknownOpts, verb: string): CommandUnknownOpts | undefined {
  let cmd: CommandUnknownOpts | undefined = program;
  for (const word of verb.split(' ')) {
    cmd = cmd.commands.find((c) => c.name() === word) as CommandUnknownOpts | undefined;
    if (!cmd) return undefined;
  }
  return cmd;
}

/**
 * What runs instead of a verb's action (a tool that plans with the verb's own code, where
 * the verb would go on to act): it gets the flags as the verb's parser made them, after
 * the same checks, with the global options (the service's address, the key) in force.
 */
export interface Instead {
  verb: string;
  action(ctx: Context, flags: Record<string, unknown>): Promise<void>;
}

/**
 * Positional values (ids, paths, names) come after `--`, so that a value starting with a
 * dash is read as a value: `["campaign", "get", {positional: "--help"}]`.
 */
export interface Positional {
  positional: string;
}

export type Arg = string | Positional;

function argvWithoutPositionals(argv: Arg[]): string[] {
  return argv.filter((a): a is string => typeof a === 'string');
}

function positionals(argv: Arg[]): string[] {
  const values = argv.filter((a): a is Positional => typeof a !== 'string').map((a) => a.positional);
  return values.length ? ['--', ...values] : [];
}
