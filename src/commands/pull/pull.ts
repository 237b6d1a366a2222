import type { Context } from '../../context.js';
import { pull, type PullResult } from '../../gitops/index.js';
import { confirm } from '../../io/prompter.js';
import { withSpinner } from '../../io/progress.js';
import { render } from '../../io/render.js';
import type { PullFlags } from './definition.js';
import { plural } from '../../text/text.js';

type Opts = PullFlags;

export default async function pullVerb(ctx: Context, dir: string, opts: Opts): Promise<void> {
  const api = await ctx.api();
  const result = await withSpinner(ctx, 'Reading the account', () => pull(api, {
    dir,
    baseUrl: api.baseUrl,
    lockFile: opts.lock,
    confirmReplace: (file) => confirm(ctx, `Replace ${file} with the account's current state?`),
    warn: (line) => ctx.warn(line),
  }));
  await render(ctx, { json: result, layout: 'pretty', human: () => sayPulled(ctx, dir, result) });
}

function sayPulled(ctx: Context, dir: string, result: PullResult): void {
  if (!result.written) {
    ctx.info('Nothing written.');
    return;
  }
  ctx.info(`Wrote ${plural(result.agents, 'agent')}, ${plural(result.documents, 'document reference')}, ${plural(result.webhooks, 'webhook endpoint')}:`);
  for (const f of result.files) ctx.out(f);
  ctx.info(ctx.errColor.dim(`Next: edit the files, then \`voicectl plan ${dir}\` and \`voicectl apply ${dir}\`.`));
}
