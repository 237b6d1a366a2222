import { basename, dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { render } from '../../io/render.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { openRun, prepareRun, resumeCommand } from '../../campaigns/run/start.js';
import { resumeRun, startRun } from '../../campaigns/run/session.js';
import { runStatus } from '../../campaigns/run/status.js';
import { when } from '../../campaigns/run/when.js';
import { duration, shellQuote } from '../../text/text.js';
import { parsePolicyFile, type PolicyFileValues } from '../../campaigns/run/policy-file.js';
import { readInside, RefusedFile } from '../../gitops/files.js';
import { fsErrorReason, isFsError } from '../../util/fs-error.js';
import type { RunFlags } from './definition.js';
import { spanOrUndefined } from './span.js';
import { rehearsalChoice, runPlan } from './plans.js';
import { runScreen } from './run-screen.js';
import { chooseRateCard } from '../../reports/rate-card.js';
import type { BreakerMode } from '../../campaigns/run/breaker.js';

const NEW_RUN_FLAGS = ['name', 'agent', 'csv', 'contacts', 'fromCampaign', 'skipInvalid', 'strict', 'callingHours', 'waveSize', 'dailyCap', 'attempts', 'retryAfter', 'retryOn', 'deadline', 'exclude', 'journal', 'policy', 'breaker', 'baselineConnectRate', 'rateCard'] as const;

export default async function campaignRun(ctx: Context, action: string | undefined, journalArg: string | undefined, flags: RunFlags): Promise<void> {
  if (action !== undefined && action !== 'status') {
    throw new UsageError(`Unknown argument "${action}": \`campaign run\` takes flags, or \`status JOURNAL\`.`, { hint: 'See voicectl campaign run --help.' });
  }
  if (action === 'status') {
    if (!journalArg) throw new UsageError('Which run? voicectl campaign run status JOURNAL');
    await showStatus(ctx, journalArg);
    return;
  }
  if (journalArg !== undefined) throw new UsageError(`Unexpected argument "${journalArg}".`);
  if (flags.rehearse && (flags.resume !== undefined || flags.dryRun)) {
    throw new UsageError(`--rehearse plays a new run on a sandbox from start to end; ${flags.dryRun ? '--dry-run shows the plan without playing it' : 'a run already under way cannot be rehearsed'}: use one or the other.`);
  }
  if (flags.html !== undefined && !flags.rehearse) throw new UsageError('--html goes with --rehearse (the rehearsal\'s report as a page); for a run\'s report: voicectl campaign report --run JOURNAL --html FILE.');
  if (flags.resume !== undefined) {
    const given = NEW_RUN_FLAGS.filter((k) => flags[k] !== undefined);
    if (given.length > 0) {
      throw new UsageError(`--resume continues the run as its journal describes it; drop --${given.map(kebab).join(', --')}.`);
    }
    await resumeRun(ctx, flags.resume, runScreen(ctx), { dryRun: Boolean(flags.dryRun), acceptRates: Boolean(flags.acceptRates) });
    return;
  }
  if (flags.acceptRates) throw new UsageError('--accept-rates goes with --resume JOURNAL, after the answer-rate breaker paused that run.');
  const file = flags.policy === undefined ? undefined : await readPolicyFile(ctx, flags.policy);
  const plan = runPlan(flags, file);
  // Each guardrail setting: the flag, else the policy file, else the profile (rate_card), else the default.
  const fromFile = file?.guardrails;
  const rateCard = await chooseRateCard({
    ...(flags.rateCard !== undefined ? { flag: { typed: flags.rateCard, path: resolve(ctx.cwd, flags.rateCard) } } : {}),
    ...(fromFile?.rateCard ? { policy: fromFile.rateCard } : {}),
    profile: ctx.settings().profile.rate_card,
  });
  const guard = {
    mode: (flags.breaker as BreakerMode | undefined) ?? fromFile?.mode,
    thresholds: fromFile?.thresholds,
    baselineConnectRate: flags.baselineConnectRate ?? fromFile?.baselineConnectRate,
    ...(flags.baselineConnectRate === undefined && fromFile?.baselineConnectRate !== undefined ? { baselineSetBy: `baseline_connect_rate in ${flags.policy}` } : {}),
    rateCard,
  };
  if (flags.rehearse) {
    // The sandbox is loaded only for a rehearsal.
    const { rehearse } = await import('./rehearse.js');
    return rehearse(ctx, plan, guard, rehearsalChoice(flags));
  }
  const run = await withSpinner(ctx, 'Planning the run', () => prepareRun(ctx, plan, spanOrUndefined, guard));
  await startRun(ctx, run, runScreen(ctx), { dryRun: Boolean(flags.dryRun) });
}

async function showStatus(ctx: Context, path: string): Promise<void> {
  const { journal, api } = await openRun(ctx, path);
  const status = await runStatus(ctx, journal, api);
  await render(ctx, {
    json: status,
    human: async () => {
      ctx.out(`Run "${journal.name}" (${journal.run_id}): ${status.state}${journal.paused_reason ? ` (${journal.paused_reason})` : ''}`);
      await printList(ctx, status.waves.map((w) => ({ ...w, campaign_id: w.campaign_id ?? '', service: w.service_status ?? '' })), [
        { header: 'wave', key: 'n' }, { header: 'campaign', key: 'campaign_id' }, { header: 'state', key: 'state' }, { header: 'service', key: 'service' }, { header: 'contacts', key: 'contacts' },
      ]);
      const list = (r: Record<string, number>) => Object.entries(r).map(([k, v]) => `${v} ${k.replace(/_/g, ' ')}`).join(', ');
      ctx.out(`Contacts: ${list(status.contacts)}`);
      ctx.out(`Last outcome: ${list(status.last_outcomes)}`);
      ctx.out(`Attempts: ${Object.entries(status.attempts).map(([k, v]) => `${v} dialed ${k === '1' ? 'once' : `${k} times`}`).join(', ')}`);
      const tripped = status.breaker?.tripped;
      if (status.after_wave !== undefined) ctx.out(`Next wave: after wave ${status.after_wave} has finished (one wave is on the service at a time)`);
      else if (tripped) ctx.out('Next wave: none until the run is resumed (the answer-rate breaker paused it)');
      else if (status.next_wave_at) {
        const left = (Date.parse(status.next_wave_at) - ctx.now().getTime()) / 1000;
        ctx.out(`Next wave: ${when(Date.parse(status.next_wave_at), ctx.timeZone)}${left > 0 ? ` (in ${duration(left)})` : ' (now)'}`);
      }
      for (const o of status.orphans ?? []) ctx.out(`Wave ${o.wave}: ${o.note}`);
      if (status.spend_text) ctx.out(status.spend_text);
      if (tripped) {
        ctx.out(`Answer-rate breaker: paused the run ${when(Date.parse(tripped.at), ctx.timeZone)}; look at the last waves' calls (voicectl campaign report --run ${shellQuote(path)}) before going on.`);
      }
      if (status.state !== 'finished') ctx.info(ctx.errColor.dim(`Continue with: ${resumeCommand(ctx, path)}`));
      if (tripped) ctx.info(ctx.errColor.dim(`or take the new ${tripped.metric} rate (${Math.round(tripped.rate * 100)}%) as the baseline: ${resumeCommand(ctx, path)} --accept-rates`));
    },
  });
}

/**
 * --policy FILE: a regular file only (a symbolic link or a FIFO is refused, as in the
 * account folder), read and checked before any request.
 */
async function readPolicyFile(ctx: Context, file: string): Promise<PolicyFileValues> {
  const abs = resolve(ctx.cwd, file);
  let text: string;
  try {
    text = await readInside(dirname(abs), basename(abs));
  } catch (err) {
    if (err instanceof RefusedFile) throw new UsageError(`--policy ${file} cannot be used: ${err.message}; voicectl reads the policy only from a regular file.`);
    if (isFsError(err)) throw new UsageError(`--policy ${file} cannot be read: ${fsErrorReason(err)}.`);
    throw err;
  }
  return parsePolicyFile(file, text, { span: spanOrUndefined, now: ctx.now().getTime(), dir: dirname(abs) });
}

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
