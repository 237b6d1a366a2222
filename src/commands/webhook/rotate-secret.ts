import type { Context } from '../../context.js';
import { rotateSecret } from '../../api/webhooks.js';
import { FailureError } from '../../errors.js';
import { withSpinner } from '../../io/spinner.js';
import { showSecret } from './fields.js';

export default async function webhookRotateSecret(ctx: Context, id: string, opts: { saveSecret?: boolean }): Promise<void> {
  const api = await ctx.api();
  const { secret, body } = await withSpinner(ctx, 'Rotating the secret', () => rotateSecret(api, id));
  if (!secret) {
    throw new FailureError(`The secret of endpoint ${id} was rotated, but the service's answer holds no new secret.`, {
      hint: 'Deliveries are now signed with a secret you do not have; rotate again, or delete the endpoint and create a new one.',
    });
  }
  if (ctx.machineOutput) {
    ctx.out(JSON.stringify(body && typeof body === 'object' ? body : { id, secret }, null, 2));
  } else {
    ctx.out(`${ctx.color.bold('id'.padEnd(7))}  ${id}`);
  }
  await showSecret(ctx, id, secret, opts.saveSecret);
  if (!ctx.machineOutput) {
    ctx.info(ctx.errColor.dim('Deliveries signed from now on use the new secret: update your receiver.'));
  }
}
