import type { Context } from '../../context.js';
import { pinCalls } from '../../quality/pin.js';
import { render } from '../../io/render.js';
import type { PinFlags } from './definition.js';
import { noun } from '../../text/text.js';

export default async function callPin(ctx: Context, ids: string[], flags: PinFlags): Promise<void> {
  const pinned = await pinCalls(ctx, ids, flags.to, { redact: flags.redact });
  await render(ctx, {
    json: pinned,
    human: () => {
      for (const p of pinned) ctx.out(p.file);
    },
  });
  ctx.info(`Pinned ${pinned.length} ${noun(pinned.length, 'call')}${flags.redact ? ' (redacted)' : ''} to ${flags.to}; check them offline with: voicectl calls check --rules RULES --from-file ${flags.to}`);
}
