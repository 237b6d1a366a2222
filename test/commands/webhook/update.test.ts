/** `voicectl webhook update`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { webhookHarness } from './endpoints.js';

const { h, endpoint } = webhookHarness();

describe('webhook update', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'update']);

  it('sends only the fields given: --disable pauses deliveries', async () => {
    const ep = await endpoint();
    const r = await h.run(['webhook', 'update', ep.id, '--disable', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = h.sandbox.requests.filter((q) => q.method === 'PATCH' && q.path === `/webhooks/endpoints/${ep.id}`).at(-1)!;
    expect(sent.body).toEqual({ enabled: false });
  });

  it('nothing to change, or --enable with --disable, is exit 2', async () => {
    const ep = await endpoint();
    expect((await h.run(['webhook', 'update', ep.id])).exitCode).toBe(2);
    expect((await h.run(['webhook', 'update', ep.id, '--enable', '--disable'])).exitCode).toBe(2);
  });
});
