/**
 * The `call tail` loop: poll, hand out finished calls, sleep, until Ctrl-C. Time comes
 * from ctx.now()/ctx.sleep(), so tests drive it. A failed poll (network, timeout, 5xx,
 * 429) is said once on stderr and the next tick tries again with the window intact;
 * answers no retry can change (a refused key, an unknown campaign, a bad request) end it.
 */
import { ApiError } from '../api/errors.js';
import type { Context } from '../context.js';
import { CliError, NotFoundError } from '../errors.js';
import type { ListedCall } from './model.js';
import { CallTail, type TailSource } from './tail.js';
import { plural } from '../text/text.js';

export interface TailRunOptions {
  intervalMs: number;
  since?: Date;
  status?: string;
  campaignId?: string;
  /** Each finished call, in the order they ended. */
  onCall(call: ListedCall): void;
  /** The local time from which calls are followed, once the first poll has read the window. */
  onReady?(from: Date): void;
}

export async function runTail(ctx: Context, source: TailSource, opts: TailRunOptions): Promise<void> {
  const now = () => ctx.now().getTime();
  const started = ctx.now();
  const tail = new CallTail(source, { now, since: opts.since?.getTime(), status: opts.status });
  let failing = false;
  let ready = false;
  let checked = source.check === undefined;
  while (!ctx.signal.aborted) {
    try {
      if (!checked) {
        await source.check!(ctx.signal);
        checked = true;
      }
      const r = await tail.poll(ctx.signal);
      for (const call of r.finished) opts.onCall(call);
      if (failing) ctx.info('Polling recovered.');
      failing = false;
      if (r.dropped.length > 0) {
        const ids = r.dropped.slice(0, 5).map((c) => c.call_id).join(', ');
        ctx.warn(`${plural(r.dropped.length, 'call')} still unfinished two hours after they started are no longer followed (${ids}${r.dropped.length > 5 ? ', …' : ''}); \`voicectl call get ID\` shows one.`);
      }
      if (!ready) {
        ready = true;
        opts.onReady?.(opts.since ?? started);
      }
    } catch (err) {
      if (ctx.signal.aborted) return;
      for (const call of tail.takeFound()) opts.onCall(call);
      const fatal = fatalError(err, opts.campaignId, ready);
      if (fatal) throw fatal;
      if (!failing) ctx.warn(`poll failed: ${errorText(err)}; trying again every ${opts.intervalMs / 1000}s, nothing is lost meanwhile.`);
      failing = true;
    }
    try {
      await ctx.sleep(opts.intervalMs, ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) return;
      throw err;
    }
  }
}

/** The error that ends the tail, or undefined for a failure the next poll may not meet. */
function fatalError(err: unknown, campaignId: string | undefined, answeredBefore: boolean): Error | undefined {
  if (err instanceof ApiError) {
    // An answer that is not the API's, before any was: most likely a base URL that points
    // somewhere else, which waiting will not fix. Later, a proxy's error page passes.
    if (err.kind === 'unexpected' && !answeredBefore) return err;
    if (err.kind !== 'http') return undefined;
    const status = err.status ?? 0;
    if (status >= 500 || status === 408 || status === 425 || status === 429) return undefined;
    if (status === 404 && campaignId !== undefined) {
      return new NotFoundError(`no campaign with id ${campaignId} (or it belongs to another organization).`, {
        hint: 'Check the id: `voicectl campaign list` shows your campaigns.',
      });
    }
    return err;
  }
  if (err instanceof CliError) return err;
  return err instanceof Error ? err : new Error(String(err));
}

function errorText(err: unknown): string {
  if (err instanceof ApiError && err.kind === 'http') {
    let path = err.url;
    try {
      path = new URL(err.url).pathname;
    } catch {
      // keep the URL as it is
    }
    return `${err.method} ${path} answered HTTP ${err.status}: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
