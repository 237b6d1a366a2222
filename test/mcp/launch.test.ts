/**
 * A launch through `voicectl mcp` is bound to a person: refused with the plan's hash until
 * `voicectl approve HASH` is answered at a terminal, then launched once; a change to the
 * contacts or the agent makes another plan, and the approval does not carry over.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { clientFor, givenAgent, givenCampaign, type Client } from '../helpers/given.js';
import { run } from '../helpers/run.js';
import { approveAtTerminal, launchTool, startMcp, textOf, type McpSession } from './client.js';

let h: Harness;
let api: Client;
let mcp: McpSession;
let agentId: string;

const launches = (id: string) => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/campaigns/${id}/launch`).length;

function launch(id: string, session = mcp): Promise<any> {
  return launchTool(session, id);
}

function approve(hash: string, answer: 'y' | 'n' = 'y') {
  return approveAtTerminal(h.configDir, hash, answer);
}

beforeAll(async () => {
  h = await harness();
  api = clientFor(h.sandbox);
  agentId = (await givenAgent(api, { name: 'Priya - renewals' })).id;
  mcp = await startMcp(['--allow-launch'], h.env);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await h?.close();
});

describe('campaign_launch', () => {
  it('refuses without an approval, answering the plan and its hash; approve then launches exactly once', async () => {
    const campaign = await givenCampaign(api, agentId, 3, undefined, 'Renewals');
    const refused = await launch(campaign.id);
    expect(refused.isError).toBe(true);
    const hash = refused.structuredContent.plan_hash;
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(refused.structuredContent.outcome).toBe('approval_required');
    expect(refused.structuredContent.plan.contacts).toHaveLength(3);
    expect(refused.structuredContent.plan.agent.id).toBe(agentId);
    expect(textOf(refused)).toContain(`voicectl approve ${hash}`);
    expect(launches(campaign.id)).toBe(0);
    // Asking again without an approval is the same plan, and still nothing is dialed.
    expect((await launch(campaign.id)).structuredContent.plan_hash).toBe(hash);

    const approved = await approve(hash);
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('Renewals');
    expect(approved.stderr).toContain('Dials:    3 contacts');

    const done = await launch(campaign.id);
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ outcome: 'launched', plan_hash: hash });
    expect(launches(campaign.id)).toBe(1);

    // The approval was used: no second launch comes of it.
    const again = await launch(campaign.id);
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/only a draft can be/);
    expect(launches(campaign.id)).toBe(1);
    expect(existsSync(join(h.configDir, 'approvals', 'approved', `${hash}.json`))).toBe(false);
  });

  it('a changed contact list voids the approval', async () => {
    const campaign = await givenCampaign(api, agentId, 2, undefined, 'Changing');
    const hash = (await launch(campaign.id)).structuredContent.plan_hash;
    expect((await approve(hash)).exitCode).toBe(0);
    // Another service could let contacts change between the approval and the launch.
    const org = h.sandbox.world.org(h.sandbox.world.keys.get(h.sandbox.apiKey)!.org);
    org.campaigns[campaign.id]!.contacts[0]!.phone_number = '+919800000999';
    const refused = await launch(campaign.id);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.plan_hash).not.toBe(hash);
    expect(launches(campaign.id)).toBe(0);
  });

  it('a changed agent voids the approval', async () => {
    const agent = await givenAgent(api, { name: 'Changing agent' });
    const campaign = await givenCampaign(api, agent.id, 2, undefined, 'Agent changes');
    const hash = (await launch(campaign.id)).structuredContent.plan_hash;
    expect((await approve(hash)).exitCode).toBe(0);
    expect((await api('PATCH', `/agents/${agent.id}`, { prompt: 'Sell them something else.' })).status).toBeLessThan(300);
    const refused = await launch(campaign.id);
    expect(refused.structuredContent.plan_hash).not.toBe(hash);
    expect(launches(campaign.id)).toBe(0);
  });

  it('approve asks a person at a terminal: no --yes, no answer off a terminal, a "no" approves nothing', async () => {
    const campaign = await givenCampaign(api, agentId, 1, undefined, 'Asked');
    const hash = (await launch(campaign.id)).structuredContent.plan_hash;
    const offTerminal = await h.run(['approve', hash]);
    expect(offTerminal.exitCode).toBe(2);
    expect(offTerminal.stderr).toContain('needs a person at a terminal');
    const yes = await run(['approve', hash, '--yes'], { env: { VOICECTL_CONFIG_DIR: h.configDir }, tty: true });
    expect(yes.exitCode).toBe(2);
    const no = await approve(hash, 'n');
    expect(no.exitCode).toBe(1);
    const unknown = await run(['approve', 'f'.repeat(32)], { env: { VOICECTL_CONFIG_DIR: h.configDir }, tty: true });
    expect(unknown.exitCode).toBe(4);
    expect((await launch(campaign.id)).isError).toBe(true);
    expect(launches(campaign.id)).toBe(0);
  });

  it('--approval-command is the approver: the plan on stdin, the hash as its last argument, exit 0 approves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voicectl-approver-'));
    const yes = await startMcp(['--allow-launch', '--approval-command', `cat > ${join(dir, 'plan.json')}; echo >> ${join(dir, 'args')}`], h.env);
    const no = await startMcp(['--allow-launch', '--approval-command', 'false #'], h.env);
    try {
      const refusedCampaign = await givenCampaign(api, agentId, 2, undefined, 'Refused by the bot');
      const refused = await launch(refusedCampaign.id, no);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('did not approve');
      expect(launches(refusedCampaign.id)).toBe(0);

      const campaign = await givenCampaign(api, agentId, 2, undefined, 'Approved by the bot');
      const done = await launch(campaign.id, yes);
      expect(done.isError, textOf(done)).toBeFalsy();
      expect(launches(campaign.id)).toBe(1);
      const seen = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'));
      expect(seen.hash).toBe(done.structuredContent.plan_hash);
      expect(seen.plan.contacts).toHaveLength(2);
      expect(readFileSync(join(dir, 'args'), 'utf8').trim()).toBe(seen.hash);
    } finally {
      await yes.close();
      await no.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is absent without --allow-launch', async () => {
    const plain = await startMcp(['--allow-write'], h.env);
    try {
      const r = await plain.client.callTool({ name: 'campaign_launch', arguments: { campaign_id: 'x' } }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/not found/);
    } finally {
      await plain.close();
    }
  });
});
