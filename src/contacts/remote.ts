/**
 * Runs validateContactsFile in engine-worker.ts with bounded heaps and returns what it
 * would have returned here. The main thread only waits, so a 1,000,000-row import stays
 * within its memory budget (150 MB) while the phone checks use every core.
 */
import { Worker } from 'node:worker_threads';
import { FailureError, UsageError } from '../errors.js';
import type { EngineInput, EngineMessage } from './engine-protocol.js';
import type { ValidationResult } from './report.js';
import type { ValidateOptions } from './options.js';

/**
 * The reading thread keeps the counts, the duplicate set (in array buffers, outside
 * these limits) and the bad rows; a small young generation and a capped old one make V8
 * collect early instead of growing to hundreds of megabytes first. 6 MB, not 8: with less
 * garbage a row, more of the young generation survives each collection, V8 grows it to its
 * cap, and 8 MB took a 1,000,000-row run to 145-149 MB (budget 150); 6 MB keeps it at
 * 142-144 MB for about a sixth more time (still some 160,000 rows/s; docs/performance.md).
 */
const ENGINE_LIMITS = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 32 };

/** Thrown when the capped heap was not enough (a file with a great many bad rows): the caller runs it unbounded. */
export class EngineOutOfMemory extends Error {}

export function validateInWorker(file: string, path: string, options: ValidateOptions, helpers: number): Promise<ValidationResult> {
  const { onProgress, signal, workers: _workers, ...plain } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const worker = new Worker(file, {
    workerData: { path, options: plain, helpers } satisfies EngineInput,
    resourceLimits: ENGINE_LIMITS,
  });
  return new Promise<ValidationResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: EngineMessage) => {
      if (m.type === 'progress') onProgress?.({ rows: m.rows });
      else if (m.type === 'done') settle(() => resolve(m.result));
      else {
        const err = m.kind === 'usage' ? new UsageError(m.message, { hint: m.hint })
          : m.kind === 'failure' ? new FailureError(m.message, { hint: m.hint })
            : new Error(m.message);
        settle(() => reject(err));
      }
    });
    worker.on('error', (err: Error & { code?: string }) => {
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new EngineOutOfMemory(err.message) : new FailureError(`Validating the file failed: ${err.message}`)));
    });
    worker.on('exit', (code) => settle(() => reject(new FailureError(`Validating the file stopped unexpectedly (exit ${code}).`))));
  });
}
