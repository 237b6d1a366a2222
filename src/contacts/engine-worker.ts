/**
 * A large file is validated in this worker thread rather than on the main thread, so
 * its memory can be bounded with resourceLimits (V8 offers no such limit for the main
 * thread short of command-line flags). remote.ts starts it and rebuilds the answer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CliError, FailureError, UsageError } from '../errors.js';
import { validateContactsFile } from './validate.js';
import type { EngineInput, EngineMessage } from './engine-protocol.js';

const input = workerData as EngineInput;
const post = (m: EngineMessage) => parentPort!.postMessage(m);

try {
  const result = await validateContactsFile(input.path, {
    ...input.options,
    workers: input.helpers,
    onProgress: ({ rows }) => post({ type: 'progress', rows }),
  });
  post({ type: 'done', result });
} catch (err) {
  const kind = err instanceof UsageError ? 'usage' : err instanceof FailureError ? 'failure' : 'other';
  post({ type: 'error', kind, message: (err as Error)?.message ?? String(err), hint: err instanceof CliError ? err.hint : undefined });
}
