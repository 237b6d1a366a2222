/**
 * The webhook secret kept in a profile (`--save-secret`), so `voicectl listen` can verify
 * without the secret on the command line. One endpoint per profile: the id is saved with
 * the secret so `listen --endpoint ID` can tell a stale secret from a matching one.
 */
import type { Context } from '../context.js';
import { readProfile } from '../config/profiles.js';

export interface SavedSecret {
  secret: string;
  endpointId?: string;
  profileName: string;
}

export async function saveWebhookSecret(ctx: Context, endpointId: string, secret: string): Promise<{ profileName: string; path: string }> {
  const { checkProfileName, openStore } = await import('../config/store.js');
  const profileName = checkProfileName(ctx.settings().profileName);
  const store = await openStore(ctx.env);
  await store.update(profileName, { webhook_secret: secret, webhook_endpoint: endpointId });
  return { profileName, path: store.path };
}

/** Read fresh from disk every time: a rotation saved by another process is picked up. */
export function readSavedSecret(ctx: Context): SavedSecret | undefined {
  const profileName = ctx.settings().profileName;
  const profile = readProfile(ctx.env, profileName);
  if (!profile.webhook_secret) return undefined;
  return { secret: profile.webhook_secret, endpointId: profile.webhook_endpoint, profileName };
}
