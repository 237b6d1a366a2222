import type { Context } from '../../context.js';
import { testEndpoint } from '../../api/webhooks.js';
import { withSpinner } from '../../io/progress.js';
import { attemptsOf, lastCodeOf, pick } from '../../webhooks/delivery-fields.js';
import { render } from '../../io/render.js';
import { isObject } from '../../util/is-object.js';

export default async function webhookTest(ctx: Context, id: string): Promise<void> {
  const api = await ctx.api();
  const answer = await withSpinner(ctx, 'Sending a ping', () => testEndpoint(api, id));
  await render(ctx, { json: answer && typeof answer === 'object' ? answer : { id, ping: 'sent' }, layout: 'pretty', human: () => pingSummary(ctx, id, answer) });
}

function pingSummary(ctx: Context, id: string, answer: unknown): void {
  const c = ctx.errColor;
  ctx.info(c.green(`Asked the service to send a ping event to endpoint ${id}.`));
  // The answer's shape is not in the spec; when it describes the delivery, say how it went.
  if (isObject(answer)) {
    const a = answer;
    const d = (a.delivery && typeof a.delivery === 'object' ? a.delivery : a) as Record<string, unknown>;
    const event = pick(a, ['event_id', 'event.id', 'id']);
    const status = pick(d, ['status', 'state']);
    const code = lastCodeOf(d);
    const attempts = attemptsOf(d);
    const parts = [event ? `event ${event}` : '', status ? `status ${status}` : '', code !== undefined ? `response ${code}` : '', attempts !== undefined ? `attempts ${attempts}` : ''].filter(Boolean);
    if (parts.length) ctx.out(parts.join('  '));
  }
  ctx.info(c.dim(`Delivery history: voicectl webhook deliveries ${id}`));
}
