import type { Context } from '../../context.js';
import { ApiError } from '../../api/errors.js';
import { LOOKBACK_MS, pollCalls, TailState } from '../../calls/tail.js';
import type { Call } from '../../api/calls.js';
import { terminalSafe } from '../../io/terminal-text.js';

interface Opts {
  campaign?: string;
  status?: string;
  since?: string;
  interval?: number;
}

export default async function callTail(ctx: Context, opts: Opts): Promise<void> {
  const api = await ctx.api();
  const start = ctx.now().getTime();
  const state = opts.since ? new TailState(Date.parse(opts.since), true) : new TailState(start - LOOKBACK_MS, false);
  const filters = { campaignId: opts.campaign, status: opts.status };
  const intervalMs = Math.round((opts.interval ?? 2) * 1000);
  const json = ctx.machineOutput;
  if (!json) ctx.info(ctx.errColor.dim(`Following calls as they finish${opts.campaign ? ` in campaign ${opts.campaign}` : ''}${opts.status ? ` with status ${opts.status}` : ''}; Ctrl-C stops.`));
  let failing = false;
  while (!ctx.signal.aborted) {
    try {
      const calls = await pollCalls(api, state, filters, ctx.now().getTime(), ctx.signal);
      if (failing) ctx.info(ctx.errColor.dim('Reading calls again.'));
      failing = false;
      for (const call of calls) ctx.out(json ? JSON.stringify(call) : line(ctx, call));
    } catch (err) {
      if (ctx.signal.aborted) break;
      // Wrong key, scope or campaign: polling again would not help.
      if (err instanceof ApiError && err.kind === 'http' && [401, 403, 404].includes(err.status ?? 0)) throw err;
      if (!failing) ctx.warn(`could not read calls (${err instanceof Error ? err.message : String(err)}); trying again every ${intervalMs / 1000} s, nothing is lost meanwhile.`);
      failing = true;
    }
    try {
      await ctx.sleep(intervalMs, ctx.signal);
    } catch {
      break;
    }
  }
}

function line(ctx: Context, call: Call): string {
  const c = ctx.color;
  // Server text is shown, never obeyed: escaped before colour is added.
  const safe = (v: unknown) => terminalSafe(String(v ?? '').replace(/\s+/g, ' ').trim());
  const at = typeof call.end_time === 'string' ? safe(call.end_time.slice(11, 19)) : '--:--:--';
  const status = safe(call.outcome ?? call.status);
  const secs = typeof call.duration_seconds === 'number' ? `${Math.floor(call.duration_seconds / 60)}m ${String(Math.round(call.duration_seconds % 60)).padStart(2, '0')}s` : '';
  const plain = `${at}  ${safe(call.call_id)}  ${safe(call.phone_number)}  ${safe(call.contact?.name)}  ${status}  ${secs}`;
  const width = ctx.io.stdout.columns ?? 0;
  const room = width > 0 ? width - plain.length - 2 : 200;
  const summary = safe(call.summary);
  const cut = room <= 10 ? '' : summary.length > room ? `${summary.slice(0, room - 1)}…` : summary;
  const shown = call.status === 'completed' ? c.green(status) : c.yellow(status);
  return `${c.dim(at)}  ${safe(call.call_id)}  ${safe(call.phone_number)}  ${safe(call.contact?.name)}  ${shown}  ${secs}${cut ? `  ${c.dim(cut)}` : ''}`;
}
