/**
 * A run from its first forecast to its end, as `campaign run` and `campaign redial
 * --at-requested-time` both start one: the forecast, the confirmation, the journal
 * written, the waves driven, the summary; and the same for --resume. What a person sees
 * is the verb's: it hands in a RunScreen.
 */
import { resumeAfterTrip, tripText } from './guardrails.js';
import { UsageError } from '../../errors.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { drive } from './dispatcher.js';
import { forecast, type Forecast } from './forecast.js';
import { JournalFile, readJournal, type Journal } from './journal.js';
import { lockJournal } from './lock.js';
import { account, openRun, reapplyExclusions, refuseExisting, resumeCommand, type NewRun } from './start.js';
import { runView } from './view.js';
import { grouped } from '../../text/text.js';

export interface RunScreen {
  /** The forecast and the wave plan: the result of a dry run, information before a real one. */
  forecast(j: Journal, f: Forecast, o: { noHistory: boolean; dryRun: boolean }): Promise<void>;
  /** Before real calls: asks, or needs --yes; throws to cancel. */
  confirm(f: Forecast): Promise<void>;
  /** The journal is written: where it is and the command that continues the run. */
  started(path: string, resume: string): void;
  summary(j: Journal, path: string): Promise<void>;
  /** A line for the person (stderr); `emphasis` for what was not done (a dry run). */
  note(line: string, emphasis?: boolean): void;
  /** What continues the run after Ctrl-C or a pause, when not `campaign run --resume` (a rehearsal's). */
  resume?(path: string): string;
}

/** A new run: forecast, then (unless a dry run) confirmation, the journal, and the waves until the end. */
export async function startRun(ctx: Context, run: NewRun & { api: ApiClient }, screen: RunScreen, o: { dryRun: boolean }): Promise<void> {
  const f = forecast(run.journal, run.history, ctx.now().getTime());
  await screen.forecast(run.journal, f, { noHistory: run.history.calls === 0, dryRun: o.dryRun });
  if (o.dryRun) {
    screen.note('Dry run: nothing was created or launched, and no journal was written.', true);
    return;
  }
  await screen.confirm(f);
  // The lock before the first write: two new runs on one list would otherwise both start.
  const lock = await lockJournal(run.path, { now: ctx.now });
  try {
    refuseExisting(run.path);
    const file = new JournalFile(run.path, run.journal, ctx.now);
    await file.save();
    screen.started(run.path, resumeCommand(ctx, run.path));
    await driveToEnd(ctx, file, run.api, screen);
  } finally {
    await lock.release();
  }
}

/** --resume: the journal checked against the account, the exclude lists read again, then on as a new run goes. */
export async function resumeRun(ctx: Context, path: string, screen: RunScreen, o: { dryRun: boolean; acceptRates?: boolean }): Promise<void> {
  const opened = await openRun(ctx, path);
  if (o.dryRun) return resumeLocked(ctx, path, opened, screen, o);
  // One runner per journal, for the whole run; read again under the lock (another run may have just written it).
  const lock = await lockJournal(path, { now: () => ctx.realNow() });
  try {
    await resumeLocked(ctx, path, { journal: await readJournal(path, account(ctx)), api: opened.api }, screen, o);
  } finally {
    await lock.release();
  }
}

async function resumeLocked(ctx: Context, path: string, { journal, api }: { journal: Journal; api: ApiClient }, screen: RunScreen, o: { dryRun: boolean; acceptRates?: boolean }): Promise<void> {
  const newlyExcluded = await reapplyExclusions(ctx, journal);
  if (newlyExcluded > 0) screen.note(`${grouped(newlyExcluded)} waiting contact${newlyExcluded === 1 ? ' now on an exclude list is' : 's now on an exclude list are'} left out.`);
  if (journal.state === 'finished') {
    await screen.summary(journal, path);
    screen.note('This run has finished; nothing is left to release.');
    return;
  }
  if (journal.guardrails?.state.tripped) {
    const t = journal.guardrails.state.tripped;
    screen.note(`This run was paused by the answer-rate breaker: ${tripText(t)}.`);
    if (!o.dryRun) screen.note(resumeAfterTrip(journal, Boolean(o.acceptRates))!);
  } else if (o.acceptRates) {
    throw new UsageError('--accept-rates goes with a run the answer-rate breaker paused; this one was not.');
  }
  const f = forecast(journal, undefined, ctx.now().getTime());
  await screen.forecast(journal, f, { noHistory: false, dryRun: o.dryRun });
  if (o.dryRun) {
    screen.note('Dry run: nothing was sent.', true);
    return;
  }
  const pending = journal.waves.some((w) => w.state !== 'done' && w.state !== 'abandoned');
  if (f.contacts > 0 || pending) await screen.confirm(f);
  await driveToEnd(ctx, new JournalFile(path, journal, ctx.now), api, screen);
}

async function driveToEnd(ctx: Context, file: JournalFile, api: ApiClient, screen: RunScreen): Promise<void> {
  await drive({ ctx, api, file, view: runView(ctx), resume: screen.resume?.(file.path) ?? resumeCommand(ctx, file.path) });
  await screen.summary(file.journal, file.path);
}
