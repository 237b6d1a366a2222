import type { Context } from '../../context.js';
import { allDeliveries, listDeliveries, type WebhookDelivery } from '../../api/webhooks.js';
import { collectAll, type IncompleteListError } from '../../api/pagination.js';
import { attemptsOf, failureOf, instant, lastCodeOf, nextRetryOf, pick, when } from '../../webhooks/delivery-fields.js';
import { printList, type Column } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { note } from '../../io/render.js';
import type { DeliveriesFlags } from './definition.js';

export default async function webhookDeliveries(ctx: Context, id: string, opts: DeliveriesFlags): Promise<void> {
  const api = await ctx.api();
  let rows: WebhookDelivery[];
  let total: number | undefined;
  let incomplete: IncompleteListError | undefined;
  if (opts.all) {
    ({ items: rows, incomplete } = await withSpinner(ctx, 'Fetching deliveries', () => collectAll(allDeliveries(api, id))));
  } else {
    ({ items: rows, total } = await withSpinner(ctx, 'Fetching deliveries', () => listDeliveries(api, id, { limit: opts.limit })));
  }
  const now = ctx.now();
  // The table shows the next retry in the user's zone; -o csv keeps UTC ISO 8601.
  const zone = rows.some((r) => nextRetryOf(r) !== undefined) ? ctx.timeZone : undefined;
  const columns: Column<WebhookDelivery>[] = [
    { header: 'ID', get: (r) => pick(r, ['id', 'delivery_id']), id: true },
    { header: 'EVENT', get: (r) => pick(r, ['event_id', 'event.id']), drop: 4, id: true },
    { header: 'TYPE', get: (r) => pick(r, ['event_type', 'type', 'event.type']), drop: 2 },
    { header: 'STATUS', get: (r) => pick(r, ['status', 'state', 'delivery_status']) },
    { header: 'ATTEMPTS', get: attemptsOf, drop: 3 },
    { header: 'LAST CODE', get: lastCodeOf, drop: 1 },
    { header: 'NEXT RETRY', get: (r) => when(nextRetryOf(r), now, zone), drop: 5, csv: { get: (r) => instant(nextRetryOf(r)) } },
    { header: 'WHY IT FAILED', csv: 'failure', get: failureOf, max: 40 },
  ];
  await printList(ctx, rows, columns, { empty: `No deliveries for endpoint ${id} yet.` });
  if (total !== undefined && total > rows.length) {
    note(ctx, ctx.errColor.dim(`Showing ${rows.length} of ${total}. Use --all for every delivery.`));
  }
  // What was read is printed; the exit status says it is not the whole list.
  if (incomplete) throw incomplete;
}
