/** `voicectl webhook test`: the service sends a ping to the endpoint; the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { webhookHarness } from './endpoints.js';

const { h, endpoint } = webhookHarness();

describe('webhook test', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'test']);

  it('asks the service to send a ping, and a delivery is recorded', async () => {
    const ep = await endpoint('http://127.0.0.1:9/ping-target');
    const r = await h.run(['webhook', 'test', ep.id]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Asked the service to send a ping event to endpoint ${ep.id}.`);
    const deliveries = await h.run(['webhook', 'deliveries', ep.id, '--json']);
    expect(deliveries.stdout).toContain('ping');
  });

  it('an endpoint that does not exist is exit 4', async () => {
    const r = await h.run(['webhook', 'test', 'ep_nowhere']);
    expect(r.exitCode).toBe(4);
  });
});
