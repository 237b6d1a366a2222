import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { UserFileError } from '../../util/user-file.js';
import { EventLog } from '../../webhooks/event-log.js';
import { EventPoster } from '../../webhooks/forward.js';
import { Forwarder, Ledger, unforwardedInLog } from '../../webhooks/forwarding.js';
import { secretFromSource } from '../../webhooks/secret-input.js';
import { Receiver } from '../../webhooks/receiver.js';
import { EVENT_TYPES } from '../../webhooks/signature.js';
import { isLoopbackUrl } from '../../webhooks/url-policy.js';
import { clock, eventLine, eventRecord, forwardLine, rejectLine } from '../../webhooks/listen-format.js';
import { resolveSecret } from './secret-source.js';
import { checkForwardUrl } from '../../webhooks/target-url.js';
import { recordLine, refuseFilterOnStream } from '../../io/render.js';
import { noun, shellQuote } from '../../text/text.js';
import type { ListenFlags } from './definition.js';
import { lineWidth } from '../../io/terminal.js';

export type ListenOptions = ListenFlags;

export default async function listen(ctx: Context, flags: ListenOptions): Promise<void> {
  refuseFilterOnStream(ctx, 'voicectl listen');
  const opts = { ...flags, secret: await secretFromSource(ctx, { value: flags.secret, file: flags.secretFile, stdin: Boolean(flags.secretStdin) }) };
  const events = checkFilter(opts.events);
  const forwardTo = opts.forwardTo !== undefined ? checkForwardUrl(opts.forwardTo) : undefined;
  if (opts.fromApi && (opts.replay !== undefined || opts.unforwarded)) throw new UsageError('--from-api polls the API; --replay re-sends a log. Give one or the other.');
  if (opts.replay !== undefined) {
    if (!forwardTo) throw new UsageError('--replay needs --forward-to: the app to re-send the events to.');
    const source = resolveSecret(ctx, { ...opts, skipVerify: false });
    const { replay } = await import('./replay.js');
    await replay(ctx, { file: opts.replay, target: forwardTo, secret: source!.secrets[0]!, events, unforwarded: opts.unforwarded });
    return;
  }
  if (opts.fromApi) {
    const { listenFromApi } = await import('./from-api.js');
    await listenFromApi(ctx, { ...opts, events, forwardTo });
    return;
  }
  if (opts.since !== undefined) throw new UsageError('--since goes with --from-api: where a first poll of the API starts.');
  if (opts.unforwarded) throw new UsageError('--unforwarded goes with --replay LOG: it re-sends the events of LOG the app never acknowledged.');
  const registerCmd = (port: number) => `voicectl webhook create --url http://${urlHost(opts.host)}:${port}/ --allow-local --save-secret`;
  const source = resolveSecret(ctx, opts, registerCmd(opts.port || 4242));
  const c = ctx.errColor;
  const out = ctx.color;
  const zone = ctx.timeZone;
  // The stdout terminal's width (80 when it does not say); in a pipe or a log, lines stay whole.
  const columns = lineWidth(ctx, 80);

  let log: EventLog | undefined;
  if (opts.log) {
    try {
      log = await EventLog.open(opts.log);
    } catch (err) {
      if (err instanceof UserFileError) throw new UsageError(`Cannot use ${opts.log} as the log file: ${err.message}.`);
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code ?? (err as Error).message;
      throw new FailureError(`Cannot open the log file ${opts.log}: ${why}.`);
    }
    ctx.onClose(() => log!.close());
    if (log.repairedTail > 0) {
      ctx.warn(`${opts.log} ended in a partial line (${log.repairedTail} bytes, from a write that was cut short): it now ends that line, so every new event starts on its own; --replay skips it.`);
    }
  }
  const replayCmd = opts.log && forwardTo ? replayCommand(opts.log, forwardTo, events) : '';
  const ready = log && forwardTo ? await openLedger(ctx, opts.log!, replayCmd, events) : undefined;
  const ledger = ready?.ledger;
  const poster = forwardTo ? new EventPoster(forwardTo) : undefined;
  if (poster) ctx.onClose(() => poster.close());
  const forwarder = poster
    ? new Forwarder({
      poster, ledger, sleep: ctx.sleep, signal: ctx.signal, now: () => ctx.realNow(),
      onAttempt: (e, r, attempt) => ctx.info(forwardLine(ctx.errColor, e.id, poster.url.href, r, ctx.now(), zone) + (attempt > 1 ? c.dim(` (attempt ${attempt})`) : '')),
    })
    : undefined;
  const shown = (type: string) => !events || events.includes(type);
  const print = batchedLines((text) => ctx.io.stdout.write(text));
  ctx.onClose(() => print.flush());

  const receiver = new Receiver({
    host: opts.host,
    port: opts.port,
    secrets: source?.secrets ?? null,
    reloadSecrets: source?.reload,
    log,
    // Without a log, the app's acknowledgement is the only safe place: wait for it.
    deliver: forwarder && !log ? (e) => (shown(e.type) ? forwarder.deliver(e) : Promise.resolve(undefined)) : undefined,
    onEvent: (e) => {
      if (!shown(e.type)) return;
      print.line(recordLine(ctx, eventRecord(e), () => eventLine(out, e, { zone, columns })));
      // With a log the event is already safe: the forward follows the answer, with retries.
      if (forwarder && log) forwarder.forward(e);
    },
    onDuplicate: (d) => {
      if (shown(d.type ?? '')) ctx.info(c.dim(`${clock(d.at, zone)}  200  duplicate ${d.id} (already received; not processed again)`));
    },
    onReject: (r) => ctx.info(rejectLine(c, r, zone)),
  });
  let bound: { host: string; port: number };
  try {
    bound = await receiver.start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new FailureError(`Port ${opts.port} on ${opts.host} is already in use.`, { hint: 'Stop whatever holds it, or pick another with --port (0 picks a free one).' });
    }
    if (code === 'EACCES') throw new FailureError(`Not allowed to listen on port ${opts.port}.`, { hint: 'Ports below 1024 need privileges; use --port 4242.' });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new FailureError(`Cannot listen on ${opts.host}: no such address on this machine.`);
    throw err;
  }
  ctx.onClose(() => receiver.close());
  // Retries of the service arrive after a restart too: remember what the log already holds.
  if (opts.log) {
    const now = ctx.now().getTime();
    await EventLog.readIds(opts.log, (id, at) => {
      if (at === 0 || at >= now - receiver.seen.windowMs) receiver.seen.add(id, at || now);
    });
  }

  banner(ctx, bound.port, source, { log: opts.log, forwardTo, events, register: registerCmd(bound.port), host: opts.host });
  ready?.report();

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await receiver.close();
  print.flush();
  // Forwards in flight get a moment to report; their requests time out on their own.
  await forwarder?.settle(2000);
  await log?.close();
  const s = receiver.stats;
  ctx.info('');
  ctx.info(`Stopped. Received ${s.accepted} ${noun(s.accepted, 'event')}${s.duplicates ? `, ${s.duplicates} ${noun(s.duplicates, 'duplicate')}` : ''}${s.rejected ? `, rejected ${s.rejected} ${noun(s.rejected, 'request')}` : ''}.${opts.log ? ` Log: ${opts.log}` : ''}`);
  const lost = forwarder && log ? forwarder.notForwarded : 0;
  if (lost > 0) {
    ctx.warn(`${lost} ${noun(lost, 'event')} not forwarded (the app did not acknowledge ${lost === 1 ? 'it' : 'them'}); ${lost === 1 ? 'it is' : 'they are'} in the log. Re-send with:`);
    ctx.info(`  ${replayCmd}`);
  }
  if (ledger && ledger.unrecorded > 0) {
    const n = ledger.unrecorded;
    ctx.warn(`${n} forward outcome${n === 1 ? ' was' : 's were'} not recorded in ${ledger.path}: \`--replay --unforwarded\` may re-send events the app already acknowledged.`);
  }
}

/** The command that re-sends what the app never acknowledged, with the same event filter. */
function replayCommand(log: string, forwardTo: string, events: string[] | undefined): string {
  return `voicectl listen --replay ${shellQuote(log)} --forward-to ${shellQuote(forwardTo)} --unforwarded${events ? ` --events ${shellQuote(events.join(','))}` : ''}`;
}

/**
 * The forward ledger, made ready at start: a torn last line is ended, a ledger that cannot
 * be written later is said once, and the events an earlier run logged but never got
 * acknowledged are counted, with the command that re-sends them.
 */
async function openLedger(ctx: Context, logPath: string, replayCmd: string, events: string[] | undefined): Promise<{ ledger: Ledger; report(): void }> {
  const ledger = new Ledger(logPath, (why) => {
    ctx.warn(`Cannot write the forward ledger ${ledger.path} (${why}). Events are still logged and forwarded, but the app's acknowledgements are not recorded, so \`${replayCmd}\` would re-send events the app already took.`);
  });
  const notes: Array<() => void> = [];
  try {
    const torn = await ledger.repair();
    if (torn > 0) ctx.warn(`${ledger.path} ended in a partial line (${torn} bytes, from a write that was cut short): it now ends that line, so every new record starts on its own; that record counts as not forwarded.`);
    const { unrecorded, refused } = await unforwardedInLog(logPath, events);
    const n = unrecorded + refused;
    if (n > 0) {
      const parts = [unrecorded ? `${unrecorded} never forwarded` : '', refused ? `${refused} not acknowledged by the app` : ''].filter(Boolean).join(', ');
      notes.push(() => {
        ctx.info('');
        ctx.warn(`${n} ${noun(n, 'event')} in ${logPath} ${n === 1 ? 'has' : 'have'} no acknowledged forward in ${ledger.path} (${parts}). Re-send ${n === 1 ? 'it' : 'them'} with:`);
        ctx.info(`  ${replayCmd}`);
      });
    }
  } catch (err) {
    if (!ledger.failing) ctx.warn(`Cannot read the forward ledger ${ledger.path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): the events an earlier run did not forward are not counted.`);
  }
  // Said after the banner, where it is read, and counted before any new event arrives.
  return { ledger, report: () => notes.forEach((f) => f()) };
}

function banner(
  ctx: Context,
  port: number,
  source: ReturnType<typeof resolveSecret>,
  o: { log?: string; forwardTo?: string; events?: string[]; register: string; host: string },
): void {
  const c = ctx.errColor;
  const url = `http://${urlHost(o.host)}:${port}/`;
  ctx.info(`${c.green('Ready.')} Listening for webhook events on ${c.bold(url)}`);
  ctx.info(source ? `  Verifying signatures with ${source.from}.` : `  ${c.yellow('Not verifying signatures (--skip-verify): anyone who can reach this port can post events.')}`);
  if (o.log) ctx.info(`  Logging every accepted event to ${o.log} (on disk before it is acknowledged).`);
  if (o.forwardTo) ctx.info(`  Forwarding each event to ${o.forwardTo}, raw body and signature headers unchanged.`);
  if (o.events) ctx.info(`  Showing${o.forwardTo ? ' and forwarding' : ''} only ${o.events.join(', ')}.`);
  ctx.info(`  Times are ${ctx.timeZone}.`);
  ctx.info('');
  ctx.info(c.dim('The service delivers only to public HTTPS URLs. To receive its events here, expose this port'));
  ctx.info(c.dim(`through a tunnel, e.g. \`cloudflared tunnel --url ${url}\` or \`ngrok http ${port}\`, and register`));
  ctx.info(c.dim('the tunnel\'s address: voicectl webhook create --url https://<tunnel-host>/ --save-secret'));
  const base = ctx.settings().baseUrl;
  if (isLoopbackUrl(base)) {
    ctx.info('');
    ctx.info(`The base URL ${base} is a local sandbox. Register this listener there with:`);
    ctx.info(`  ${c.bold(o.register)}`);
    ctx.info(c.dim(source?.fromProfile
      ? '(the sandbox must run with --allow-local-webhooks; listen picks up a secret saved with --save-secret)'
      : '(the sandbox must run with --allow-local-webhooks; then restart listen with the secret it prints, or with --endpoint ID)'));
  }
  ctx.info('');
  ctx.info(c.dim('Press Ctrl-C to stop.'));
}

/**
 * Event lines written once per turn of the event loop: a burst of deliveries costs one
 * write to stdout rather than one each, which keeps acknowledgements quick under load.
 */
function batchedLines(write: (text: string) => void): { line(text: string): void; flush(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    write(text);
  };
  return {
    line(text) {
      pending.push(text);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function checkFilter(events: string[] | undefined): string[] | undefined {
  if (!events) return undefined;
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) throw new UsageError(`Unknown event type: ${unknown.join(', ')}.`, { hint: `Event types: ${EVENT_TYPES.join(', ')}.` });
  return events.length ? events : undefined;
}
