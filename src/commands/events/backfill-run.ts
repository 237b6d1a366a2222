/** The --backfill and --into-log half of `events reconcile`: sends or appends, one line per event. */
import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { UserFileError } from '../../util/user-file.js';
import { backfill, type BackfillResult } from '../../events/backfill.js';
import type { Gap } from '../../events/reconcile.js';
import { EventLog } from '../../webhooks/event-log.js';
import { EventPoster } from '../../webhooks/forward.js';
import { recordLine } from '../../io/render.js';
import { noun, shellQuote } from '../../text/text.js';

export async function runBackfill(ctx: Context, o: { gaps: Gap[]; log: string; target?: string; secret?: string }): Promise<void> {
  let log: EventLog;
  try {
    log = await EventLog.open(o.log);
  } catch (err) {
    if (err instanceof UserFileError) throw new UsageError(`Cannot use ${o.log} as the log: ${err.message}.`);
    const code = (err as NodeJS.ErrnoException).code;
    throw new FailureError(`Cannot open ${o.log} to record the events: ${code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code ?? (err as Error).message}.`);
  }
  ctx.onClose(() => log.close());
  if (log.repairedTail > 0) ctx.warn(`${o.log} ended in a partial line (${log.repairedTail} bytes): it now ends that line, so each event appended starts on its own.`);
  const poster = o.target ? new EventPoster(o.target) : undefined;
  if (poster) ctx.onClose(() => poster.close());
  const c = ctx.errColor;
  const show = (r: BackfillResult) => {
    const objectId = String(r.event.data.call_id ?? r.event.data.id ?? '');
    const record = { id: r.event.id, type: r.event.type, object_id: objectId, ...(r.post ? { status: r.post.status ?? null, ok: r.post.ok } : {}), logged: r.logged, ...(r.post?.error ? { error: r.post.error } : {}), ...(r.logError ? { log_error: r.logError } : {}) };
    ctx.out(recordLine(ctx, record, () => {
      const what = `${r.event.type.padEnd(20)}  ${objectId}`;
      if (!r.post) return `${what}  ${r.logged ? c.green('appended to the log') : c.red(`not appended (${r.logError})`)}`;
      if (!r.post.ok) return `${what}  ${c.red(r.post.status !== undefined ? `the app answered ${r.post.status}` : `not sent: ${r.post.error ?? 'no answer'}`)}`;
      return `${what}  ${c.green(`${r.post.status}`)}${r.logged ? '' : c.red(` accepted, but not recorded in the log (${r.logError}): a second run sends it again`)}`;
    }));
  };
  const results = await backfill(o.gaps, { log, poster, secret: o.secret, now: () => ctx.realNow(), signal: ctx.signal, onResult: show });
  await log.close();
  const done = results.filter((r) => r.logged && (r.post?.ok ?? true)).length;
  const failed = results.length - done;
  const skipped = o.gaps.length - results.length;
  if (o.target) {
    const line = `Backfilled ${done} of ${o.gaps.length} missing ${noun(o.gaps.length, 'event')} to ${o.target}, each recorded in ${o.log}.`;
    if (failed || skipped) throw new FailureError(`${line} ${failed + skipped} not sent or not recorded.`, { hint: 'Fix the app (the lines above show its answers) and run the same command again: it sends only what is still missing.' });
    ctx.info(c.green(line));
  } else {
    const line = `Appended ${done} of ${o.gaps.length} missing ${noun(o.gaps.length, 'event')} to ${o.log}.`;
    if (failed || skipped) throw new FailureError(`${line} ${failed + skipped} could not be appended.`);
    ctx.info(c.green(line));
    ctx.info(`Send them to your app with: voicectl listen --replay ${shellQuote(o.log)} --unforwarded --forward-to URL`);
  }
}
