/**
 * The worker thread --jq runs on (src/io/filter.ts), so that Ctrl-C can abandon a filter
 * that never ends (`def f: f; f`). It loads jq as soon as it starts, which the command
 * does while its requests are under way, then waits for its one job: jq's output goes to
 * the main thread in pieces as it comes, then its exit status.
 */
import { parentPort } from 'node:worker_threads';
import { loadJq, runJq } from './jq-engine.js';

export interface JqJob {
  program: string;
  input: Uint8Array;
  env: Record<string, string | undefined>;
}

export type JqMessage =
  | { type: 'stdout' | 'stderr'; chunk: Uint8Array }
  | { type: 'done'; status: number; outOfMemory?: boolean };

const port = parentPort!;
/** Output is sent in pieces of this size at most, not one message per write of jq's. */
const PIECE = 64 * 1024;
let pending: Uint8Array[] = [];
let size = 0;

function flush(): void {
  if (size === 0) return;
  const chunk = Buffer.concat(pending, size);
  port.postMessage({ type: 'stdout', chunk } satisfies JqMessage);
  pending = [];
  size = 0;
}

// Compiled before the job arrives: the command is still reading from the service.
loadJq();
port.once('message', (job: JqJob) => {
  void runJq({
    ...job,
    stdout: (chunk) => {
      pending.push(chunk);
      size += chunk.length;
      if (size >= PIECE) flush();
    },
    stderr: (chunk) => {
      // In order with the output around it.
      flush();
      port.postMessage({ type: 'stderr', chunk } satisfies JqMessage);
    },
  }).then((result) => {
    flush();
    port.postMessage({ type: 'done', ...result } satisfies JqMessage);
    port.close();
  });
});
