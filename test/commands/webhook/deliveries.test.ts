/** `voicectl webhook deliveries`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { webhookHarness } from './endpoints.js';

const { h, endpoint } = webhookHarness();

describe('webhook deliveries', () => {
  itShowsHelp((args) => h.run(args), ['webhook', 'deliveries']);

  it('shows each delivery with its event and status', async () => {
    const ep = await endpoint('http://127.0.0.1:9/deliveries-target');
    expect((await h.run(['webhook', 'test', ep.id])).exitCode).toBe(0);
    const r = await h.run(['webhook', 'deliveries', ep.id, '-o', 'table']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('ping');
  });

  it('an endpoint that does not exist is exit 4', async () => {
    const r = await h.run(['webhook', 'deliveries', 'ep_nowhere']);
    expect(r.exitCode).toBe(4);
  });
});
