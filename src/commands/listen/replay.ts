/**
 * `listen --replay FILE --forward-to URL`: re-sends the events of a --log file, in order,
 * each signed afresh with the current time, so an app can be re-run against real traffic
 * (the original signatures would be past the 5-minute tolerance).
 */
import { readUserTextOr } from '../../util/user-file.js';
import type { Context } from '../../context.js';
import { FailureError, InterruptedError, UsageError } from '../../errors.js';
import { EventPoster } from '../../webhooks/forward.js';
import { forwardedIds, Ledger } from '../../webhooks/forwarding.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, sign } from '../../webhooks/signature.js';
import { forwardLine } from '../../webhooks/listen-format.js';
import { recordLine } from '../../io/render.js';
import { noun } from '../../text/text.js';
import { isObject } from '../../util/is-object.js';

/**
 * With `unforwarded`, only the events of the log that the app never acknowledged (by the
 * records in `<log>.forwards`), and each one it acknowledges now is recorded there.
 */
export async function replay(ctx: Context, o: { file: string; target: string; secret: string; events?: string[]; unforwarded?: boolean }): Promise<void> {
  const text = await readUserTextOr(o.file, { signal: ctx.signal }, (reason) => new UsageError(`Cannot read ${o.file}: ${reason}.`));
  let ledger: Ledger | undefined;
  if (o.unforwarded) {
    ledger = new Ledger(o.file, (why) => ctx.warn(`Cannot write the forward ledger ${ledger!.path} (${why}): the app's acknowledgements of this replay are not recorded, so another --unforwarded replay would send them again.`));
    // A torn last line is ended first, so this replay's records never join onto it.
    const torn = await ledger.repair();
    if (torn > 0) ctx.warn(`${ledger.path} ended in a partial line (${torn} bytes, from a write that was cut short): it now ends that line; that record counts as not forwarded.`);
  }
  let done: Set<string> | undefined;
  try {
    done = o.unforwarded ? await forwardedIds(o.file) : undefined;
  } catch (err) {
    throw new FailureError(`Cannot read the forward ledger ${ledger!.path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): without it, --unforwarded cannot tell which events the app already acknowledged.`);
  }
  const poster = new EventPoster(o.target);
  ctx.onClose(() => poster.close());
  const c = ctx.errColor;
  let sent = 0;
  let ok = 0;
  let skipped = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (ctx.signal.aborted) throw new InterruptedError(`Interrupted after replaying ${sent} events.`);
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    let event: Record<string, unknown>;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (!isObject(parsed)) throw new Error('not an object');
      event = parsed;
    } catch {
      skipped++;
      ctx.warn(`${o.file}:${i + 1} is not a JSON event; skipped.`);
      continue;
    }
    const type = typeof event.type === 'string' ? event.type : 'unknown';
    if (o.events && !o.events.includes(type)) continue;
    const id = typeof event.id === 'string' ? event.id : `line-${i + 1}`;
    if (done?.has(id)) continue;
    // The line is sent as is: these are the bytes the service sent and the log kept.
    const body = Buffer.from(line, 'utf8');
    const r = await poster.post(body, {
      'Content-Type': 'application/json',
      'User-Agent': 'voicectl-replay',
      [EVENT_ID_HEADER]: id,
      [EVENT_TYPE_HEADER]: type,
      [SIGNATURE_HEADER]: sign(o.secret, body, Math.floor(ctx.realNow().getTime() / 1000)),
    });
    sent++;
    if (r.ok) ok++;
    if (done) {
      await ledger!.append({ id, ok: r.ok, status: r.status ?? null, attempts: 1, at: ctx.now().toISOString(), ...(r.ok ? {} : { error: r.error ?? `it answered ${r.status}` }) });
      done.add(id);
    }
    const record = { id, type, status: r.status ?? null, ok: r.ok, duration_ms: Math.round(r.ms), ...(r.error ? { error: r.error } : {}) };
    ctx.out(recordLine(ctx, record, () => `${type.padEnd(20)}  ${forwardLine(ctx.color, id, o.target, r, ctx.now(), ctx.timeZone).replace(/^\S+ \S+\s+/, '')}`));
  }
  const failed = sent - ok;
  const summary = `Replayed ${sent} ${noun(sent, 'event')} from ${o.file} to ${o.target}: ${ok} acknowledged (2xx)${failed ? `, ${failed} not` : ''}${skipped ? `, ${skipped} unreadable ${noun(skipped, 'line')} skipped` : ''}.`;
  if (failed > 0) throw new FailureError(summary, { hint: 'The lines above show each answer; fix the app and replay again.' });
  ctx.info(sent === 0 ? c.yellow(summary) : c.green(summary));
}
