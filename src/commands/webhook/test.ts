import type { Context } from '../../context.js';
import { testEndpoint } from '../../api/webhooks.js';
import { withSpinner } from '../../io/spinner.js';

export default async function webhookTest(ctx: Context, id: string): Promise<void> {
  const api = await ctx.api();
  const answer = await withSpinner(ctx, 'Sending a ping', () => testEndpoint(api, id));
  if (ctx.machineOutput) {
    ctx.out(JSON.stringify(answer && typeof answer === 'object' ? answer : { id, ping: 'sent' }));
    return;
  }
  ctx.info(ctx.errColor.green(`Asked the service to send a ping event to endpoint ${id}.`));
  if (answer && typeof answer === 'object') ctx.out(JSON.stringify(answer, null, 2));
  ctx.info(ctx.errColor.dim(`See whether it arrived: voicectl webhook deliveries ${id}`));
}
