import { basename, dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError, FailureError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { render } from '../../io/render.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { countStates, drive, iso } from '../../campaigns/run/dispatcher.js';
import { forecast, forecastLines, type Forecast } from '../../campaigns/run/forecast.js';
import { JournalFile, type Journal } from '../../campaigns/run/journal.js';
import { DEFAULT_WAVE_LENGTH_MS } from '../../campaigns/run/history.js';
import { openRun, prepareRun, reapplyExclusions, resumeCommand } from '../../campaigns/run/start.js';
import { runStatus } from '../../campaigns/run/status.js';
import { runView } from '../../campaigns/run/view.js';
import { plural } from '../../io/text.js';
import { parsePolicyFile, type PolicyFileValues } from '../../campaigns/run/policy-file.js';
import { readInside, RefusedFile } from '../../gitops/files.js';
import { fsErrorReason, isFsError } from '../../util/fs-error.js';
import { spanOrUndefined, type RunFlags } from './definition.js';

const NEW_RUN_FLAGS = ['name', 'agent', 'csv', 'contacts', 'fromCampaign', 'callingHours', 'waveSize', 'dailyCap', 'attempts', 'retryAfter', 'retryOn', 'deadline', 'exclude', 'journal', 'policy'] as const;

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
    await resume(ctx, flags.resume, Boolean(flags.dryRun));
    return;
  }
  const merged = flags.policy === undefined ? flags : withPolicyFile(flags, await readPolicyFile(ctx, flags.policy));
  const run = await withSpinner(ctx, 'Planning the run', () => prepareRun(ctx, merged, spanOrUndefined));
  const f = forecast(run.journal, run.history, ctx.now().getTime());
  await showForecast(ctx, run.journal, f, run.history.calls === 0, Boolean(flags.dryRun));
  if (flags.dryRun) {
    ctx.info(ctx.errColor.yellow('Dry run: nothing was created or launched, and no journal was written.'));
    return;
  }
  await confirmRun(ctx, f);
  const file = new JournalFile(run.path, run.journal, ctx.now);
  await file.save();
  ctx.info(`Journal: ${run.path} (continue after an interruption with: ${resumeCommand(ctx, run.path)})`);
  await go(ctx, file, run.api);
}

async function resume(ctx: Context, path: string, dryRun: boolean): Promise<void> {
  const { journal, api } = await openRun(ctx, path);
  const newlyExcluded = await reapplyExclusions(ctx, journal);
  if (newlyExcluded > 0) ctx.info(`${plural(newlyExcluded, 'waiting contact')} now on an exclude list ${newlyExcluded === 1 ? 'is' : 'are'} left out.`);
  if (journal.state === 'finished') {
    await printSummary(ctx, journal, path);
    ctx.info(`This run has finished; nothing is left to release.`);
    return;
  }
  const f = forecast(journal, undefined, ctx.now().getTime());
  await showForecast(ctx, journal, f, false, dryRun);
  if (dryRun) {
    ctx.info(ctx.errColor.yellow('Dry run: nothing was sent.'));
    return;
  }
  const pending = journal.waves.some((w) => w.state !== 'done' && w.state !== 'abandoned');
  if (f.contacts > 0 || pending) await confirmRun(ctx, f);
  await go(ctx, new JournalFile(path, journal, ctx.now), api);
}

async function go(ctx: Context, file: JournalFile, api: Awaited<ReturnType<Context['api']>>): Promise<void> {
  await drive({ ctx, api, file, view: runView(ctx), resume: resumeCommand(ctx, file.path) });
  await printSummary(ctx, file.journal, file.path);
}

async function showForecast(ctx: Context, j: Journal, f: Forecast, noHistory: boolean, dryRun = false): Promise<void> {
  for (const line of forecastLines(f, j)) ctx.info(line);
  if (noHistory) ctx.info(ctx.errColor.dim(`  (With no history a wave is expected to last ${DEFAULT_WAVE_LENGTH_MS / 60_000} min.)`));
  const table = async () => {
    if (f.waves.length === 0) return;
    await printList(ctx, f.waves.map((w, i) => ({ wave: i + 1, at: iso(Date.parse(w.at)), contacts: w.contacts })), [
      { header: 'wave', key: 'wave' }, { header: 'released at', key: 'at' }, { header: 'contacts', key: 'contacts' },
    ]);
  };
  // A dry run's plan is its result; before a real run the plan is for the person watching.
  if (dryRun) await render(ctx, { json: { name: j.name, agent_id: j.agent_id, policy: j.policy, forecast: f }, human: table });
  else await render(ctx, { terminalOnly: true, human: table });
}

/** The run places real calls: it asks, or needs --yes, stating the forecast. */
async function confirmRun(ctx: Context, f: Forecast): Promise<void> {
  if (ctx.opts.yes) return;
  const what = `This run dials up to ${plural(f.contacts, 'contact')} in ${plural(f.waves.length, 'wave')}${f.expected_finish ? `, finishing about ${iso(Date.parse(f.expected_finish))}` : ''}: real calls that use the account balance.`;
  if (!ctx.canPrompt()) {
    const why = ctx.opts.input === false ? '--no-input is set' : 'no one is at a terminal to confirm';
    throw new UsageError(`${what} Pass --yes to confirm (${why}).`, { hint: 'Nothing was sent. Add --yes (or -y) to start the run; --dry-run shows the plan.' });
  }
  if (!(await confirm(ctx, `${what} Start?`, { flag: '--yes' }))) throw new FailureError('Cancelled: nothing was created or launched.');
}

async function printSummary(ctx: Context, j: Journal, path: string): Promise<void> {
  const summary = {
    journal: path,
    run_id: j.run_id,
    state: j.state,
    waves: j.waves.map((w) => ({ n: w.n, name: w.name, state: w.state, campaign_id: w.campaign_id, contacts: w.contacts.length, launched_at: w.launched_at })),
    contacts: countStates(j),
    dialed: j.contacts.reduce((n, c) => n + c.attempts, 0),
  };
  await render(ctx, {
    json: summary,
    human: async () => {
      await printList(ctx, summary.waves.map((w) => ({ ...w, campaign_id: w.campaign_id ?? '' })), [
        { header: 'wave', key: 'n' }, { header: 'campaign', key: 'campaign_id' }, { header: 'state', key: 'state' }, { header: 'contacts', key: 'contacts' },
      ]);
      const counts = Object.entries(summary.contacts).map(([k, v]) => `${v} ${k.replace('_', ' ')}`).join(', ');
      ctx.info(`Run ${j.state}: ${plural(summary.waves.length, 'wave')}, ${plural(summary.dialed, 'dial')}; contacts: ${counts}.`);
    },
  });
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
      ctx.out(`Contacts: ${Object.entries(status.contacts).map(([k, v]) => `${v} ${k.replace('_', ' ')}`).join(', ')}`);
      if (status.after_wave !== undefined) ctx.out(`Next wave: after wave ${status.after_wave} has finished (one wave is on the service at a time)`);
      else if (status.next_wave_at) ctx.out(`Next wave: ${iso(Date.parse(status.next_wave_at))}`);
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
