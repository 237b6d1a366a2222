/** `voicectl call get`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { allCalls, givenFinishedCampaign } from '../../helpers/given.js';

const h = sharedHarness();

describe('call get', () => {
  itShowsHelp((args) => h.run(args), ['call', 'get']);

  it('shows one call of a finished campaign: its number, status and outcome', async () => {
    const campaign = await givenFinishedCampaign(h.api, { contacts: 2 });
    const [call] = await allCalls(h.api, `campaign_id=${campaign.id}`);
    const r = await h.run(['call', 'get', call.call_id, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as { call_id: string; phone_number: string };
    expect(shown.call_id).toBe(call.call_id);
    expect(shown.phone_number).toBe(call.phone_number);
  });

  it('a call that does not exist is exit 4', async () => {
    const r = await h.run(['call', 'get', 'call_nowhere']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('call_nowhere');
  });
});
