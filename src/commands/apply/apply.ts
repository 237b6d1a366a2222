import { resolve, sep } from 'node:path';
import type { Context } from '../../context.js';
import { FailureError, UsageError } from '../../errors.js';
import { ApplyStopped, applyFolder, maskKeyLike, planJson, renderPlan, stepTitle, type ApplyHooks, type Step } from '../../gitops/index.js';
import { checkSecretsFile, saveSecrets } from '../../gitops/secrets.js';
import { confirm } from '../../io/prompter.js';
import { note, render, showBeforeAsking } from '../../io/render.js';
import type { ApplyFlags } from './definition.js';
import { plural } from '../../text/text.js';

type Opts = ApplyFlags;

export default async function applyVerb(ctx: Context, dir: string, opts: Opts): Promise<void> {
  const secretsOut = opts.secretsOut ? resolve(opts.secretsOut) : undefined;
  if (secretsOut && (secretsOut + sep).startsWith(resolve(dir) + sep)) {
    throw new UsageError(`--secrets-out ${opts.secretsOut} is inside ${dir}, whose files are committed: secrets never go there.`, {
      hint: 'Choose a path outside the folder, for example ~/.config/voicectl/webhook-secrets.json.',
    });
  }
  if (secretsOut) await checkSecretsFile(secretsOut);
  const api = await ctx.api();
  const mask = (text: string) => maskKeyLike(ctx.redact(text));
  const c = ctx.errColor;
  const done: Step[] = [];
  const lostSecrets: string[] = [];
  let outcome;
  try {
    outcome = await applyFolder(api, {
      dir,
      baseUrl: api.baseUrl,
      lockFile: opts.lock,
      prune: opts.prune,
      adopt: opts.adopt,
      planned(plan) {
        for (const w of plan.warnings) ctx.warn(mask(w));
      },
      async confirmResend(steps) {
        if (opts.resendPending) return true;
        // --yes answers the usual question, not this one: in CI it would resend silently.
        if (ctx.opts.yes || !ctx.io.canPrompt()) return false;
        return confirm(ctx, `An earlier apply sent these creates and stopped before the answer, and the account does not show them (the service may still be making them):\n${steps.map((s) => `  ${mask(stepTitle(s))}`).join('\n')}\nSend them again?`);
      },
      async confirm(plan) {
        // With --json, stdout is for the result: a person answering the question still sees the plan.
        showBeforeAsking(ctx, (color) => renderPlan(plan, color, mask));
        return confirm(ctx, 'Apply these changes to the account?');
      },
      hooks: {
        done(step, title) {
          done.push(step);
          note(ctx, `${c.green('✓')} ${mask(title)}`);
        },
        secret: secretHook(ctx, secretsOut, lostSecrets),
      },
    });
  } catch (err) {
    if (!(err instanceof ApplyStopped)) throw err;
    ctx.info(c.red(`✗ ${mask(stepTitle(err.failed))}`));
    ctx.info(`Done: ${plural(err.done.length, 'step')}. Not done: this one and ${err.remaining.length} more${err.remaining.length ? ':' : '.'}`);
    for (const s of err.remaining) ctx.info(`  ${mask(stepTitle(s))}`);
    ctx.info(c.dim(`The lock file records what was done. Run \`voicectl apply ${dir}\` again to finish.`));
    throw err.cause;
  }
  const { plan, result } = outcome;
  await render(ctx, {
    json: { ...planJson(plan, mask), applied: (result?.done ?? []).map((s) => mask(stepTitle(s))) },
    layout: 'pretty',
    human: () => {
      if (result) ctx.info(c.green(`Applied ${plural(done.length, 'step')}.`));
      else if (plan.steps.length === 0) ctx.out('No changes: the account matches the files.');
      else ctx.info('Nothing changed.');
    },
  });
  if (lostSecrets.length) {
    throw new FailureError(`Everything was applied, but ${secretsOut} could not be written: the signing secret of ${lostSecrets.join(', ')} is not in it (see above).`);
  }
}

/** Where a new endpoint's secret goes: the file, the terminal, or nowhere with the command that makes a new one. */
function secretHook(ctx: Context, secretsOut: string | undefined, lost: string[]): ApplyHooks['secret'] {
  const c = ctx.errColor;
  const show = (handle: string, id: string, secret: string) => {
    if (ctx.io.canPrompt()) {
      ctx.info(`  signing secret of webhook ${handle} (${id}): ${secret}`);
      ctx.info(c.yellow('  It is shown only this once and is not kept in the files. Save it now.'));
    } else {
      ctx.warn(`webhook ${handle} (${id}) was created; its signing secret is not printed off a terminal. `
        + `Get a new one with \`voicectl webhook rotate-secret ${id} --save-secret\`${secretsOut ? '' : ', or pass --secrets-out FILE next time'}.`);
    }
  };
  return async (handle, id, secret) => {
    if (!secret) {
      ctx.warn(`the service sent no signing secret for webhook ${handle} (${id}); \`voicectl webhook rotate-secret ${id} --save-secret\` makes one.`);
      return;
    }
    if (!secretsOut) {
      show(handle, id, secret);
      return;
    }
    try {
      await saveSecrets(secretsOut, handle, id, secret);
      ctx.info(`  signing secret of webhook ${handle} written to ${secretsOut}`);
    } catch (err) {
      // The endpoint exists and the lock says so: the step is done, only the secret must not be lost.
      ctx.warn(`${(err as Error).message}`);
      show(handle, id, secret);
      lost.push(`webhook ${handle} (${id})`);
    }
  };
}
