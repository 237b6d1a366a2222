/** `voicectl webhook rotate-secret`, the built binary against the sandbox. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedHarness } from '../../helpers/cli.js';

const h = sharedHarness({ allowLocalWebhooks: true });

async function endpoint(url = 'https://hooks.example.com/voice'): Promise<{ id: string; secret: string }> {
  const local = url.startsWith('http://127.0.0.1') ? ['--allow-local'] : [];
  const r = await h.run(['webhook', 'create', '--url', url, ...local, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; secret: string };
}

describe('webhook rotate-secret', () => {
  it('--help exits 0', async () => {
    expect((await h.run(['webhook', 'rotate-secret', '--help'])).exitCode).toBe(0);
  });

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
