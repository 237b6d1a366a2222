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
import { duration } from '../../io/text.js';
import { parsePolicyFile, type PolicyFileValues } from '../../campaigns/run/policy-file.js';
import { readInside, RefusedFile } from '../../gitops/files.js';
import { fsErrorReason, isFsError } from '../../util/fs-error.js';
import { spanOrUndefined, type RunFlags } from './definition.js';
import { runScreen } from './run-screen.js';
import { parseRateCard, type RateCard } from '../../campaigns/run/rate-card.js';
import type { BreakerMode } from '../../campaigns/run/breaker.js';
import { readUserText, userFileReason } from '../../util/user-file.js';

/** --rate-card FILE: read and checked before anything is sent (exit 2 naming the file). */
async function readRateCard(file: string): Promise<RateCard> {
  let text: string;
  try {
    text = await readUserText(file, { maxBytes: 1024 * 1024 });
  } catch (err) {
    throw new UsageError(`--rate-card ${file}: ${userFileReason(err)}`);
  }
  return parseRateCard(text, `--rate-card ${file}`);
}

const NEW_RUN_FLAGS = ['name', 'agent', 'csv', 'contacts', 'fromCampaign', 'skipInvalid', 'strict', 'callingHours', 'waveSize', 'dailyCap', 'attempts', 'retryAfter', 'retryOn', 'deadline', 'exclude', 'journal', 'policy', 'baselineConnectRate', 'rateCard'] as const;

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
  if (flags.resume !== undefined) {
    const given = NEW_RUN_FLAGS.filter((k) => flags[k] !== undefined);
    if (given.length > 0) {
      throw new UsageError(`--resume continues the run as its journal describes it; drop --${given.map(kebab).join(', --')}.`);
    }
    await resumeRun(ctx, flags.resume, runScreen(ctx), { dryRun: Boolean(flags.dryRun), acceptRates: Boolean(flags.acceptRates) });
    return;
  }
  if (flags.acceptRates) throw new UsageError('--accept-rates goes with --resume JOURNAL, after the answer-rate breaker paused that run.');
  const rateCard = flags.rateCard === undefined ? undefined : await readRateCard(flags.rateCard);
  const merged = flags.policy === undefined ? flags : withPolicyFile(flags, await readPolicyFile(ctx, flags.policy));
  const guard = { mode: flags.breaker as BreakerMode | undefined, baselineConnectRate: flags.baselineConnectRate, rateCard };
  const run = await withSpinner(ctx, 'Planning the run', () => prepareRun(ctx, merged, spanOrUndefined, guard));
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
      const list = (r: Record<string, number>) => Object.entries(r).map(([k, v]) => `${v} ${k.replace('_', ' ')}`).join(', ');
      ctx.out(`Contacts: ${list(status.contacts)}`);
      ctx.out(`Last outcome: ${list(status.last_outcomes)}`);
      ctx.out(`Attempts: ${Object.entries(status.attempts).map(([k, v]) => `${v} dialed ${k === '1' ? 'once' : `${k} times`}`).join(', ')}`);
      if (status.after_wave !== undefined) ctx.out(`Next wave: after wave ${status.after_wave} has finished (one wave is on the service at a time)`);
      else if (status.next_wave_at) {
        const left = (Date.parse(status.next_wave_at) - ctx.now().getTime()) / 1000;
        ctx.out(`Next wave: ${when(Date.parse(status.next_wave_at), ctx.timeZone)}${left > 0 ? ` (in ${duration(left)})` : ' (now)'}`);
      }
      for (const o of status.orphans ?? []) ctx.out(`Wave ${o.wave}: ${o.note}`);
      if (status.spend_text) ctx.out(status.spend_text);
      if (status.breaker?.tripped) ctx.out(`Answer-rate breaker: tripped (${journal.paused_reason ?? 'see the journal'}); --resume continues after a look, --resume --accept-rates takes the new rate.`);
      if (status.state !== 'finished') ctx.info(ctx.errColor.dim(`Continue with: ${resumeCommand(ctx, path)}`));
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

/** The file's settings under the flags: a flag given on the command line wins; windows win per country; exclude lists add up. */
function withPolicyFile(flags: RunFlags, file: PolicyFileValues): RunFlags {
  const out: RunFlags = { ...flags };
  if (file.callingHours) out.callingHours = [...file.callingHours, ...(flags.callingHours ?? [])];
  if (file.exclude) out.exclude = [...file.exclude, ...(flags.exclude ?? [])];
  for (const key of ['waveSize', 'dailyCap', 'attempts', 'retryAfter', 'retryOn', 'deadline', 'excludeCalledWithin'] as const) {
    if (flags[key] === undefined && file[key] !== undefined) (out as Record<string, unknown>)[key] = file[key];
  }
  return out;
}

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
