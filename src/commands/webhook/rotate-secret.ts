import type { Context } from '../../context.js';
import { rotateSecret } from '../../api/webhooks.js';
import { FailureError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { withSpinner } from '../../io/progress.js';
import { showSecret } from './fields.js';
import { note, render } from '../../io/render.js';
import type { RotateSecretFlags } from './definition.js';

export default async function webhookRotateSecret(ctx: Context, id: string, opts: RotateSecretFlags): Promise<void> {
  // A running receiver keeps verifying with the old secret and refuses what follows.
  if (!ctx.opts.yes) {
    ctx.warn(`Deliveries after a rotation are signed with the new secret only: every receiver (a running \`voicectl listen\` too) needs it${opts.saveSecret ? '' : ' (--save-secret keeps it in the profile, where listen picks it up)'}.`);
  }
  const ok = await confirm(ctx, `Rotate the signing secret of webhook endpoint ${id}?`);
  if (!ok) throw new FailureError('Cancelled: the secret was not rotated.');
  const api = await ctx.api();
  const { secret, body } = await withSpinner(ctx, 'Rotating the secret', () => rotateSecret(api, id));
  if (!secret) {
    throw new FailureError(`The secret of endpoint ${id} was rotated, but the service's answer holds no new secret.`, {
      hint: 'Deliveries are now signed with a secret you do not have; rotate again, or delete the endpoint and create a new one.',
    });
  }
  await render(ctx, { json: body && typeof body === 'object' ? body : { id, secret }, layout: 'pretty', human: () => ctx.out(`${ctx.color.bold('id'.padEnd(7))}  ${id}`) });
  await showSecret(ctx, id, secret, opts.saveSecret);
  note(ctx, ctx.errColor.dim(opts.saveSecret
    ? 'Deliveries signed from now on use the new secret: `voicectl listen` picks it up from the profile; update any other receiver.'
    : `Deliveries signed from now on use the new secret: update your receiver (\`voicectl listen --secret-stdin\`, or rotate with --save-secret and run \`voicectl listen --endpoint ${id}\`).`));
}
