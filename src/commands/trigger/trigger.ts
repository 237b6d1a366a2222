import { readUserTextOr } from '../../util/user-file.js';
import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { JsonTooDeepError, parseJsonWithin } from '../../util/json-depth.js';
import { EventPoster } from '../../webhooks/forward.js';
import { readSavedSecret } from '../../webhooks/saved-secret.js';
import { secretFromSource } from '../../webhooks/secret-input.js';
import { sampleEvent } from '../../webhooks/samples.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, sign, type WebhookEventType } from '../../webhooks/signature.js';
import { checkForwardUrl } from '../../webhooks/target-url.js';
import { oneLine, truncate } from '../../text/text.js';
import { render } from '../../io/render.js';
import type { TriggerFlags } from './definition.js';
import { isObject } from '../../util/is-object.js';

type Opts = TriggerFlags;

export default async function trigger(ctx: Context, type: WebhookEventType, opts: Opts): Promise<void> {
  const url = checkForwardUrl(opts.to);
  if (opts.secretStdin && opts.data === '-') throw new UsageError('--secret-stdin and --data - both read standard input: give the secret another way.');
  const secret = await signingSecret(ctx, opts);
  const data = opts.data !== undefined ? await readData(ctx, opts.data) : undefined;
  const event = sampleEvent(type, { now: ctx.now(), data });
  const body = Buffer.from(JSON.stringify(event), 'utf8');
  const poster = new EventPoster(url, { keepAlive: false });
  ctx.onClose(() => poster.close());
  const r = await poster.post(body, {
    'Content-Type': 'application/json',
    'User-Agent': 'voicectl-trigger',
    [EVENT_ID_HEADER]: event.id,
    [EVENT_TYPE_HEADER]: event.type,
    [SIGNATURE_HEADER]: sign(secret, body, Math.floor(ctx.realNow().getTime() / 1000)),
  });
  const ms = Math.round(r.ms);
  await render(ctx, {
    json: { url, status: r.status ?? null, ok: r.ok, duration_ms: ms, ...(r.error ? { error: r.error } : {}), response: r.body ?? null, event },
    layout: 'pretty',
    human: () => {
      const c = ctx.color;
      const status = r.status === undefined ? c.red('no answer') : r.ok ? c.green(String(r.status)) : c.red(String(r.status));
      ctx.out(`${event.type} ${event.id} → ${url}: ${status} in ${ms} ms`);
      if (!r.ok && r.body) ctx.info(`${ctx.errColor.dim('The receiver answered:')} ${truncate(oneLine(r.body), 400)}`);
    },
  });
  if (r.status === undefined) throw new FailureError(`${url} did not answer: ${r.error}.`);
  if (!r.ok) {
    throw new FailureError(`The receiver answered ${r.status}, not 2xx: the service would retry this delivery.`, {
      hint: r.status === 401 || r.status === 400 ? 'Check that the receiver uses the same secret and verifies the raw body bytes.' : undefined,
    });
  }
}

/**
 * The secret in the order `listen` takes it: a flag, then VOICECTL_WEBHOOK_SECRET, then the
 * secret saved in the profile (`webhook create --save-secret`), so a `listen` started
 * without flags and a `trigger` without flags agree.
 */
async function signingSecret(ctx: Context, opts: Opts): Promise<string> {
  const given = await secretFromSource(ctx, { value: opts.secret, file: opts.secretFile, stdin: Boolean(opts.secretStdin) });
  if (given !== undefined) return given;
  const env = ctx.env.VOICECTL_WEBHOOK_SECRET;
  if (env !== undefined && env.trim() !== '') return env;
  const saved = readSavedSecret(ctx);
  if (saved) {
    ctx.info(ctx.errColor.dim(`Signing with the secret saved in profile "${saved.profileName}"${saved.endpointId ? ` (endpoint ${saved.endpointId})` : ''}.`));
    return saved.secret;
  }
  throw new UsageError('trigger needs the secret your receiver verifies signatures with.', {
    hint: 'Set VOICECTL_WEBHOOK_SECRET, pass --secret-file FILE, --secret-stdin or --secret, or save one in the profile with `voicectl webhook create --save-secret`. For `voicectl listen`, use the same secret you started it with.',
  });
}

async function readData(ctx: Context, file: string): Promise<Record<string, unknown>> {
  const text = await readUserTextOr(file, { stdin: ctx.io.stdin, signal: ctx.signal }, (reason) => new UsageError(`Cannot read --data ${file}: ${reason}.`));
  let parsed: unknown;
  try {
    parsed = parseJsonWithin(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw new UsageError(`--data ${file} cannot be used: ${err.message}.`);
    throw new UsageError(`--data ${file} is not valid JSON: ${(err as Error).message}.`);
  }
  if (!isObject(parsed)) {
    throw new UsageError(`--data ${file} must hold a JSON object (it replaces the event's data object).`);
  }
  return parsed;
}
