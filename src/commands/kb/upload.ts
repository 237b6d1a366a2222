import type { Context } from '../../context.js';
import { SilentExit, UsageError } from '../../errors.js';
import { collectFiles, reportSkipped } from '../../kb/collect.js';
import { ACCEPTED_LIST } from '../../kb/formats.js';
import { waitForJobs } from '../../kb/indexing.js';
import { failed, printResults } from '../../kb/results.js';
import { uploadAll, type UploadOutcome } from '../../kb/uploader.js';
import { forPeople } from '../../io/render.js';
import type { UploadFlags } from './definition.js';
import { noun } from '../../text/text.js';

export default async function kbUpload(ctx: Context, paths: string[], opts: UploadFlags): Promise<void> {
  const plan = await collectFiles(ctx.cwd, paths, opts.folder, ctx.filesInside);
  reportSkipped(ctx, plan.skipped, plan.hidden);
  if (plan.files.length === 0) {
    throw new UsageError('Nothing to upload: no file passed the checks.', { hint: `Accepted formats: ${ACCEPTED_LIST}, up to 50 MB each.` });
  }
  const api = await ctx.api();
  const outcomes = await uploadAll(ctx, api, plan.files, { concurrency: opts.concurrency });

  if (opts.wait) {
    const withJobs = outcomes.filter((o): o is UploadOutcome & { job_id: string } => o.job_id !== undefined);
    const results = await waitForJobs(ctx, api, withJobs.map((o) => o.job_id), {
      label: (done, total) => `Indexing ${total} ${noun(total, 'document')}: ${done} done`,
    });
    for (const o of withJobs) o.index = results.get(o.job_id);
  }

  await printResults(ctx, outcomes, plan.skipped);
  const bad = outcomes.filter(failed).length;
  await forPeople(ctx, () => {
    const c = ctx.errColor;
    const replaced = outcomes.filter((o) => o.replaced).length;
    const ok = outcomes.length - bad;
    const parts = [`${ok} of ${outcomes.length} ${noun(outcomes.length, 'file')} ${opts.wait ? 'uploaded and indexed' : 'uploaded'}`];
    if (bad > 0) parts.push(`${bad} failed`);
    if (replaced > 0) parts.push(`${replaced} replaced an existing file of the same name and kept its id`);
    if (plan.skipped.length > 0) parts.push(`${plan.skipped.length} skipped`);
    ctx.info((bad ? c.red : c.green)(`${parts.join('; ')}.`));
    const job = outcomes.find((o) => o.job_id)?.job_id;
    if (!opts.wait && job) ctx.info(c.dim(`Indexing runs in the background: voicectl kb status ${job} --wait (or upload with --wait).`));
  });
  if (bad > 0) throw new SilentExit(1, { code: 'upload_failed', message: `${bad} of ${outcomes.length} ${noun(outcomes.length, 'file')} failed to upload or index` });
}
