/** Columns, flag checks and secret display shared by the webhook verbs. */
import type { Context } from '../../context.js';
import type { WebhookEndpoint } from '../../api/webhooks.js';
import type { Column } from '../../io/output.js';
import { UsageError } from '../../errors.js';
import { EVENT_TYPES } from '../../webhooks/signature.js';
import { checkWebhookUrl, isLoopbackUrl } from '../../webhooks/url-policy.js';
import { saveWebhookSecret } from '../../webhooks/saved-secret.js';
import { forPeople } from '../../io/render.js';

/** Omitted, empty, or every known type: the endpoint receives everything. */
function eventsCell(e: WebhookEndpoint): string {
  if (!Array.isArray(e.events) || e.events.length === 0) return 'all';
  return EVENT_TYPES.every((t) => e.events!.includes(t)) ? 'all' : e.events.join(', ');
}

export const ENDPOINT_COLUMNS: Column<WebhookEndpoint>[] = [
  { header: 'ID', key: 'id', id: true },
  { header: 'URL', key: 'url', max: 60 },
  { header: 'EVENTS', get: eventsCell, max: 50 },
  { header: 'ENABLED', key: 'enabled' },
];

export const ENDPOINT_FIELDS: Column<WebhookEndpoint>[] = [
  { header: 'id', key: 'id' },
  { header: 'url', key: 'url' },
  { header: 'events', get: eventsCell },
  { header: 'enabled', key: 'enabled' },
];

/** Unknown event types are a usage error before anything is sent. */
export function checkEvents(events: string[] | undefined): string[] | undefined {
  if (events === undefined) return undefined;
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown event type${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, {
      hint: `Event types: ${EVENT_TYPES.join(', ')}. Leave out --events to receive all of them.`,
    });
  }
  if (events.length === 0) throw new UsageError('--events is empty.', { hint: 'Leave it out to receive all event types.' });
  return [...new Set(events)];
}

/**
 * Refuses a URL the service would refuse, before sending. With --allow-local the server
 * decides (a sandbox started with --allow-local-webhooks accepts loopback addresses).
 */
export function checkUrl(ctx: Context, url: string, allowLocal: boolean | undefined): string {
  if (allowLocal) {
    try {
      new URL(url);
    } catch {
      throw new UsageError(`"${url}" is not a URL.`, { hint: 'Give a full address, for example http://127.0.0.1:4242/.' });
    }
    if (!isLoopbackUrl(ctx.settings().baseUrl)) {
      ctx.warn('--allow-local is meant for a local sandbox started with --allow-local-webhooks; the real service refuses non-public URLs.');
    }
    return url;
  }
  const checked = checkWebhookUrl(url);
  if (!checked.ok) {
    const local = /^http:\/\/(localhost|127\.|\[::1\])/i.test(url);
    throw new UsageError(`Refusing ${url}: ${checked.reason}`, {
      hint: local
        ? 'Against a sandbox started with --allow-local-webhooks, add --allow-local. For the real service, expose `voicectl listen` through an HTTPS tunnel.'
        : checked.hint,
    });
  }
  return url;
}

/** The secret on stdout (it is the data), the warning and the save note on stderr. */
export async function showSecret(ctx: Context, endpointId: string, secret: string | undefined, save: boolean | undefined): Promise<void> {
  const c = ctx.errColor;
  if (!secret) {
    ctx.warn('the service sent no secret in its answer; signatures cannot be verified without it.');
    return;
  }
  await forPeople(ctx, () => ctx.out(`${ctx.color.bold('secret'.padEnd(7))}  ${secret}`));
  if (save) {
    const { profileName, path } = await saveWebhookSecret(ctx, endpointId, secret);
    ctx.info(c.green(`Saved the secret in profile "${profileName}" (${path}) as webhook_secret.`));
    ctx.info(c.dim(`\`voicectl listen --endpoint ${endpointId}\` verifies with it.`));
  } else {
    ctx.info(c.yellow.bold('This secret is shown only once and cannot be read again. Save it now.'));
    ctx.info(c.dim(`Verify deliveries with it: voicectl listen --secret <secret>, or VOICECTL_WEBHOOK_SECRET. (--save-secret keeps it in the profile.)`));
  }
}
