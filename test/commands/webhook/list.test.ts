/** `voicectl webhook list`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { webhookHarness } from './endpoints.js';

const { h, endpoint } = webhookHarness();

describe('webhook list', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'list']);

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
