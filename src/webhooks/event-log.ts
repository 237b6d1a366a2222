/**
 * `listen --log FILE`: an append-only NDJSON file where a line is on disk before the
 * event is acknowledged. The file is opened with O_APPEND and, where the platform has it,
 * O_DSYNC, so each write() returns only once its data is on disk (the same guarantee as a
 * write followed by fdatasync, in one system call); elsewhere each write is followed by an
 * fdatasync. Writes are serialized: one batch, one write at a time, holding every line
 * queued meanwhile, so concurrent events never interleave and a burst costs one sync.
 *
 * A line is whole or absent: a file that ends in a partial line (a crash, a full disk) is
 * ended with a newline at open, so the fragment stands on its own line (replay skips it,
 * a person can read it) and no event is appended onto it; a write that fails part way is
 * cut back to where it started before anything else is written.
 */
import { constants, createReadStream } from 'node:fs';
import { appendFile, open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UserFileError } from '../util/user-file.js';

interface Pending {
  line: Buffer;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class EventLog {
  private queue: Pending[] = [];
  private writing = false;
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  private closing?: Promise<void>;

  /** Bytes of partial line found at the end of the file at open (then ended with a newline). */
  repairedTail = 0;
  /** A write failed part way and could not be cut back yet: nothing is appended until it is. */
  private torn?: number;

  private constructor(readonly path: string, private readonly handle: FileHandle, private readonly dsync: boolean) {}

  static async open(path: string): Promise<EventLog> {
    const { O_APPEND, O_CREAT, O_WRONLY, O_DSYNC, O_NONBLOCK } = constants;
    const dsync = typeof O_DSYNC === 'number' && O_DSYNC > 0;
    // Without blocking: a FIFO with no reader would hold the open forever (ENXIO instead).
    let handle: FileHandle;
    try {
      handle = await open(path, O_APPEND | O_CREAT | O_WRONLY | O_NONBLOCK | (dsync ? O_DSYNC : 0), 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENXIO') throw notALog(path);
      throw err;
    }
    const log = new EventLog(path, handle, dsync);
    try {
      // The log is read back (duplicates, --replay): only a regular file holds what was written.
      if (!(await handle.stat()).isFile()) throw notALog(path);
      log.repairedTail = await partialTail(path);
      if (log.repairedTail > 0) await log.writeAll(Buffer.from('\n'));
    } catch (err) {
      await handle.close();
      throw err;
    }
    return log;
  }

  /**
   * The ids of the events in a log with their time (created_at, else 0), oldest first:
   * what listen seeds its duplicate check with at start. Lines that are not events are passed over.
   */
  static async readIds(path: string, visit: (id: string, createdAtMs: number) => void): Promise<void> {
    let stream;
    try {
      stream = createReadStream(path, { encoding: 'utf8' });
      for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
        const id = /"id"\s*:\s*"([^"\\]+)"/.exec(line)?.[1];
        if (!id) continue;
        const at = /"created_at"\s*:\s*"([^"]+)"/.exec(line)?.[1];
        const ms = at ? Date.parse(at) : Number.NaN;
        visit(id, Number.isNaN(ms) ? 0 : ms);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    } finally {
      stream?.destroy();
    }
  }

  private async writeAll(buf: Buffer): Promise<void> {
    let off = 0;
    // A regular file rarely takes less than asked, but a full disk can: finish or fail.
    while (off < buf.length) {
      const { bytesWritten } = await this.handle.write(buf, off, buf.length - off);
      if (bytesWritten <= 0) throw new Error('the disk accepted no more bytes');
      off += bytesWritten;
    }
    if (!this.dsync) await this.handle.datasync();
  }

  /** Resolves once the line (a newline is added) is written and on disk. */
  append(line: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the log is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ line: Buffer.from(`${line}\n`, 'utf8'), resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // Start on the next turn, so every event parsed in this one shares the write.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      let start: number | undefined;
      try {
        // A write that failed part way is cut back first: never append onto a fragment.
        if (this.torn !== undefined) {
          await this.handle.truncate(this.torn);
          this.torn = undefined;
        }
        start = (await this.handle.stat()).size;
        await this.writeAll(batch.length === 1 ? batch[0]!.line : Buffer.concat(batch.map((p) => p.line)));
        for (const p of batch) p.resolve();
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        if (start !== undefined) {
          this.torn = start;
          await this.handle.truncate(start).then(() => { this.torn = undefined; }, () => {});
        }
        for (const p of batch) p.reject(e);
      }
    }
    this.writing = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Waits for queued appends, then closes the file. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      if (this.writing) await new Promise<void>((r) => this.idleWaiters.push(r));
      await this.handle.close();
    })();
    return this.closing;
  }
}

/**
 * Ends a file's torn last line with a newline, as EventLog.open does for the log, so the
 * fragment stands on its own line and nothing is appended onto it. Returns the fragment's
 * length in bytes (0 when the file ends in a newline, is empty or absent).
 */
export async function endPartialLine(path: string): Promise<number> {
  let torn: number;
  try {
    torn = await partialTail(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  if (torn > 0) await appendFile(path, '\n');
  return torn;
}

function notALog(path: string): UserFileError {
  return new UserFileError(path, 'not_a_file', 'it is not a regular file (a named pipe or a device cannot be read back for duplicates and --replay)');
}

/** The length of the partial line at the end of a file (0 when it ends in a newline, is empty or absent). */
async function partialTail(path: string): Promise<number> {
  const h = await open(path, 'r');
  try {
    const { size } = await h.stat();
    const chunk = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0;) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await h.read(chunk, 0, end - start, start);
      const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (nl >= 0) return size - (start + nl + 1);
      end = start;
    }
    return size;
  } finally {
    await h.close();
  }
}
