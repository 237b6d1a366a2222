/** `voicectl approve HASH`: a person at a terminal approves one launch plan that `voicectl mcp` made. */
import { describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { givenAgent, givenCampaign } from '../../helpers/given.js';
import { approveAtTerminal, launchTool, mcpForFile } from '../../mcp/client.js';

const w = mcpForFile({ prefix: 'voicectl-approve-', flags: ['--allow-launch'] });

describe('approve', () => {
  itShowsHelp((args) => w.h.run(args), ['approve']);

  it('shows the plan at a terminal and, answered yes, lets the launch go ahead once', async () => {
    const agent = await givenAgent(w.h.api, { name: 'Approved Priya' });
    const campaign = await givenCampaign(w.h.api, agent.id, 2, undefined, 'Approved');
    const launch = () => launchTool(w.mcp, campaign.id);
    const refused = await launch();
    expect(refused.isError).toBe(true);
    const approved = await approveAtTerminal(w.h.configDir, refused.structuredContent.plan_hash);
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('Dials:    2 contacts');
    expect((await launch()).isError).toBeFalsy();
  });

  it('what is not a plan hash is exit 2', async () => {
    const r = await w.h.run(['approve', 'deadbeef']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a plan hash');
  });
});
