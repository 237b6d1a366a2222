/**
 * `listen --log FILE`: an append-only NDJSON file where a line is on disk before the
 * event is acknowledged. The file is opened with O_APPEND and, where the platform has it,
 * O_DSYNC, so each write() returns only once its data is on disk (the same guarantee as a
 * write followed by fdatasync, in one system call); elsewhere each write is followed by an
 * fdatasync. Writes are serialized: one batch, one write at a time, holding every line
 * queued meanwhile, so concurrent events never interleave and a burst costs one sync.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

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

  private constructor(readonly path: string, private readonly handle: FileHandle, private readonly dsync: boolean) {}

  static async open(path: string): Promise<EventLog> {
    const { O_APPEND, O_CREAT, O_WRONLY, O_DSYNC } = constants;
    const dsync = typeof O_DSYNC === 'number' && O_DSYNC > 0;
    const handle = await open(path, O_APPEND | O_CREAT | O_WRONLY | (dsync ? O_DSYNC : 0), 0o600);
    return new EventLog(path, handle, dsync);
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
      try {
        const buf = batch.length === 1 ? batch[0]!.line : Buffer.concat(batch.map((p) => p.line));
        let off = 0;
        // A regular file rarely takes less than asked, but a full disk can: finish or fail.
        while (off < buf.length) {
          const { bytesWritten } = await this.handle.write(buf, off, buf.length - off);
          if (bytesWritten <= 0) throw new Error('the disk accepted no more bytes');
          off += bytesWritten;
        }
        if (!this.dsync) await this.handle.datasync();
        for (const p of batch) p.resolve();
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
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
