import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { listCalls } from '../../api/calls.js';
import { getCampaign } from '../../api/campaigns.js';
import type { TailSource } from '../../calls/tail.js';
import { runTail } from '../../calls/tail-run.js';
import { tailLine } from '../../calls/tail-line.js';
import { recordLine, refuseCsv, refuseFilterOnStream } from '../../io/render.js';
import type { TailFlags } from './definition.js';
import { formatDateTime, zoneAbbreviation } from '../../util/time.js';
import { lineWidth } from '../../io/terminal.js';

type Flags = TailFlags;

export default async function callTail(ctx: Context, flags: Flags): Promise<void> {
  refuseCsv(ctx, 'call tail has no CSV output.', 'Use --json for one JSON object per line, or `voicectl call export` for CSV files.');
  refuseFilterOnStream(ctx, 'voicectl call tail');
  if (flags.campaign !== undefined && flags.campaign.trim() === '') throw new UsageError('--campaign is empty.');
  if (flags.status !== undefined && flags.status.trim() === '') throw new UsageError('--status is empty.');
  const api = await ctx.api();
  const zone = ctx.timeZone;
  const when = (d: Date) => `${formatDateTime(d.getTime(), zone)} ${zoneAbbreviation(zone, d.getTime())}`;
  const campaignId = flags.campaign?.trim();
  const source: TailSource = {
    calls: (q, signal) => listCalls(api, { campaign_id: campaignId, since: q.since }, { limit: q.limit, offset: q.offset }, signal),
    check: campaignId === undefined ? undefined : (signal) => getCampaign(api, campaignId, { signal }),
  };
  await runTail(ctx, source, {
    intervalMs: Math.round(flags.interval * 1000),
    since: flags.since?.in(ctx.timeZone),
    status: flags.status?.trim(),
    campaignId,
    // The call exactly as GET /calls listed it: JSON lines are for programs.
    onCall: (call) => ctx.out(recordLine(ctx, call, () => tailLine(call, lineWidth(ctx, 80), zone))),
    onReady: (from) => ctx.info(ctx.errColor.dim(`Following calls that finish${flags.since ? ` (started since ${when(from)})` : ` from ${when(from)}`}${campaignId ? ` in campaign ${campaignId}` : ''}; times are ${zone}. Ctrl-C stops.`)),
  });
}
