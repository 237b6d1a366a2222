import { dirname } from 'node:path';
import type { Context } from '../../context.js';
import { SilentExit, UsageError } from '../../errors.js';
import { runCheck } from '../../quality/check.js';
import { loadRules } from '../../quality/rules.js';
import { reportCheck } from '../../quality/report.js';
import { filtersFrom } from './fields.js';
import type { CheckFlags } from './definition.js';

const MAX_CONCURRENCY = 32;

export default async function callCheck(ctx: Context, flags: CheckFlags): Promise<void> {
  const sources = [flags.campaign, flags.since, flags.call, flags.fromFile].filter((s) => s !== undefined).length;
  if (sources !== 1) {
    throw new UsageError(sources === 0 ? 'Say which calls to check.' : 'Pass one of --campaign, --since, --call and --from-file.', {
      hint: 'For example: voicectl calls check --rules rules.yaml --campaign CAMPAIGN_ID',
    });
  }
  if (flags.until && !flags.since) throw new UsageError('--until is only used with --since.');
  if (flags.seed !== undefined && flags.sample === undefined) throw new UsageError('--seed picks a sample: pass --sample N with it.');
  if (flags.concurrency !== undefined && flags.concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}.`);
  const rules = await loadRules(flags.rules, ctx.signal);
  const times = filtersFrom({ since: flags.since, until: flags.until }, ctx.timeZone);
  const result = await runCheck(ctx, {
    rules,
    rulesDir: dirname(flags.rules),
    source: { campaigns: flags.campaign, calls: flags.call, fromFile: flags.fromFile, since: times.since, until: times.until },
    sample: flags.sample,
    seed: flags.seed,
    harvestDnc: flags.harvestDnc,
    concurrency: flags.concurrency ?? 8,
  });
  await reportCheck(ctx, result, { format: flags.format as 'md' | undefined, junit: flags.junit, title: 'calls check' });
  if (result.errorFailures > 0) throw new SilentExit(1);
}
