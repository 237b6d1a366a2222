/** `voicectl campaign contacts`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { sharedHarness } from '../../helpers/cli.js';
import { givenAgent, givenCampaign } from '../../helpers/given.js';

const h = sharedHarness();

describe('campaign contacts', () => {
  itShowsHelp((args) => h.run(args), ['campaign', 'contacts']);

  it('lists a campaign\'s contacts with their status', async () => {
    const agent = await givenAgent(h.api);
    const campaign = await givenCampaign(h.api, agent.id, 3);
    const r = await h.run(['campaign', 'contacts', campaign.id, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const contacts = JSON.parse(r.stdout) as Array<{ phone_number: string; status: string }>;
    expect(contacts).toHaveLength(3);
    expect(contacts.every((c) => c.status === 'pending')).toBe(true);
  });

  it('a campaign that does not exist is exit 4, with where to look', async () => {
    const r = await h.run(['campaign', 'contacts', 'no-such-campaign']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('voicectl campaign list');
  });
});
