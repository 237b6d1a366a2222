import type { Context } from '../../context.js';
import { inspectConfig, type ProfileKey } from '../../config/profiles.js';
import { checkProfileName, openStore } from '../../config/store.js';

export default async function configUnset(ctx: Context, key: ProfileKey): Promise<void> {
  const profile = checkProfileName(ctx.settings().profileName);
  // Removing from a file that does not exist must not create it (or its directory).
  if (!inspectConfig(ctx.env).exists) {
    ctx.info(`${key} was not set in profile "${profile}".`);
    return;
  }
  const store = await openStore(ctx.env);
  if (!(key in store.profile(profile))) {
    ctx.info(`${key} was not set in profile "${profile}".`);
    return;
  }
  await store.update(profile, { [key]: undefined });
  ctx.info(`Removed ${key} from profile "${profile}" (${store.path}).`);
}
