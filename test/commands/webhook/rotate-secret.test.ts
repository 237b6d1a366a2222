/** `voicectl webhook rotate-secret`, the built binary against the sandbox. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { webhookHarness } from './endpoints.js';

const { h, endpoint } = webhookHarness();

describe('webhook rotate-secret', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'rotate-secret']);

  it('shows a new secret, not the old one, and --save-secret keeps it in the profile', async () => {
    const ep = await endpoint();
    const r = await h.run(['webhook', 'rotate-secret', ep.id, '--save-secret', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const shown = /^secret\s+(\S+)/m.exec(r.stdout)?.[1];
    expect(shown).toBeTruthy();
    expect(shown).not.toBe(ep.secret);
    const config = JSON.parse(readFileSync(join(h.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toMatchObject({ webhook_secret: shown, webhook_endpoint: ep.id });
  });

  it('an endpoint that does not exist is exit 4', async () => {
    const r = await h.run(['webhook', 'rotate-secret', 'ep_nowhere', '--yes']);
    expect(r.exitCode).toBe(4);
  });
});
