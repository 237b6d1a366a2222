/** `voicectl webhook delete`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { webhookHarness } from './endpoints.js';

const { h, endpoint } = webhookHarness();

describe('webhook delete', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'delete']);

  it('asks first: under --no-input it needs --yes; with it the endpoint is gone', async () => {
    const ep = await endpoint();
    expect((await h.run(['webhook', 'delete', ep.id, '--no-input'])).exitCode).toBe(2);
    const r = await h.run(['webhook', 'rm', ep.id, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await h.run(['webhook', 'list', '--json'])).stdout).not.toContain(ep.id);
  });

  it('an endpoint that does not exist is exit 4', async () => {
    const r = await h.run(['webhook', 'delete', 'ep_nowhere', '--yes']);
    expect(r.exitCode).toBe(4);
  });
});
