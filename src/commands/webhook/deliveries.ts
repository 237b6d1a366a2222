import type { Context } from '../../context.js';
import { allDeliveries, listDeliveries, type WebhookDelivery } from '../../api/webhooks.js';
import { attemptsOf, lastCodeOf, nextRetryOf, pick, when } from './delivery-fields.js';
import { printList, type Column } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';

export default async function webhookDeliveries(ctx: Context, id: string, opts: { all?: boolean; limit?: number }): Promise<void> {
  const api = await ctx.api();
  let rows: WebhookDelivery[];
  let total: number | undefined;
  if (opts.all) {
    rows = await withSpinner(ctx, 'Fetching deliveries', async () => {
      const out: WebhookDelivery[] = [];
      for await (const d of allDeliveries(api, id)) out.push(d);
      return out;
    });
  } else {
    ({ items: rows, total } = await withSpinner(ctx, 'Fetching deliveries', () => listDeliveries(api, id, { limit: opts.limit })));
  }
  const now = ctx.now();
  const columns: Column<WebhookDelivery>[] = [
    { header: 'ID', get: (r) => pick(r, ['id', 'delivery_id']) },
    { header: 'EVENT', get: (r) => pick(r, ['event_id', 'event.id']) },
    { header: 'TYPE', get: (r) => pick(r, ['event_type', 'type', 'event.type']) },
    { header: 'STATUS', get: (r) => pick(r, ['status', 'state', 'delivery_status']) },
    { header: 'ATTEMPTS', get: attemptsOf },
    { header: 'LAST CODE', get: lastCodeOf },
    { header: 'NEXT RETRY', get: (r) => when(nextRetryOf(r), now) },
  ];
  await printList(ctx, rows, columns, { empty: `No deliveries for endpoint ${id} yet.` });
  if (!ctx.machineOutput && total !== undefined && total > rows.length) {
    ctx.info(ctx.errColor.dim(`Showing ${rows.length} of ${total}. Use --all for every delivery.`));
  }
}
