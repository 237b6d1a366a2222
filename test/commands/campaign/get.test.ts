/** `voicectl campaign get`: times a person reads are in the user's zone, named; JSON keeps the service's UTC. */
import { describe, expect, it } from 'vitest';
import { sharedHarness } from '../../helpers/cli.js';
import { givenFinishedCampaign } from '../../helpers/given.js';

const h = sharedHarness();

describe('campaign get', () => {
  it('shows created, launched and completed in the --tz zone, and JSON as the service sent it', async () => {
    const campaign = await givenFinishedCampaign(h.api, { contacts: 3, name: 'Zoned' });
    const shown = await h.run(['campaign', 'get', campaign.id, '--tz', 'Asia/Kolkata']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    for (const [label, key] of [['created', 'created_at'], ['launched', 'launched_at'], ['completed', 'completed_at']] as const) {
      const utc = new Date(campaign[key] as string);
      const local = new Date(utc.getTime() + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      expect(shown.stdout).toMatch(new RegExp(`^${label} +${local} Asia/Kolkata$`, 'm'));
    }
    expect(shown.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);

    const json = await h.run(['campaign', 'get', campaign.id, '--tz', 'Asia/Kolkata', '--json']);
    expect(JSON.parse(json.stdout).created_at).toBe(campaign.created_at);
  });
});
