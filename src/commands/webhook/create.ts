import type { Context } from '../../context.js';
import { createEndpoint } from '../../api/webhooks.js';
import { printObject } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { checkEvents, checkUrl, ENDPOINT_FIELDS, showSecret } from './fields.js';
import { note } from '../../io/render.js';
import type { CreateFlags } from './definition.js';

type Opts = CreateFlags;

export default async function webhookCreate(ctx: Context, opts: Opts): Promise<void> {
  const events = checkEvents(opts.events);
  const url = checkUrl(ctx, opts.url, opts.allowLocal);
  const api = await ctx.api();
  const endpoint = await withSpinner(ctx, 'Registering endpoint', () => createEndpoint(api, { url, events }));
  // --json prints the object as the service sent it, secret included: it will not be readable again.
  await printObject(ctx, endpoint, ENDPOINT_FIELDS);
  await showSecret(ctx, String(endpoint.id), typeof endpoint.secret === 'string' ? endpoint.secret : undefined, opts.saveSecret);
  note(ctx, ctx.errColor.dim(`Next: voicectl webhook test ${endpoint.id}   (sends a ping)`));
}
