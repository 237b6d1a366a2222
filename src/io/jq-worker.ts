/**
 * The worker thread --jq runs on (src/io/filter.ts), so that Ctrl-C can abandon a filter
 * that never ends (`def f: f; f`). It loads jq as soon as it starts, which the command
 * does while its requests are under way, then waits for its one job: jq's output goes to
 * the main thread in pieces as it comes, then its exit status.
 */
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { loadJq, runJq } from './jq-engine.js';

/**
 * The input comes as it is read from the service, so jq parses one page while the next
 * is on its way, as a pipe into jq would: pieces (Uint8Array) on `input`, then null;
 * `arrived` counts the pieces sent, for jq's reads to wait on (Atomics) when none is there.
 */
export interface JqJob {
  program: string;
  env: Record<string, string | undefined>;
  input: MessagePort;
  arrived: Int32Array;
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
    program: job.program,
    env: job.env,
    input: () => {
      for (;;) {
        const seen = Atomics.load(job.arrived, 0);
        const m = receiveMessageOnPort(job.input);
        if (m) return m.message as Uint8Array | null;
        // Woken by the next piece; the time limit only lets a terminate() through.
        Atomics.wait(job.arrived, 0, seen, 200);
      }
    },
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
    job.input.close();
    port.close();
  });
});
