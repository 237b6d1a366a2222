/**
 * --jq's worker thread (src/io/jq-worker.ts), started ahead of its job: it loads jq (a
 * few hundred milliseconds) while the command reads from the service. Context starts it
 * when it makes the API client under --jq; src/io/filter.ts takes it for the job.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

/** Workers started ahead of their job, by the run (its Context) they belong to. */
const warm = new WeakMap<object, Worker>();

/** Starts the worker for `run`; it does not keep the process alive until given its job. */
export async function warmJq(run: object): Promise<void> {
  const file = jqWorkerFile();
  if (!file || warm.has(run)) return;
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(file);
  worker.unref();
  // One that fails or ends before its job is not used: the job then gets a new one.
  worker.on('error', () => {});
  worker.once('exit', () => {
    if (warm.get(run) === worker) warm.delete(run);
  });
  warm.set(run, worker);
}

/** The worker started for `run`, if there is one; it is the caller's from then on. */
export function takeWarmJq(run: object): Worker | undefined {
  const worker = warm.get(run);
  warm.delete(run);
  return worker;
}

/**
 * The built worker (dist/io/jq-worker.js) from the bundle (dist/main.cjs) or one of its
 * chunks; absent when running from the TypeScript sources (tests), where jq runs on the
 * calling thread.
 */
export function jqWorkerFile(): string | undefined {
  for (const rel of ['./io/jq-worker.js', '../io/jq-worker.js', './jq-worker.js']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (path.endsWith('.js') && existsSync(path)) return path;
  }
  return undefined;
}
