/**
 * Writes straight to a file descriptor, for the start path's few kilobytes (the version,
 * help), which would otherwise load Node's whole stream stack. A reader that has gone
 * (`voicectl --help | head -1`) is not an error; a full non-blocking pipe hands the rest
 * to the stream, which waits for it.
 */
import { writeSync } from 'node:fs';

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
