import type { Context } from '../../context.js';
import { maskProfile, type ProfileKey } from '../../config/profiles.js';
import { FailureError } from '../../errors.js';
import { render } from '../../io/render.js';

export default async function configGet(ctx: Context, key: ProfileKey): Promise<void> {
  const { profileName, profile } = ctx.settings();
  const masked = maskProfile(profile)[key];
  // A base URL may carry credentials (https://user:pass@host, ?api_key=…): never shown.
  const value = masked === undefined ? undefined : ctx.redact(masked);
  // Like `git config`: an unset key prints nothing and exits non-zero, so scripts can tell.
  if (value === undefined || value === '') {
    throw new FailureError(`${key} is not set in profile "${profileName}".`, { hint: `Set it with: voicectl config set ${key} VALUE` });
  }
  await render(ctx, { json: value, layout: 'compact', human: () => ctx.out(value) });
}
