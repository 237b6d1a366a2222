/** `voicectl approve HASH`: a person at a terminal approves one launch plan that `voicectl mcp` made. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itShowsHelp } from '../../helpers/verb-home.js';
import { harness, type Harness } from '../../helpers/cli.js';
import { givenAgent, givenCampaign } from '../../helpers/given.js';
import { run } from '../../helpers/run.js';
import { startMcp, type McpSession } from '../../mcp/client.js';

let h: Harness;
let mcp: McpSession;
beforeAll(async () => {
  h = await harness();
  mcp = await startMcp(['--allow-launch'], h.env);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
});

describe('approve', () => {
  itShowsHelp((args) => h.run(args), ['approve']);

  it('shows the plan at a terminal and, answered yes, lets the launch go ahead once', async () => {
    const agent = await givenAgent(h.api, { name: 'Approved Priya' });
    const campaign = await givenCampaign(h.api, agent.id, 2, undefined, 'Approved');
    const launch = (): Promise<any> => mcp.client.callTool({ name: 'campaign_launch', arguments: { campaign_id: campaign.id, ignore_calling_hours: true } });
    const refused = await launch();
    expect(refused.isError).toBe(true);
    const approved = await run(['approve', refused.structuredContent.plan_hash], {
      env: { VOICECTL_CONFIG_DIR: h.configDir },
      tty: true,
      answer: async ({ stdin, stderr }) => {
        for (let i = 0; i < 500 && !/Approve this launch/.test(stderr()); i++) await new Promise((r) => setTimeout(r, 10));
        stdin.write('y\n');
      },
    });
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('Dials:    2 contacts');
    expect((await launch()).isError).toBeFalsy();
  });

  it('what is not a plan hash is exit 2', async () => {
    const r = await h.run(['approve', 'deadbeef']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a plan hash');
  });
});
