/** `voicectl campaign list`, the built binary against the sandbox. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { refusedBeforeRequest, sharedHarness } from '../../helpers/cli.js';
import { givenAgent, givenCampaign } from '../../helpers/given.js';

const h = sharedHarness();

describe('campaign list', () => {
  itShowsHelp((args) => h.run(args), ['campaign', 'list']);

  it('lists campaigns, and only drafts with --status draft', async () => {
    const agent = await givenAgent(h.api);
    const draft = await givenCampaign(h.api, agent.id, 2, undefined, 'Listed draft');
    const r = await h.run(['campaign', 'list', '--status', 'draft', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as Array<{ id: string; status: string }>;
    expect(listed.map((c) => c.id)).toContain(draft.id);
    expect(listed.every((c) => c.status === 'draft')).toBe(true);
  });

  it('a page size out of range is exit 2, before any request', async () => {
    await refusedBeforeRequest(h, ['campaign', 'list', '--limit', '0'], 2, '1 to 200');
  });
});
