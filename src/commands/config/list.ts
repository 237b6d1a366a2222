import type { Context } from '../../context.js';
import { inspectConfig, maskProfile } from '../../config/profiles.js';
import { note, render } from '../../io/render.js';

/** Which environment variable overrides which saved key (CLI.md precedence: flag, env, profile). */
export const ENV_FOR_KEY: Record<string, string> = {
  base_url: 'VOICECTL_BASE_URL',
  api_key: 'VOICECTL_API_KEY',
  default_country: 'VOICECTL_DEFAULT_COUNTRY',
  timezone: 'VOICECTL_TZ',
  timeout: 'VOICECTL_TIMEOUT',
  webhook_secret: 'VOICECTL_WEBHOOK_SECRET',
};

export default async function configList(ctx: Context): Promise<void> {
  const { profileName, profile } = ctx.settings();
  const file = inspectConfig(ctx.env);
  if (file.problem) ctx.warn(`cannot use ${file.path}: ${file.problem}.`);
  // A base URL may carry credentials (https://user:pass@host, ?api_key=…): never shown.
  const shown = Object.fromEntries(Object.entries(maskProfile(profile)).map(([k, v]) => [k, ctx.redact(v)]));
  const entries = Object.entries(shown);

  await render(ctx, {
    json: shown,
    csv: { columns: [{ header: 'key', get: ([k]) => k }, { header: 'value', get: ([, v]) => v }], rows: entries },
    human: () => {
      const width = Math.max(0, ...entries.map(([k]) => k.length));
      for (const [k, v] of entries) ctx.out(`${ctx.color.bold(k.padEnd(width))}  ${v}`);
    },
  });

  const c = ctx.errColor;
  ctx.info(c.dim(`Profile "${profileName}" in ${file.path}${file.exists ? '' : ' (not created yet)'}`));
  if (entries.length === 0) note(ctx, 'Nothing saved in this profile yet. Run `voicectl login` to save a base URL and key.');
  const overridden = Object.entries(ENV_FOR_KEY).filter(([, env]) => ctx.env[env]).map(([k, env]) => `${env} overrides ${k}`);
  if (overridden.length > 0) note(ctx, c.dim(`In this environment: ${overridden.join('; ')}.`));
}
