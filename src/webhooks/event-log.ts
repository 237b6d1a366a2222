/**
 * `listen --log FILE`: an append-only NDJSON file where a line is on disk before the
 * event is acknowledged. The file is opened with O_APPEND; appends are queued and written
 * one batch at a time (one write, one fdatasync), so concurrent events never interleave
 * and a burst costs one sync instead of one per event.
 */
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
  private idle?: () => void;
  private closing?: Promise<void>;

  private constructor(readonly path: string, private readonly handle: FileHandle) {}

  static async open(path: string): Promise<EventLog> {
    const handle = await open(path, 'a', 0o600);
    return new EventLog(path, handle);
  }

  /** Resolves once the line (a newline is added) is written and synced. */
  append(line: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the log is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ line: Buffer.from(`${line}\n`, 'utf8'), resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
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
        await this.handle.datasync();
        for (const p of batch) p.resolve();
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        for (const p of batch) p.reject(e);
      }
    }
    this.writing = false;
    this.idle?.();
  }

  /** Waits for queued appends, then closes the file. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      if (this.writing) await new Promise<void>((r) => { this.idle = r; });
      await this.handle.close();
    })();
    return this.closing;
  }
}
