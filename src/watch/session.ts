/**
 * The watch loop: poll, show, sleep, until the campaign completes, --timeout passes or
 * Ctrl-C. Time comes from ctx.now()/ctx.sleep() so tests drive it. A failed poll is a
 * warning and a longer wait, never the end: only answers that retrying cannot change
 * (no such campaign, a refused key, a bad request) stop the watch.
 */
import { ApiError } from '../api/errors.js';
import type { Context } from '../context.js';
import { CliError, FailureError, InterruptedError, NotFoundError } from '../errors.js';
import { str } from '../calls/model.js';
import { duration, plural } from '../text/text.js';
import { describeResult, evaluateFailIf, type Condition } from './fail-if.js';
import { Poller, campaignState, type TickResult, type WatchSource } from './poller.js';
import { RateMeter } from './rate.js';
import { finishedOf, summarize, totalOf } from './summary.js';
import type { Snapshot, WatchView } from './view.js';

export interface WatchOptions {
  campaignId: string;
  intervalMs: number;
  /** The watch's own deadline (not the request timeout). */
  timeoutMs?: number;
  failIf: Condition[];
  /** Said on Ctrl-C: stopping the watch does not stop the campaign, and how to follow it again. */
  interrupted?: string;
}

/** Extra polls after `completed` while the listed calls catch up with the counts. */
const SETTLE_POLLS = 3;
const MAX_BACKOFF_MS = 30_000;

export async function runWatch(ctx: Context, source: WatchSource, view: WatchView, opts: WatchOptions): Promise<void> {
  const poller = new Poller(source);
  const rate = new RateMeter();
  const started = ctx.now().getTime();
  const deadline = opts.timeoutMs !== undefined ? started + opts.timeoutMs : undefined;
  let failures = 0;
  let lastError: string | undefined;
  let last: TickResult | undefined;
  let settlePolls = 0;
  try {
    for (;;) {
      let delay = opts.intervalMs;
      // A poll in flight at the deadline is cut short too (its own retries could take minutes).
      const signal = deadline === undefined
        ? ctx.signal
        : AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, deadline - ctx.now().getTime()))]);
      try {
        const r = await poller.tick(signal);
        if (failures > 0) view.problem(undefined);
        failures = 0;
        lastError = undefined;
        last = r;
        view.update(snapshotOf(ctx, r, poller, rate, started, opts.campaignId), r.finished);
        const state = campaignState(r.campaign, r.counts);
        if (state === 'completed' || state === 'ended') {
          if (r.unaccounted > 0 && settlePolls < SETTLE_POLLS) {
            settlePolls++;
          } else {
            return finish(ctx, view, poller, r, opts);
          }
        }
      } catch (err) {
        if (ctx.signal.aborted) throw new InterruptedError(opts.interrupted);
        if (signal.aborted) throw timeoutError(opts, last, lastError);
        const fatal = fatalError(err, opts.campaignId, last !== undefined);
        if (fatal) throw fatal;
        failures++;
        const cap = Math.max(opts.intervalMs, MAX_BACKOFF_MS);
        delay = Math.round(Math.min(cap, opts.intervalMs * 2 ** (failures - 1)) * (0.8 + 0.4 * ctx.random()));
        lastError = errorText(err);
        view.problem(`poll failed${failures > 1 ? ` (${failures} times in a row)` : ''}: ${lastError}; retrying in ${duration(delay / 1000, { tenths: true })}`);
      }
      if (deadline !== undefined) {
        const left = deadline - ctx.now().getTime();
        if (left <= 0) throw timeoutError(opts, last, lastError);
        delay = Math.min(delay, left);
      }
      try {
        await ctx.sleep(delay, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) throw new InterruptedError(opts.interrupted);
        throw err;
      }
    }
  } finally {
    view.close();
  }
}

function snapshotOf(ctx: Context, r: TickResult, poller: Poller, rate: RateMeter, started: number, campaignId: string): Snapshot {
  const now = ctx.now().getTime();
  const haveCounts = Object.keys(r.counts).length > 0;
  const total = totalOf(r.counts);
  const finished = haveCounts ? finishedOf(r.counts) : poller.reportedCount;
  rate.add(now, finished);
  const id = str(r.campaign.id) ?? campaignId;
  const draft = campaignState(r.campaign, r.counts) === 'draft';
  return {
    campaignId: id,
    name: str(r.campaign.name),
    status: str(r.campaign.status),
    counts: r.counts,
    total,
    finished,
    callsPerMinute: rate.perMinute(),
    etaSeconds: haveCounts ? rate.etaSeconds(total - finished) : undefined,
    elapsedMs: now - started,
    recent: poller.tally.recent,
    notice: draft
      ? `Campaign ${id} is a draft: it has not been launched. Waiting for \`voicectl campaign launch ${id}\`; Ctrl-C stops.`
      : undefined,
  };
}

function finish(ctx: Context, view: WatchView, poller: Poller, r: TickResult, opts: WatchOptions): void {
  const summary = summarize({ ...r.campaign, id: str(r.campaign.id) ?? opts.campaignId }, poller.tally);
  const results = evaluateFailIf(opts.failIf, {
    contactsByStatus: summary.contacts_by_status,
    outcomes: summary.outcomes,
    totalContacts: summary.total_contacts,
  });
  view.finish(summary, results);
  view.close();
  if (r.unaccounted > 0) {
    ctx.warn(`${plural(r.unaccounted, 'finished contact')} had no finished call in GET /calls; outcomes and durations count the ${summary.calls} calls listed.`);
  }
  const crossed = results.filter((x) => x.crossed);
  if (crossed.length > 0) {
    throw new FailureError(`the campaign crossed --fail-if: ${crossed.map((x) => describeResult(x, summary.total_contacts)).join('; ')}`);
  }
  if (campaignState(r.campaign, r.counts) === 'ended') {
    throw new FailureError(`campaign ${summary.campaign_id} ended with status "${summary.status}" before completing.`);
  }
}

/** The error that ends the watch, or undefined for a failure worth retrying. */
function fatalError(err: unknown, campaignId: string, seenBefore: boolean): Error | undefined {
  if (err instanceof ApiError) {
    if (err.kind !== 'http') return undefined;
    const status = err.status ?? 0;
    if (status >= 500 || status === 408 || status === 429 || status === 425) return undefined;
    if (status === 404 && /\/campaigns\//.test(err.url)) {
      return seenBefore
        ? new NotFoundError(`campaign ${campaignId} no longer exists (404).`)
        : new NotFoundError(`no campaign with id ${campaignId} (or it belongs to another organization).`, {
          hint: 'Check the id: `voicectl campaign list` shows your campaigns.',
        });
    }
    return err;
  }
  if (err instanceof CliError) return err;
  return err instanceof Error ? err : new Error(String(err));
}

function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.kind === 'http') {
      let path = err.url;
      try {
        path = new URL(err.url).pathname;
      } catch {
        // keep the URL as is
      }
      return `${err.method} ${path} answered HTTP ${err.status}: ${err.message}`;
    }
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

function timeoutError(opts: WatchOptions, last: TickResult | undefined, lastError: string | undefined): FailureError {
  const after = duration((opts.timeoutMs ?? 0) / 1000, { tenths: true });
  let where = 'no poll succeeded';
  if (last) {
    const name = str(last.campaign.name);
    const total = totalOf(last.counts);
    where = `campaign ${name ? `"${name}"` : opts.campaignId} is still ${str(last.campaign.status) ?? 'not completed'}`
      + (total > 0 ? ` (${finishedOf(last.counts)} of ${total} contacts finished)` : '');
  }
  return new FailureError(`timed out after ${after}: ${where}${lastError ? `; the last poll failed: ${lastError}` : ''}.`, {
    hint: 'Raise --timeout, or leave it out to wait until the campaign completes.',
  });
}
