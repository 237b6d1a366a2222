import type { Context } from '../../context.js';
import { isSecretKey, maskKey, type ProfileKey } from '../../config/profiles.js';
import { checkProfileName, normalizeValue, openStore } from '../../config/store.js';
import { SETTING_CHECKS } from './checks.js';

export default async function configSet(ctx: Context, key: ProfileKey, value: string): Promise<void> {
  const profile = checkProfileName(ctx.settings().profileName);
  const stored = await normalizeValue(key, value, SETTING_CHECKS);
  const store = await openStore(ctx.env);
  await store.update(profile, { [key]: stored });
  // A base URL may carry a gateway's user:password@ or ?api_key=: echoed masked, as config list shows it.
  const shown = isSecretKey(key) ? maskKey(stored) : ctx.redact(stored);
  ctx.info(`Set ${key} = ${shown} in profile "${profile}" (${store.path}).`);
  if (key === 'api_key') {
    ctx.warn('a key typed on the command line shows in process lists and shell history; `voicectl login --with-key-stdin` avoids both.');
  } else if (isSecretKey(key)) {
    ctx.warn('a secret typed on the command line shows in process lists and shell history; `voicectl webhook rotate-secret --save-secret` saves one without it.');
  }
}
