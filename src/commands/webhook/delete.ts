import type { Context } from '../../context.js';
import { deleteEndpoint } from '../../api/webhooks.js';
import { FailureError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { render } from '../../io/render.js';

export default async function webhookDelete(ctx: Context, id: string): Promise<void> {
  const ok = await confirm(ctx, `Delete webhook endpoint ${id} (its pending retries are dropped)?`);
  if (!ok) throw new FailureError('Cancelled: nothing deleted.');
  const api = await ctx.api();
  await deleteEndpoint(api, id);
  await render(ctx, { json: { id, deleted: true }, layout: 'compact', human: () => ctx.info(ctx.errColor.green(`Deleted webhook endpoint ${id}.`)) });
}
