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
 * An output for a run: the stream on a terminal; a pipe, a file or /dev/null is written
 * directly, as Node writes a pipe on Linux anyway (synchronously), without making
 * process.stdout or process.stderr, which for a pipe loads Node's net module: about 25 ms
 * of a command run by CI or a script that reads what voicectl says. A full non-blocking
 * pipe, and anything else asked of the stream (a listener), goes to the stream, made then.
 * Help writes both of its outputs so; a command, standard error.
 */
export function directOutput(fd: 1 | 2, stream: () => NodeJS.WriteStream): OutStream {
  if (!plainFd(fd)) return stream();
  let real: NodeJS.WriteStream | undefined;
  const made = () => (real ??= stream());
  const direct = fdWriter(fd, made);
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
      // The output stays open for the process's own last words, as process.stderr does.
      const done = args.find((a): a is () => void => typeof a === 'function');
      if (done) process.nextTick(done);
      return out;
    },
    on: (event: string, listener: (...args: unknown[]) => void) => (made().on(event, listener), out),
    once: (event: string, listener: (...args: unknown[]) => void) => (made().once(event, listener), out),
    off: (event: string, listener: (...args: unknown[]) => void) => (made().off(event, listener), out),
    removeListener: (event: string, listener: (...args: unknown[]) => void) => (made().removeListener(event, listener), out),
    emit: (event: string, ...args: unknown[]) => made().emit(event, ...args),
  };
  // What is asked of help's outputs and of standard error, not the rest of a Node stream.
  return out as unknown as OutStream;
}
