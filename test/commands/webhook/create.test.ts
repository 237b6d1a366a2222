/** `voicectl webhook create`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { refusedBeforeRequest } from '../../helpers/cli.js';
import { webhookHarness } from './endpoints.js';

const { h } = webhookHarness();

describe('webhook create', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'create']);

  it('creates an endpoint for the events named and shows its secret once', async () => {
    const r = await h.run(['webhook', 'create', '--url', 'https://hooks.example.com/created', '--events', 'call.ended,ping', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const ep = JSON.parse(r.stdout) as { id: string; secret: string; events: string[] };
    expect(ep.secret).toBeTruthy();
    const sent = h.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/webhooks/endpoints').at(-1)!;
    expect(sent.body).toMatchObject({ url: 'https://hooks.example.com/created', events: ['call.ended', 'ping'] });
  });

  it('plain HTTP is exit 2 and nothing is sent', async () => {
    await refusedBeforeRequest(h, ['webhook', 'create', '--url', 'http://hooks.example.com/plain'], 2, 'plain HTTP is not accepted');
  });
});
