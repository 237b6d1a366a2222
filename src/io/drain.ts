/**
 * Waiting for output to leave the process. A pipe's reader may be slow or late
 * (`| ssh host 'cat > f'`, `| less`, `| (sleep 5; wc -c)`): what voicectl has written
 * and the pipe has not yet taken is held in the stream, and a process that exits then
 * loses it. Nothing here gives up on a slow reader: a reader that never reads keeps
 * voicectl waiting, as it keeps `cat` waiting; one that goes away ends it (EPIPE).
 */
import type { Writable } from 'node:stream';
import { drained } from '../util/drained.js';

export interface DrainableStream {
  write(chunk: string, callback: (err?: Error | null) => void): boolean;
  writableLength?: number;
  destroyed?: boolean;
}

/** Bytes written to `stream` that have not yet left the process. */
export function pending(stream: DrainableStream): number {
  return stream.destroyed ? 0 : (stream.writableLength ?? 0);
}

/**
 * Resolves once everything written to `stream` so far has left the process, or the
 * stream has failed (the failure is the stream's 'error' event, for its owner to report).
 */
export function flushed(stream: DrainableStream): Promise<void> {
  if (pending(stream) === 0) return Promise.resolve();
  // A write's callback runs after every earlier write has finished (or failed): an empty
  // one marks the end of what is queued, with nothing added to the output.
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}

/**
 * Exits with `code` after `ms`, unless the process has ended by itself by then: the net
 * under a stray handle (a socket or timer nobody closed) that would keep a finished
 * command alive. It never cuts output: while a stream still holds data for a slow reader,
 * it waits for that data to leave, then gives the process `ms` again.
 */
export function exitWhenIdle(streams: DrainableStream[], code: number, ms: number, exit: (code: number) => void): void {
  setTimeout(() => {
    if (streams.every((s) => pending(s) === 0)) {
      exit(code);
      return;
    }
    void Promise.all(streams.map(flushed)).then(() => exitWhenIdle(streams, code, ms, exit));
  }, ms).unref();
}

/**
 * Long output (a list of two million calls) written in pieces of about `piece` characters,
 * each handed over only when the stream can take more: the text is never one string (V8
 * refuses strings past about 512 MB), and what waits for a slow reader is a piece or two,
 * not the whole output.
 */
export class PacedWriter {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly stream: Writable,
    private readonly piece = 64 * 1024,
  ) {}

  /** Adds text; resolves at once, or, when a piece is full, once the stream can take more. */
  add(text: string): Promise<void> | undefined {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= this.piece ? this.flush() : undefined;
  }

  /** Hands over what has been added; resolves once the stream can take more. */
  async flush(): Promise<void> {
    if (this.size === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    // A stream that has failed takes nothing more, and says nothing more: its owner reports it.
    if (!this.stream.write(text) && !this.stream.destroyed) await drained(this.stream);
  }
}
