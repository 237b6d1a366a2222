/**
 * Where an export's text goes: stdout, or --out through a temporary file renamed only
 * on success. Writes wait for the stream to drain, so memory stays flat however many
 * rows pass through.
 */
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { FailureError, SilentExit } from '../errors.js';
import { openAtomic, type AtomicFile } from '../util/atomic-file.js';
import { drained } from '../util/drained.js';
import { fsErrorReason } from '../util/fs-error.js';

export interface Sink {
  write(data: string | Uint8Array): Promise<void>;
  /** The output is complete: rename into place (a file) or just flush (stdout). */
  commit(): Promise<void>;
  /** Something failed: remove the temporary file. */
  discard(): Promise<void>;
  /** Whether the output is a file (the terminal stays free for a progress bar). */
  readonly toFile: boolean;
}

export async function openSink(ctx: Context, out: string | undefined): Promise<Sink> {
  if (!out || out === '-') return streamSink(ctx.io.stdout as Writable, false);
  let file: AtomicFile;
  try {
    file = await openAtomic(out);
  } catch (err) {
    throw new FailureError(`cannot write ${out}: ${fsErrorReason(err)}.`, { cause: err });
  }
  const sink = streamSink(file.stream, true, out);
  return {
    toFile: true,
    write: sink.write,
    async commit() {
      try {
        await file.commit();
      } catch (err) {
        throw new FailureError(`cannot finish ${out}: ${fsErrorReason(err)}.`, { cause: err });
      }
    },
    discard: () => file.discard(),
  };
}

function streamSink(stream: Writable, toFile: boolean, name = 'standard output'): Sink {
  let failure: Error | undefined;
  const onError = (err: Error) => {
    failure = err;
  };
  stream.on('error', onError);
  const check = () => {
    if (!failure) return;
    // The reader went away (`| head`): that is how pipes end, not an error worth a message.
    if ((failure as NodeJS.ErrnoException).code === 'EPIPE') throw new SilentExit(0);
    throw new FailureError(`cannot write the export to ${name}: ${fsErrorReason(failure)}.`, { cause: failure });
  };
  return {
    toFile,
    async write(data: string | Uint8Array) {
      check();
      let more: boolean;
      try {
        more = stream.write(data);
      } catch (err) {
        // A file as stdout is written synchronously: its errors are thrown, not emitted.
        failure = err as Error;
        check();
        throw err;
      }
      if (!more) {
        await drained(stream);
        check();
      }
    },
    async commit() {
      check();
      stream.off('error', onError);
    },
    async discard() {
      stream.off('error', onError);
    },
  };
}
