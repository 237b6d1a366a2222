import type { Context } from '../../context.js';
import { ApiError } from '../../api/errors.js';
import { listEndpoints } from '../../api/webhooks.js';
import { FailureError } from '../../errors.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { ENDPOINT_COLUMNS } from './fields.js';

export default async function webhookList(ctx: Context): Promise<void> {
  const api = await ctx.api();
  let endpoints;
  try {
    endpoints = await withSpinner(ctx, 'Fetching webhook endpoints', () => listEndpoints(api));
  } catch (err) {
    // The spec shows no list endpoint: a server without one answers 404, 405 or 501 on the path.
    if (err instanceof ApiError && [404, 405, 501].includes(err.status ?? 0)) {
      throw new FailureError(`This service has no way to list webhook endpoints (GET /webhooks/endpoints answered ${err.status}).`, {
        hint: 'Keep the id that `voicectl webhook create` prints; update, test, deliveries, rotate-secret and delete all take it.',
      });
    }
    throw err;
  }
  await printList(ctx, endpoints, ENDPOINT_COLUMNS, {
    empty: 'No webhook endpoints yet. Register one with `voicectl webhook create --url https://…`.',
  });
}
