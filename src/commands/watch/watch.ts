import type { Context } from '../../context.js';
import { FailureError, InterruptedError, UsageError } from '../../errors.js';
import { getCampaign } from '../../api/campaigns.js';
import { listCalls } from '../../api/calls.js';
import { FailIfSyntaxError, parseFailIf, type Condition } from '../../watch/fail-if.js';
import type { WatchSource } from '../../watch/poller.js';
import { runWatch } from '../../watch/session.js';
import type { WatchView } from '../../watch/view.js';
import { JsonView, PlainView } from '../../watch/view-lines.js';
import { TerminalView } from '../../watch/view-terminal.js';
import { chooseView, refuseCsv, refuseFilterOnStream } from '../../io/render.js';
import type { WatchFlags } from './definition.js';


export default async function watch(ctx: Context, campaignId: string, flags: WatchFlags): Promise<void> {
  // Everything the user typed is checked before the first request (exit 2).
  const failIf = parseConditions(flags.failIf ?? []);
  refuseCsv(ctx, 'watch has no CSV output.', 'Use --json for one JSON object per line.');
  refuseFilterOnStream(ctx, `voicectl watch ${campaignId}`);
  if (campaignId.trim() === '') throw new UsageError('the campaign id is empty.');

  const api = await ctx.api();
  if (flags.serve !== undefined) return serve(ctx, campaignId, flags.serve === true ? 0 : flags.serve, flags.interval);
  const source: WatchSource = {
    campaign: (signal) => getCampaign(api, campaignId, { signal }),
    calls: (q, signal) => listCalls(api, { campaign_id: campaignId, since: q.since }, { limit: q.limit, offset: q.offset }, signal),
  };
  const view = pickView(ctx, campaignId);
  // The terminal must come back however the command ends.
  ctx.onClose(() => view.close());
  await runWatch(ctx, source, view, {
    campaignId,
    intervalMs: Math.round(flags.interval * 1000),
    timeoutMs: flags.timeout === undefined ? undefined : Math.round(flags.timeout * 1000),
    failIf,
    interrupted: `Interrupted: stopped watching. Campaign ${campaignId} keeps running on the service: \`voicectl watch ${campaignId}\` follows it again.`,
  });
}

/** --serve: the live page until Ctrl-C (exit 130, as watching ends). */
async function serve(ctx: Context, campaignId: string, port: number, intervalSeconds: number): Promise<void> {
  const api = await ctx.api();
  const { serveLive } = await import('../../reports/live.js');
  let live;
  try {
    live = await serveLive(api, campaignId, {
      port,
      zone: ctx.timeZone,
      // Polled at least every second: a finished call is on the page within two.
      intervalMs: Math.round(Math.min(intervalSeconds, 1) * 1000),
      now: () => ctx.now(),
      sleep: (ms, signal) => ctx.sleep(ms, signal),
      signal: ctx.signal,
      onError: (err) => ctx.warn(`reading the campaign failed; the page keeps the last report: ${(err as Error).message}`),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new FailureError(`cannot serve on 127.0.0.1:${port}: ${code === 'EADDRINUSE' ? 'the port is in use' : 'not allowed'}.`, { hint: 'Pick another port, or give none for any free one: --serve.' });
    throw err;
  }
  ctx.out(live.url);
  ctx.info('The live report is served on 127.0.0.1 only, at the link above (keep it private: the link is the key). Ctrl-C stops.');
  await live.done;
  await live.close();
  throw new InterruptedError(`Interrupted: stopped serving. Campaign ${campaignId} keeps running on the service.`);
}

function parseConditions(exprs: string[]): Condition[] {
  try {
    return exprs.flatMap((e) => parseFailIf(e));
  } catch (err) {
    if (err instanceof FailIfSyntaxError) throw new UsageError(`--fail-if: ${err.message}`);
    throw err;
  }
}

/** The live view needs a real terminal on stdout; logs and pipes get one line per change. */
function pickView(ctx: Context, campaignId: string): WatchView {
  return chooseView<WatchView>(ctx, { json: () => new JsonView(ctx), terminal: () => new TerminalView(ctx, campaignId), plain: () => new PlainView(ctx) });
}
