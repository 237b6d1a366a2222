/**
 * A pool of worker threads checking phone batches (phone-worker.ts). The caller keeps
 * file order; the pool only spreads the parsing over the machine's cores.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FailureError } from '../errors.js';
import type { PhoneBatch, PhoneResults } from './phone-worker.js';
import { workerFile } from './worker-file.js';

interface Pending {
  resolve(results: string[]): void;
  reject(err: unknown): void;
  worker: Slot;
}

interface Slot {
  worker: Worker;
  busy: number;
}

/**
 * How many workers a large file gets: one per core besides the main thread's (which
 * reads the file and checks numbers too), at most 3, since each costs ~30 MB; none on
 * a single core or without the built worker.
 */
export function defaultPoolSize(): number {
  return workerFile('phone-worker') ? Math.min(MAX_WORKERS, Math.max(0, availableParallelism() - 1)) : 0;
}

const MAX_WORKERS = 3;
/** Batches a worker holds at once: one being checked, one waiting, so it never idles. */
const PER_WORKER = 2;

const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 16 };

export class PhonePool {
  private slots: Slot[] = [];
  private pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: unknown;

  constructor(size: number, defaultCountry: string | undefined) {
    const file = workerFile('phone-worker');
    if (!file) throw new FailureError('The phone-check worker is missing; run `npm run build`.');
    for (let i = 0; i < size; i++) {
      // Small heap limits: a worker keeps only its cache, and V8's defaults (a young
      // generation up to 48 MB, an old one that grows long before it is collected) put a
      // 1,000,000-row import far over its memory budget.
      const worker = new Worker(file, { workerData: { defaultCountry }, resourceLimits: WORKER_LIMITS });
      const slot: Slot = { worker, busy: 0 };
      worker.on('message', (msg: PhoneResults) => {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        slot.busy--;
        p.resolve(msg.results);
      });
      worker.on('error', (err) => this.fail(err));
      worker.on('exit', (code) => {
        if (code !== 0 && this.failure === undefined) this.fail(new Error(`a phone-check worker stopped (exit ${code})`));
      });
      this.slots.push(slot);
    }
  }

  /** True while some worker has fewer than PER_WORKER batches. */
  hasRoom(): boolean {
    return this.failure === undefined && this.slots.some((s) => s.busy < PER_WORKER);
  }

  /** The results for `phones` (each with its row's country, when a row has one), in the same order. */
  check(phones: string[], countries?: Array<string | null>): Promise<string[]> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: slot });
      slot.busy++;
      slot.worker.postMessage((countries ? { id, phones, countries } : { id, phones }) satisfies PhoneBatch);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('pool closed');
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  private fail(err: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = new FailureError(`Checking phone numbers failed: ${(err as Error)?.message ?? String(err)}`);
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
  }
}
