/**
 * Where `listen` (and `trigger`) get the signing secret: --secret, then --endpoint (the
 * profile's saved secret for that id), then VOICECTL_WEBHOOK_SECRET, then the profile's
 * webhook_secret. A profile secret is re-read after a mismatch, so a `--save-secret`
 * rotation or re-registration is picked up without a restart.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readSavedSecret } from '../../webhooks/saved-secret.js';
import { isLoopbackUrl } from '../../webhooks/url-policy.js';

export interface SecretSource {
  secrets: string[];
  /** Words for the banner: where the secret came from. */
  from: string;
  reload?: () => string[] | undefined;
  fromProfile: boolean;
}

export function resolveSecret(
  ctx: Context,
  opts: { secret?: string; endpoint?: string; skipVerify?: boolean },
  registerHint?: string,
): SecretSource | null {
  if (opts.skipVerify && (opts.secret || opts.endpoint)) {
    throw new UsageError('--skip-verify contradicts --secret and --endpoint.', { hint: 'Give a secret to verify with, or --skip-verify, not both.' });
  }
  if (opts.secret !== undefined && opts.endpoint !== undefined) {
    throw new UsageError('Give --secret or --endpoint, not both.');
  }
  if (opts.secret !== undefined) {
    if (opts.secret.trim() === '') throw new UsageError('--secret is empty.');
    return { secrets: [opts.secret], from: 'the --secret flag', fromProfile: false };
  }
  if (opts.endpoint !== undefined) {
    const saved = readSavedSecret(ctx);
    const profileName = ctx.settings().profileName;
    if (!saved || (saved.endpointId !== undefined && saved.endpointId !== opts.endpoint)) {
      throw new UsageError(
        saved
          ? `Profile "${profileName}" holds the secret of endpoint ${saved.endpointId}, not ${opts.endpoint}.`
          : `No webhook secret is saved in profile "${profileName}".`,
        {
          hint: `A secret is shown only when it is created: run \`voicectl webhook rotate-secret ${opts.endpoint} --save-secret\` (later deliveries use the new secret), or pass --secret.`,
        },
      );
    }
    const id = opts.endpoint;
    return {
      secrets: [saved.secret],
      from: `the secret saved for endpoint ${id} in profile "${profileName}"`,
      fromProfile: true,
      reload: () => {
        const now = readSavedSecret(ctx);
        return now && (now.endpointId === undefined || now.endpointId === id) ? [now.secret] : undefined;
      },
    };
  }
  const env = ctx.env.VOICECTL_WEBHOOK_SECRET;
  if (env !== undefined && env.trim() !== '') return { secrets: [env], from: 'VOICECTL_WEBHOOK_SECRET', fromProfile: false };
  const saved = !opts.skipVerify ? readSavedSecret(ctx) : undefined;
  if (saved) {
    return {
      secrets: [saved.secret],
      from: `the secret saved in profile "${saved.profileName}"${saved.endpointId ? ` (endpoint ${saved.endpointId})` : ''}`,
      fromProfile: true,
      reload: () => {
        const now = readSavedSecret(ctx);
        return now ? [now.secret] : undefined;
      },
    };
  }
  if (opts.skipVerify) return null;
  const sandbox = isLoopbackUrl(ctx.settings().baseUrl) && registerHint;
  throw new UsageError('No webhook secret to verify signatures with.', {
    hint: sandbox
      ? `Register this listener with the sandbox first, saving its secret:\n  ${registerHint}\nthen run listen again. Or pass --secret, set VOICECTL_WEBHOOK_SECRET, or --skip-verify.`
      : 'Pass --secret (the secret `voicectl webhook create` printed), --endpoint ID (a secret saved with --save-secret), set VOICECTL_WEBHOOK_SECRET, or pass --skip-verify to accept unsigned events.',
  });
}
