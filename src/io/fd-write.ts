/**
 * Writes straight to a file descriptor, for the start path's few kilobytes (the version,
 * help), which would otherwise load Node's whole stream stack. A reader that has gone
 * (`voicectl --help | head -1`) is not an error; a full non-blocking pipe hands the rest
 * to the stream, which waits for it.
 */
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { OutStream } from './streams.js';

export interface FdWriter {
  write(text: string | Uint8Array): boolean;
}

export function fdWriter(fd: number, stream: () => FdWriter): FdWriter {
  let fallback: FdWriter | undefined;
  let closed = false;
  return {
    write(text) {
      if (closed) return true;
      if (fallback) return fallback.write(text);
      let rest = typeof text === 'string' ? Buffer.from(text) : text;
      while (rest.length > 0) {
        try {
          rest = rest.subarray(writeSync(fd, rest));
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') {
            closed = true;
            return true;
          }
          if (code !== 'EAGAIN') throw err;
          fallback = stream();
          return fallback.write(rest);
        }
      }
      return true;
    },
  };
}

/** Whether `fd` is a pipe, a file, a socket or /dev/null: written directly, with no terminal to ask about. */
export function plainFd(fd: number): boolean {
  if (process.platform === 'win32') return false;
  try {
    const st = fstatSync(fd);
    if (st.isFIFO() || st.isFile() || st.isSocket()) return true;
    return st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

type Done = (err?: Error | null) => void;

/**
 * Standard error for a run: process.stderr on a terminal; a pipe, a file or /dev/null is
 * written directly, as Node writes a pipe on Linux anyway (synchronously), without making
 * process.stderr, which for a pipe loads Node's net module: about 25 ms of every command
 * run by CI or a script that reads what voicectl says. A full non-blocking pipe, and
 * anything else asked of the stream (a listener, end()), goes to process.stderr, made then.
 */
export function errorOutput(): OutStream {
  if (!plainFd(2)) return process.stderr;
  let real: NodeJS.WriteStream | undefined;
  const stream = () => (real ??= process.stderr);
  const direct = fdWriter(2, stream);
  const out = {
    isTTY: false as const,
    columns: undefined,
    get writableLength(): number {
      return real?.writableLength ?? 0;
    },
    get destroyed(): boolean {
      return real?.destroyed ?? false;
    },
    write(chunk: string | Uint8Array, encoding?: BufferEncoding | Done, cb?: Done): boolean {
      const done = typeof encoding === 'function' ? encoding : cb;
      // Once the stream exists (a full pipe), everything goes through it, in order.
      if (real) return done ? real.write(chunk, done) : real.write(chunk);
      const ok = direct.write(chunk);
      if (done) process.nextTick(done);
      return ok;
    },
    end(...args: unknown[]) {
      // stderr stays open for the process's own last words, as process.stderr does.
      const done = args.find((a): a is () => void => typeof a === 'function');
      if (done) process.nextTick(done);
      return out;
    },
    on: (event: string, listener: (...args: unknown[]) => void) => (stream().on(event, listener), out),
    once: (event: string, listener: (...args: unknown[]) => void) => (stream().once(event, listener), out),
    off: (event: string, listener: (...args: unknown[]) => void) => (stream().off(event, listener), out),
    removeListener: (event: string, listener: (...args: unknown[]) => void) => (stream().removeListener(event, listener), out),
    emit: (event: string, ...args: unknown[]) => stream().emit(event, ...args),
  };
  return asOutStream(out);
}

/**
 * A direct writer as the stream the program writes to: it has what is asked of standard
 * error and of help's output (write with its callback, isTTY, columns, the listeners, end),
 * not the rest of a Node stream, which only a terminal's process.stdout or stderr is asked for.
 */
export function asOutStream(writer: FdWriter & { isTTY: false }): OutStream {
  return writer as unknown as OutStream;
}
