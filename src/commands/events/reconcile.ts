import type { Context } from '../../context.js';
import { FailureError, SilentExit, UsageError } from '../../errors.js';
import { allDeliveries, listEndpoints, type WebhookDelivery, type WebhookEndpoint } from '../../api/webhooks.js';
import { collectAll } from '../../api/pagination.js';
import { readLogs, skippedWarnings, type LogIndex } from '../../events/log-index.js';
import { scan, type Scope } from '../../events/reconcile.js';
import { explainGaps, type GapStatus } from '../../events/delivery-status.js';
import { gapRows, markdown, summary, type GapRow } from '../../events/report.js';
import { secretFromSource } from '../../webhooks/secret-input.js';
import { readSavedSecret } from '../../webhooks/saved-secret.js';
import { checkForwardUrl } from '../../webhooks/target-url.js';
import { printList, type Column } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { isoInZone } from '../../util/time.js';
import type { ReconcileFlags } from './definition.js';

export default async function reconcile(ctx: Context, opts: ReconcileFlags): Promise<void> {
  const scope = scopeOf(opts, ctx.timeZone);
  const filling = opts.backfill !== undefined || opts.intoLog === true;
  if (opts.backfill !== undefined && opts.intoLog) throw new UsageError('Give --backfill URL or --into-log, not both.', { hint: '--into-log appends the events to the log for `listen --replay` to send later.' });
  if (opts.backfill === undefined && (opts.secretFile !== undefined || opts.secretStdin)) throw new UsageError('--secret-file and --secret-stdin go with --backfill URL: they sign the events sent.');
  const target = opts.backfill !== undefined ? checkForwardUrl(opts.backfill) : undefined;
  const secret = target ? await backfillSecret(ctx, opts) : undefined;

  const logs = opts.log;
  let index: LogIndex;
  try {
    // The first log is where backfilled events go: it may not exist yet.
    index = await readLogs(logs, { missingOk: false, signal: ctx.signal }).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' && filling && logs.length === 1) return readLogs(logs, { missingOk: true, signal: ctx.signal });
      throw err;
    });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const e = err as NodeJS.ErrnoException;
    const path = typeof e.path === 'string' ? e.path : logs.join(', ');
    throw new UsageError(`Cannot read ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.code === 'EACCES' ? 'permission denied' : e.code ?? e.message}.`, {
      hint: e.code === 'ENOENT' ? 'Give the file `voicectl listen --log FILE` writes.' : undefined,
    });
  }
  for (const w of skippedWarnings(index)) ctx.warn(w);

  const api = await ctx.api();
  const result = await withSpinner(ctx, 'Reading calls and campaigns', () => scan(api, scope, index, ctx.signal));
  if (result.unreadable.length) {
    ctx.warn(`The API does not find ${result.unreadable.length === 1 ? 'campaign' : 'campaigns'} ${result.unreadable.join(', ')} (404), which calls in scope belong to: ${result.unreadable.length === 1 ? 'its' : 'their'} campaign.completed is not checked.`);
  }
  let statuses: GapStatus[] | undefined;
  if (opts.endpoint !== undefined) {
    const endpointId = opts.endpoint;
    const { records, endpoint } = await withSpinner(ctx, `Reading the deliveries of endpoint ${endpointId}`, () => deliveriesOf(api, endpointId));
    const times = new Map<string, number[]>(index.times);
    for (const [type, list] of result.found) times.set(type, [...(times.get(type) ?? []), ...list]);
    statuses = explainGaps(result.gaps, records, { ids: index.ids, times }, endpoint);
  }
  const rows = gapRows(result.gaps, statuses);
  const line = summary(result, logs);

  if (filling && rows.length > 0) {
    const { runBackfill } = await import('./backfill-run.js');
    await runBackfill(ctx, { gaps: result.gaps, log: logs[0]!, target, secret });
    return;
  }
  if (opts.format === 'md') ctx.out(markdown(rows, line));
  else if (opts.format === 'json') ctx.out(JSON.stringify(rows, null, 2));
  else {
    // EVENT, OBJECT (shortened to a unique prefix when narrow) and VERDICT stay at any
    // width; HAPPENED is in the user's zone, which its header names (-o csv keeps the ISO time).
    const zone = ctx.timeZone;
    const columns: Column<GapRow>[] = [
      { header: 'EVENT', key: 'type' },
      { header: 'OBJECT', key: 'object_id', id: true },
      { header: 'CAMPAIGN', get: (r) => r.campaign_id, drop: 2, id: true },
      { header: `HAPPENED (${zone})`, get: (r) => isoInZone(r.occurred_at, zone), drop: 1, csv: { name: 'happened', get: (r) => r.occurred_at } },
      ...(statuses ? [{ header: 'WHY', csv: 'why', get: (r: GapRow) => r.delivery?.reason, max: 70 }, { header: 'VERDICT', csv: 'verdict', get: (r: GapRow) => r.delivery?.verdict }] : []),
    ];
    await printList(ctx, rows, columns, { empty: line });
  }
  if (rows.length > 0) {
    ctx.info(line);
    ctx.info(`Send them: add --backfill URL (your app), or --into-log then \`voicectl listen --replay ${logs[0]} --unforwarded --forward-to URL\`.`);
    throw new SilentExit(1);
  }
}

function scopeOf(opts: ReconcileFlags, zone: string): Scope {
  if (opts.since !== undefined && opts.campaign !== undefined) throw new UsageError('Give --since or --campaign, not both.');
  if (opts.until !== undefined && opts.since === undefined) throw new UsageError('--until goes with --since.', { hint: 'For example: --since 24h, or --since 2024-05-01 --until 2024-05-02.' });
  if (opts.campaign !== undefined) {
    const ids = opts.campaign.flatMap((c) => c.split(',')).map((s) => s.trim()).filter(Boolean);
    if (ids.length === 0) throw new UsageError('--campaign needs at least one campaign id.');
    return { campaigns: [...new Set(ids)] };
  }
  if (opts.since === undefined) throw new UsageError('Say which events to check: --since T [--until T], or --campaign ID...', { hint: 'For example: voicectl events reconcile --log events.jsonl --since 24h' });
  const since = opts.since.in(zone);
  const until = opts.until?.in(zone);
  if (until !== undefined && until.getTime() <= since.getTime()) throw new UsageError('--until is not after --since.');
  return { since, ...(until ? { until } : {}) };
}

/** As listen gets it: --secret-file or --secret-stdin, then VOICECTL_WEBHOOK_SECRET, then the profile's saved secret. */
async function backfillSecret(ctx: Context, opts: ReconcileFlags): Promise<string> {
  const given = await secretFromSource(ctx, { value: undefined, file: opts.secretFile, stdin: Boolean(opts.secretStdin) });
  if (given !== undefined) return given;
  const env = ctx.env.VOICECTL_WEBHOOK_SECRET;
  if (env !== undefined && env.trim() !== '') return env.trim();
  const saved = readSavedSecret(ctx);
  if (saved) {
    if (opts.endpoint !== undefined && saved.endpointId !== undefined && saved.endpointId !== opts.endpoint) {
      ctx.warn(`Signing with the secret saved for endpoint ${saved.endpointId} in profile "${saved.profileName}" (not ${opts.endpoint}).`);
    }
    return saved.secret;
  }
  throw new UsageError('No secret to sign the backfilled events with.', {
    hint: 'Pass --secret-file FILE or --secret-stdin (the endpoint secret your app verifies with), set VOICECTL_WEBHOOK_SECRET, or save one with `voicectl webhook rotate-secret ID --save-secret`.',
  });
}

async function deliveriesOf(api: Awaited<ReturnType<Context['api']>>, id: string): Promise<{ records: WebhookDelivery[]; endpoint?: WebhookEndpoint }> {
  const { items, incomplete } = await collectAll(allDeliveries(api, id));
  if (incomplete) throw new FailureError(`Could not read every delivery of endpoint ${id}: ${incomplete.message}.`);
  // The spec shows no endpoint read: the list, when the service has one, says what it is subscribed to.
  const endpoint = await listEndpoints(api).then((all) => all.find((e) => e.id === id), () => undefined);
  return { records: items, ...(endpoint ? { endpoint } : {}) };
}
