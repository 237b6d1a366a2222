/** The launch plan: calling-hours findings on the clock given, a hash that does not move with the clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { testContext } from '../../src/context-test.js';
import { makeLaunchPlan } from '../../src/approvals/plan.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientFor, givenAgent, givenCampaign } from '../helpers/given.js';
import { tempDir } from '../helpers/temp.js';

let sb: Sandbox;
let config: ReturnType<typeof tempDir>;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 7 });
  config = tempDir('voicectl-plan-');
});
afterAll(async () => {
  await sb.close();
  config.remove();
});

function contextAt(iso: string): Context {
  return testContext({
    env: { VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey, VOICECTL_CONFIG_DIR: config.dir },
    now: () => new Date(iso),
  });
}

describe('launch plan', () => {
  it('says where the contacts stand against calling hours, and hashes the same at any hour', async () => {
    const api = clientFor(sb);
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 3);
    // 05:30 UTC is 11:00 in India; 17:30 UTC is 23:00 there.
    const day = contextAt('2026-01-15T05:30:00Z');
    const night = contextAt('2026-01-15T17:30:00Z');
    try {
      const open = await makeLaunchPlan(day, await day.api(), campaign.id, {});
      const closed = await makeLaunchPlan(night, await night.api(), campaign.id, {});
      expect(open.findings).toMatchObject({ checked: true, window: '09:00-21:00', total: 3, inside: 3, outside: [] });
      expect(closed.findings).toMatchObject({ checked: true, total: 3, inside: 0 });
      expect(closed.findings.outside[0]).toMatchObject({ count: 3, opens_at: '2026-01-16T03:30:00.000Z' });
      expect(closed.hash).toBe(open.hash);
      expect(open.plan.contacts.map((c) => c.phone_number)).toEqual([...open.plan.contacts.map((c) => c.phone_number)].sort());
      const other = await makeLaunchPlan(day, await day.api(), campaign.id, { calling_hours: '10:00-19:00' });
      expect(other.hash).not.toBe(open.hash);
    } finally {
      await day.close();
      await night.close();
    }
  });
});
