/**
 * `export --recordings DIR`: each finished call's recording, a few at a time, named
 * <call_id>.<ext>. A fresh link is asked for per call (links expire after an hour, and
 * a long export outlives them); files already in DIR are skipped before any request.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { recordingLink, type Call } from '../api/calls.js';
import { FailureError } from '../errors.js';
import { downloadToFile, recordingExtension } from './download.js';
import { limiter, type Limiter } from './limiter.js';

export interface RecordingResult {
  downloaded: number;
  skipped: number;
  bytes: number;
  failed: Array<{ callId: string; message: string }>;
}

/** A call id as a file name: anything outside [A-Za-z0-9._-] becomes "_". */
function recordingBaseName(callId: string): string {
  const safe = callId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return safe === '' ? '_' : safe;
}

export class RecordingQueue {
  private readonly run: Limiter;
  private readonly pending = new Set<Promise<void>>();
  private readonly result: RecordingResult = { downloaded: 0, skipped: 0, bytes: 0, failed: [] };

  private constructor(
    private readonly api: ApiClient,
    private readonly dir: string,
    private readonly existing: Set<string>,
    private readonly concurrency: number,
    private readonly signal?: AbortSignal,
  ) {
    this.run = limiter(concurrency);
  }

  static async open(api: ApiClient, dir: string, concurrency: number, signal?: AbortSignal): Promise<RecordingQueue> {
    try {
      await mkdir(dir, { recursive: true });
      const names = await readdir(dir);
      // "<id>.<ext>" whatever the extension; temporary files start with a dot and never count.
      const existing = new Set(names.filter((n) => !n.startsWith('.')).map((n) => n.replace(/\.[^.]*$/, '')));
      return new RecordingQueue(api, dir, existing, concurrency, signal);
    } catch (err) {
      throw new FailureError(`cannot use ${dir} for recordings: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Queues the call's recording; waits while too many are queued, so memory stays flat. */
  async add(call: Call): Promise<void> {
    if (call.has_recording !== true || typeof call.call_id !== 'string') return;
    const base = recordingBaseName(call.call_id);
    if (this.existing.has(base)) {
      this.result.skipped++;
      return;
    }
    this.existing.add(base);
    while (this.pending.size >= this.concurrency * 4) await Promise.race(this.pending);
    const p = this.run(() => this.fetch(call.call_id, base)).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  private async fetch(callId: string, base: string): Promise<void> {
    if (this.signal?.aborted) return;
    try {
      const link = await recordingLink(this.api, callId, this.signal);
      const saved = await downloadToFile(this.api, link.url, (type) => join(this.dir, base + recordingExtension(type, link.url)), this.signal);
      this.result.downloaded++;
      this.result.bytes += saved.bytes;
    } catch (err) {
      if (this.signal?.aborted) return;
      this.result.failed.push({ callId, message: (err as Error).message });
    }
  }

  async finish(): Promise<RecordingResult> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    return this.result;
  }
}
