/** `voicectl webhook list`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { sharedHarness } from '../../helpers/cli.js';

const h = sharedHarness({ allowLocalWebhooks: true });

async function endpoint(url = 'https://hooks.example.com/voice'): Promise<{ id: string; secret: string }> {
  const local = url.startsWith('http://127.0.0.1') ? ['--allow-local'] : [];
  const r = await h.run(['webhook', 'create', '--url', url, ...local, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; secret: string };
}

describe('webhook list', () => {
  it('--help exits 0', async () => {
    expect((await h.run(['webhook', 'list', '--help'])).exitCode).toBe(0);
  });

  it('lists the endpoints, never their secrets', async () => {
    const ep = await endpoint('https://hooks.example.com/listed');
    const r = await h.run(['webhooks', 'ls', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(ep.id);
    expect(r.stdout).not.toContain(ep.secret);
  });

  it('a key the service refuses is exit 3', async () => {
    const r = await h.run(['webhook', 'list'], { env: { VOICECTL_API_KEY: 'sk_not_a_key' } });
    expect(r.exitCode).toBe(3);
  });
});
