/**
 * `listen --from-api`: events built from polling the API (src/events/from-api.ts), sent
 * through listen's own path: logged (on disk before anything else), printed, forwarded.
 */
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { UserFileError } from '../../util/user-file.js';
import { ApiError } from '../../api/errors.js';
import { configDir } from '../../config/profiles.js';
import { freshCursor, poll, readCursor, saveCursor, type Cursor } from '../../events/from-api.js';
import { readLogs, skippedWarnings } from '../../events/log-index.js';
import { deliveryHeaders, type RebuiltEvent } from '../../events/rebuild.js';
import { EventLog } from '../../webhooks/event-log.js';
import { EventPoster } from '../../webhooks/forward.js';
import { Forwarder, Ledger } from '../../webhooks/forwarding.js';
import type { AcceptedEvent } from '../../webhooks/receiver.js';
import { eventLine, eventRecord, forwardLine } from '../../webhooks/listen-format.js';
import { recordLine } from '../../io/render.js';
import { formatDateTime, parseTime, zoneAbbreviation } from '../../util/time.js';
import { lineWidth } from '../../io/terminal.js';
import { noun, shellQuote } from '../../text/text.js';
import { resolveSecret } from './secret-source.js';
import type { ListenFlags } from './definition.js';

type Options = Omit<ListenFlags, 'events' | 'forwardTo'> & { events?: string[]; forwardTo?: string };

export async function listenFromApi(ctx: Context, opts: Options): Promise<void> {
  if (opts.endpoint !== undefined && opts.forwardTo === undefined) throw new UsageError('--endpoint names the secret that signs forwarded events: it goes with --forward-to.');
  let since: Date | undefined;
  if (opts.since !== undefined) {
    try {
      since = parseTime(opts.since, ctx.now(), ctx.timeZone);
    } catch (err) {
      throw new UsageError(`--since: ${(err as Error).message}`);
    }
  }
  // Forwarded events are signed as the service signs them, so the app's verification takes them.
  const source = opts.forwardTo ? signingSecret(ctx, opts) : null;
  const api = await ctx.api();
  const baseUrl = api.baseUrl;
  const c = ctx.errColor;
  // Times in the user's zone, named; on a terminal each line fits its width (80 when it does not say).
  const zone = ctx.timeZone;
  const columns = lineWidth(ctx, 80);
  const at = (iso: string) => {
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? iso : `${formatDateTime(ms, zone)} ${zoneAbbreviation(zone, ms)}`;
  };

  let log: EventLog | undefined;
  const seen = new Set<string>();
  if (opts.log) {
    // Every id the log holds is never logged again: that, not the cursor, makes each event logged once.
    const index = await readLogs([opts.log], { missingOk: true, signal: ctx.signal }).catch((err: NodeJS.ErrnoException) => {
      if (ctx.signal.aborted) throw err;
      if (err instanceof UserFileError) throw new UsageError(`Cannot use ${opts.log} as the log file: ${err.message}.`);
      throw new FailureError(`Cannot read the log file ${opts.log}: ${err.code ?? err.message}.`);
    });
    for (const w of skippedWarnings(index)) ctx.warn(w);
    for (const id of index.ids) seen.add(id);
    try {
      log = await EventLog.open(opts.log);
    } catch (err) {
      if (err instanceof UserFileError) throw new UsageError(`Cannot use ${opts.log} as the log file: ${err.message}.`);
      const code = (err as NodeJS.ErrnoException).code;
      throw new FailureError(`Cannot open the log file ${opts.log}: ${code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code ?? (err as Error).message}.`);
    }
    ctx.onClose(() => log!.close());
  }
  const cursorPath = opts.log ? `${opts.log}.cursor` : join(configDir(ctx.env), `listen-from-api.${ctx.settings().profileName}.json`);
  let cursor: Cursor;
  const saved = await readCursor(cursorPath);
  if ('cursor' in saved && saved.cursor.base_url === baseUrl) {
    cursor = saved.cursor;
    if (since) ctx.warn(`--since is passed over: ${cursorPath} holds where the last run stopped (${at(cursor.since)}). Remove it to start again from --since.`);
  } else {
    if ('cursor' in saved) ctx.warn(`${cursorPath} is the cursor of ${saved.cursor.base_url}, not ${baseUrl}: starting afresh.`);
    if ('unusable' in saved) ctx.warn(`${cursorPath} cannot be used (${saved.unusable}): starting afresh.`);
    cursor = freshCursor(baseUrl, since ?? ctx.now());
  }
  for (const id of cursor.recent) seen.add(id);

  const poster = opts.forwardTo ? new EventPoster(opts.forwardTo) : undefined;
  if (poster) ctx.onClose(() => poster.close());
  const ledger = log && poster ? new Ledger(log.path, (why) => ctx.warn(`Cannot write the forward ledger ${log!.path}.forwards (${why}).`)) : undefined;
  await ledger?.repair();
  const forwarder = poster
    ? new Forwarder({
      poster, ledger, sleep: ctx.sleep, signal: ctx.signal, now: () => ctx.realNow(),
      onAttempt: (e, r, attempt) => ctx.info(forwardLine(ctx.errColor, e.id, poster.url.href, r, ctx.now(), zone) + (attempt > 1 ? c.dim(` (attempt ${attempt})`) : '')),
    })
    : undefined;
  const shown = (type: string) => !opts.events || opts.events.includes(type);

  let count = 0;
  const emit = async (event: RebuiltEvent): Promise<boolean> => {
    const line = JSON.stringify(event);
    const raw = Buffer.from(line, 'utf8');
    const at = ctx.now();
    const accepted: AcceptedEvent = {
      id: event.id, type: event.type, event: { ...event }, raw,
      headers: deliveryHeaders(event, raw, source?.secrets[0], at, 'voicectl-listen-from-api'), receivedAt: at, verified: true,
    };
    if (log) await log.append(line);
    else if (forwarder && shown(event.type)) {
      const refused = await forwarder.deliver(accepted);
      if (refused) {
        ctx.warn(`${event.id}: ${refused}; tried again at the next poll.`);
        return false;
      }
    }
    count++;
    if (shown(event.type)) {
      ctx.out(recordLine(ctx, eventRecord(accepted), () => eventLine(ctx.color, accepted, { zone, columns })));
      if (forwarder && log) forwarder.forward(accepted);
    }
    return true;
  };

  ctx.info(`${c.green('Ready.')} Polling ${baseUrl} every ${opts.interval} s for finished calls and completed campaigns, from calls that started at ${at(cursor.since)}.`);
  if (opts.log) ctx.info(`  Logging each event once to ${opts.log} (cursor: ${cursorPath}).`);
  if (opts.forwardTo) ctx.info(`  Forwarding each event to ${opts.forwardTo}, signed with ${source ? source.from : 'no secret (--skip-verify)'}.`);
  ctx.info(c.dim('  Events are rebuilt from the API: data is each object as read, not as it was when the event happened.'));
  ctx.info(c.dim('Press Ctrl-C to stop.'));

  let lastProblem = '';
  let cursorWarned = false;
  while (!ctx.signal.aborted) {
    try {
      const r = await poll(cursor, { api, seen, emit, now: () => ctx.now(), signal: ctx.signal });
      cursor = r.cursor;
      lastProblem = '';
      try {
        await saveCursor(cursorPath, cursor);
      } catch (err) {
        if (!cursorWarned) ctx.warn(`Cannot save the cursor ${cursorPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): a restart would read from further back (nothing is logged twice).`);
        cursorWarned = true;
      }
    } catch (err) {
      if (ctx.signal.aborted) break;
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
      const message = (err as Error).message;
      // Said once until the next good poll: a service that is down is not a screenful of the same line.
      if (message !== lastProblem) ctx.warn(`A poll failed (${message}); trying again in ${opts.interval} s.`);
      lastProblem = message;
    }
    try {
      await ctx.sleep(opts.interval * 1000, ctx.signal);
    } catch {
      break;
    }
  }
  await forwarder?.settle(2000);
  await log?.close();
  ctx.info('');
  ctx.info(`Stopped. ${count} ${noun(count, 'event')} from the API.${opts.log ? ` Log: ${opts.log}` : ''}`);
  const lost = forwarder && log ? forwarder.notForwarded : 0;
  if (lost > 0 && opts.log && opts.forwardTo) {
    ctx.warn(`${lost} ${noun(lost, 'event')} not forwarded (the app did not acknowledge ${lost === 1 ? 'it' : 'them'}); ${lost === 1 ? 'it is' : 'they are'} in the log. Re-send with:`);
    ctx.info(`  voicectl listen --replay ${shellQuote(opts.log)} --forward-to ${shellQuote(opts.forwardTo)} --unforwarded`);
  }
}

/** The secret forwarded events are signed with, found where listen looks for the one it verifies with. */
function signingSecret(ctx: Context, opts: Options): ReturnType<typeof resolveSecret> {
  try {
    return resolveSecret(ctx, opts);
  } catch (err) {
    if (!(err instanceof UsageError) || !/No webhook secret/.test(err.message)) throw err;
    throw new UsageError('No secret to sign the forwarded events with: your app verifies them as it verifies the service\'s.', {
      hint: 'Pass --secret-file FILE or --secret-stdin (the secret your app verifies with), --endpoint ID (a secret saved with --save-secret), set VOICECTL_WEBHOOK_SECRET, or --skip-verify to forward them unsigned.',
    });
  }
}
