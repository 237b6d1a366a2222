import type { Context } from '../../context.js';
import { updateEndpoint, type EndpointChanges } from '../../api/webhooks.js';
import { UsageError } from '../../errors.js';
import { printObject } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { checkEvents, checkUrl, ENDPOINT_FIELDS } from './fields.js';
import { forPeople, render } from '../../io/render.js';
import type { UpdateFlags } from './definition.js';

type Opts = UpdateFlags;

export default async function webhookUpdate(ctx: Context, id: string, opts: Opts): Promise<void> {
  if (opts.enable && opts.disable) throw new UsageError('--enable and --disable contradict each other.', { hint: 'Give one of them.' });
  const changes: EndpointChanges = {};
  if (opts.enable) changes.enabled = true;
  if (opts.disable) changes.enabled = false;
  if (opts.url !== undefined) changes.url = checkUrl(ctx, opts.url, opts.allowLocal);
  if (opts.events !== undefined) changes.events = checkEvents(opts.events);
  if (Object.keys(changes).length === 0) {
    throw new UsageError('Nothing to change.', { hint: 'Give --enable, --disable, --url or --events.' });
  }
  const api = await ctx.api();
  const updated = await withSpinner(ctx, 'Updating endpoint', () => updateEndpoint(api, id, changes));
  if (updated) {
    await printObject(ctx, updated, ENDPOINT_FIELDS);
  } else {
    await render(ctx, { json: { id, ...changes }, layout: 'compact' });
  }
  await forPeople(ctx, () => {
    const what = Object.entries(changes).map(([k, v]) => `${k} = ${Array.isArray(v) ? v.join(',') : String(v)}`).join(', ');
    ctx.info(ctx.errColor.green(`Updated endpoint ${id}: ${what}.`));
    if (changes.enabled === false) ctx.info(ctx.errColor.dim('Events that occur while it is disabled are not queued for it.'));
  });
}
