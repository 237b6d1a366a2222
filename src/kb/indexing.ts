/**
 * Following indexing jobs until each is completed or failed, with a spinner on a
 * terminal. Polls gently: the first check comes quickly, later ones further apart.
 */
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { jobState, jobStatus, type JobStatus } from '../api/kb.js';
import type { Context } from '../context.js';
import type { IndexResult } from './uploader.js';
import { startSpinner } from '../io/progress.js';

const FIRST_POLL_MS = 300;
const MAX_POLL_MS = 2000;
const PARALLEL_POLLS = 4;

export function indexResult(job: JobStatus): IndexResult {
  const chunks = typeof job.chunks_indexed === 'number' ? job.chunks_indexed : Number(job.chunks_indexed ?? NaN);
  const error = typeof job.error === 'string' && job.error ? job.error : null;
  return { status: job.status, chunks_indexed: Number.isFinite(chunks) ? chunks : undefined, error };
}

/**
 * Waits for every job; `onDone` hears about each one as it finishes. A job whose status
 * cannot be read (gone, 404) is reported as failed; a refused key stops everything.
 */
export async function waitForJobs(
  ctx: Context,
  api: ApiClient,
  jobIds: string[],
  options: { label?: (done: number, total: number) => string; onDone?: (jobId: string, result: IndexResult) => void } = {},
): Promise<Map<string, IndexResult>> {
  const results = new Map<string, IndexResult>();
  const pending = [...new Set(jobIds)];
  const total = pending.length;
  const label = options.label ?? ((done, all) => `Indexing: ${done} of ${all} done`);
  const spinner = startSpinner(ctx, label(0, total));
  let delay = FIRST_POLL_MS;
  try {
    while (pending.length > 0) {
      await ctx.sleep(delay, ctx.signal);
      delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.6));
      const round = [...pending];
      let cursor = 0;
      const poll = async () => {
        while (cursor < round.length) {
          const id = round[cursor++]!;
          let result: IndexResult | undefined;
          try {
            const job = await jobStatus(api, id, ctx.signal);
            if (jobState(job) !== 'pending') result = indexResult(job);
          } catch (err) {
            if (!(err instanceof ApiError) || err.status !== 404) throw err;
            result = { status: 'failed', error: `the indexing job ${id} was not found` };
          }
          if (result) {
            results.set(id, result);
            pending.splice(pending.indexOf(id), 1);
            options.onDone?.(id, result);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_POLLS, round.length) }, poll));
      spinner.text = label(results.size, total);
    }
  } finally {
    spinner.stop();
  }
  return results;
}

/** Whether a finished job succeeded (completed, not failed). */
export function indexed(result: IndexResult | undefined): boolean {
  return result !== undefined && jobState({ status: result.status }) === 'completed';
}
