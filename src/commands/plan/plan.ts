import type { Context } from '../../context.js';
import { ChangesPendingError } from '../../errors.js';
import { maskKeyLike, pendingCount, planFolder, planJson, planWarnings, renderPlan } from '../../gitops/index.js';
import { withSpinner } from '../../io/progress.js';
import { render } from '../../io/render.js';
import type { PlanFlags } from './definition.js';
import { plural } from '../../text/text.js';

type Opts = PlanFlags;

export default async function planVerb(ctx: Context, dir: string, opts: Opts): Promise<void> {
  const api = await ctx.api();
  // The run's key and secrets, and anything key-like, never show in a diff: CI logs are read widely.
  const mask = (text: string) => maskKeyLike(ctx.redact(text));
  const { plan } = await withSpinner(ctx, 'Comparing the files with the account', () =>
    planFolder(api, { dir, baseUrl: api.baseUrl, lockFile: opts.lock, prune: opts.prune, adopt: opts.adopt }));
  for (const w of planWarnings(plan)) ctx.warn(mask(w));
  await render(ctx, { json: planJson(plan, mask), layout: 'pretty', human: () => { for (const line of renderPlan(plan, ctx.color, mask)) ctx.out(line); } });
  const pending = pendingCount(plan);
  if (opts.check && pending > 0) {
    throw new ChangesPendingError(`${plural(pending, 'change')} pending: the account differs from the files.`, {
      hint: `\`voicectl apply ${dir}\` makes the account match them; \`voicectl pull ${dir}\` takes the account's version instead.`,
    });
  }
  // Removed from the files but still in the account: the files no longer describe it, which is drift too.
  if (opts.check && plan.left.length > 0) {
    throw new ChangesPendingError(`Removed from the files, still in the account: ${plan.left.join(', ')}. \`voicectl apply ${dir} --prune\` would delete them.`, {
      hint: 'To keep them managed, declare them again (`voicectl pull` writes the account\'s version); to keep them but stop managing them, remove their entries from voicectl.lock.json.',
    });
  }
}
