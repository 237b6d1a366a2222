/**
 * The one way tests run voicectl in process: `run(argv, options)` calls `run(argv, ctx)`,
 * the function behind bin/voicectl.js, with fake streams, a throwaway config folder, and
 * whatever the test needs to control (a terminal, a clock, sleeps, Ctrl-C). End-to-end
 * tests run the built binary instead (helpers/cli.ts), and get the same result shape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Context, type Env } from '../../src/context.js';
import { InterruptedError } from '../../src/errors.js';
import { run as main } from '../../src/main.js';

/** What a run of voicectl left: in process (here) or as a child process (helpers/cli.ts). */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface Terminal {
  /** Which streams are terminals (default: stdout only); a width without a terminal is a pipe told its width. */
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  columns?: number;
  rows?: number;
}

export interface RunOptions {
  /** Over FORCE_COLOR=0 and a fresh VOICECTL_CONFIG_DIR (removed after, unless given here). */
  env?: Env;
  /** What stdin holds (it is ended after). Without it stdin is ended empty, unless `openStdin`. */
  stdin?: string;
  /** Leave stdin open, for a test that writes answers to it. */
  openStdin?: boolean;
  /** A person at a terminal: true for stdin and stdout, 100 columns. */
  tty?: boolean | Terminal;
  /** Called once the command runs, to answer its prompts by writing to stdin (which stays open). */
  answer?: (io: { stdin: PassThrough; stderr: () => string }) => Promise<void>;
  /** A person at the prompts: waits for each question on stderr in turn, then types its answer and Enter. */
  answers?: Array<[question: string, typed: string]>;
  cwd?: string;
  now?: () => Date;
  /** Default: instant, so retries and polls cost nothing. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The real clock and real sleeps, for a command that waits on another process. */
  realTime?: boolean;
  random?: () => number;
  /** Ctrl-C from outside; `interrupt()` on the running command does the same. */
  signal?: AbortSignal;
}

type FakeStream = PassThrough & { isTTY?: boolean; columns?: number; rows?: number };

export interface Running {
  stdin: PassThrough;
  stdout(): string;
  stderr(): string;
  /** Resolves once the text is on stdout or stderr (or the named one); rejects if the command ends first. */
  waitForOutput(text: string | RegExp, stream?: 'stdout' | 'stderr'): Promise<void>;
  /** Ctrl-C; resolves with the exit code. */
  interrupt(): Promise<number>;
  done: Promise<number>;
}

export function start(argv: string[], options: RunOptions = {}): Running {
  const stdin = new PassThrough() as FakeStream;
  const stdout = new PassThrough() as FakeStream;
  const stderr = new PassThrough() as FakeStream;
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); listeners.forEach((l) => l()); });
  stderr.on('data', (c: Buffer) => { err += c.toString('utf8'); listeners.forEach((l) => l()); });
  // Like process.stderr, which pipe() never ends: a prompt library ends its output after
  // each prompt, and the next prompt must still be able to write.
  stderr.end = ((..._args: unknown[]) => stderr) as typeof stderr.end;
  const tty: Terminal | undefined = options.tty === true ? { stdin: true, stdout: true, columns: 100 } : options.tty || undefined;
  if (tty) {
    if (tty.stdin) stdin.isTTY = true;
    for (const [s, on] of [[stdout, tty.stdout ?? true], [stderr, tty.stderr ?? false]] as const) {
      s.isTTY = on;
      // a width is a width, terminal or not (a test of how a pipe is told the width)
      if (tty.columns !== undefined) s.columns = tty.columns;
      if (tty.rows !== undefined) s.rows = tty.rows;
    }
  }
  if (options.stdin !== undefined) stdin.end(options.stdin);
  else if (!options.openStdin && !options.answer && !options.answers) stdin.end();

  const own = options.env?.VOICECTL_CONFIG_DIR === undefined ? mkdtempSync(join(tmpdir(), 'voicectl-run-')) : undefined;
  const interrupt = new AbortController();
  options.signal?.addEventListener('abort', () => interrupt.abort(options.signal!.reason), { once: true });
  const ctx = new Context({
    io: { stdin, stdout, stderr },
    // TZ: the system's zone (the default of --tz) is UTC on every machine unless a test says otherwise.
    env: { FORCE_COLOR: '0', TZ: 'UTC', ...(own ? { VOICECTL_CONFIG_DIR: own } : {}), ...options.env },
    cwd: options.cwd,
    now: options.now,
    random: options.random,
    signal: interrupt.signal,
    sleep: options.sleep ?? (options.realTime ? undefined : async () => {}),
  });
  const done = main(argv, ctx).finally(() => {
    if (own) rmSync(own, { recursive: true, force: true });
  });
  const waitForOutput = (text: string | RegExp, stream?: 'stdout' | 'stderr') => new Promise<void>((resolve, reject) => {
    const check = () => {
      const hay = stream === 'stdout' ? out : stream === 'stderr' ? err : out + err;
      if (typeof text === 'string' ? hay.includes(text) : text.test(hay)) {
        listeners.delete(check);
        resolve();
      }
    };
    listeners.add(check);
    check();
    void done.then(() => {
      if (listeners.has(check)) {
        listeners.delete(check);
        reject(new Error(`the command ended before printing ${String(text)}:\n${out}\n${err}`));
      }
    });
  });
  return {
    stdin,
    stdout: () => out,
    stderr: () => err,
    waitForOutput,
    done,
    interrupt: async () => {
      interrupt.abort(new InterruptedError());
      return done;
    },
  };
}

/** Runs one command to its end. */
export async function run(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const r = start(argv, options);
  if (options.answer) await options.answer({ stdin: r.stdin, stderr: r.stderr });
  for (const [question, typed] of options.answers ?? []) {
    await r.waitForOutput(question, 'stderr');
    r.stdin.write(`${typed}\n`);
  }
  const exitCode = await r.done;
  return { exitCode, stdout: r.stdout(), stderr: r.stderr() };
}

export interface FakeClock {
  now: () => Date;
  /** Advances the clock at once instead of waiting, and notes how long it was asked for. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every sleep asked for, in ms, in order. */
  sleeps: number[];
  /** Aborted (Ctrl-C) during the sleep numbered `interruptAtSleep`, if given. */
  signal: AbortSignal;
}

/**
 * A clock that sleeps take forward at once, so a command of many polls (watch, tail)
 * takes milliseconds and no test depends on real time. Spread it into run()'s options.
 */
export function fakeClock(opts: { start?: string; interruptAtSleep?: number } = {}): FakeClock {
  let clock = Date.parse(opts.start ?? '2025-03-01T10:00:00Z');
  const interrupt = new AbortController();
  const sleeps: number[] = [];
  return {
    now: () => new Date(clock),
    sleeps,
    signal: interrupt.signal,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (sleeps.length === opts.interruptAtSleep) interrupt.abort(new InterruptedError());
      if (signal?.aborted) throw signal.reason;
      clock += ms;
      await new Promise((r) => setImmediate(r));
    },
  };
}
