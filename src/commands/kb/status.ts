import type { Context } from '../../context.js';
import { jobState, jobStatus, type JobStatus } from '../../api/kb.js';
import { SilentExit } from '../../errors.js';
import { printObject } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { waitForJobs } from '../../kb/indexing.js';
import { note } from '../../io/render.js';
import type { StatusFlags } from './definition.js';

export default async function kbStatus(ctx: Context, jobId: string, opts: StatusFlags): Promise<void> {
  const api = await ctx.api();
  let job: JobStatus = await withSpinner(ctx, 'Fetching the indexing job', () => jobStatus(api, jobId, ctx.signal));
  if (opts.wait && jobState(job) === 'pending') {
    await waitForJobs(ctx, api, [jobId], { label: () => `Indexing (job ${jobId})` });
    // The last word, as the service gives it, is what gets printed.
    job = await jobStatus(api, jobId, ctx.signal);
  }
  await printObject<JobStatus>(ctx, job, [
    { header: 'job', get: (j) => j.job_id ?? j.id ?? jobId },
    { header: 'status', key: 'status' },
    { header: 'chunks indexed', key: 'chunks_indexed' },
    { header: 'error', key: 'error' },
  ]);
  // With --wait the command is a gate (CI waits for indexing): a failed job fails it.
  if (opts.wait && jobState(job) === 'failed') {
    note(ctx, ctx.errColor.red(`Indexing failed${job.error ? `: ${job.error}` : '.'}`));
    throw new SilentExit(1, { code: 'indexing_failed', message: `indexing failed${job.error ? `: ${job.error}` : ''}` });
  }
}
