/**
 * The shared create-and-launch workflow, in process against the sandbox: it returns what
 * it created and launched, calls its hooks before and after each request, leaves a draft
 * when told to, and on a failure throws one error holding what was done, the step that
 * failed (or got no answer), what was not attempted, and the resume command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { CampaignsStopped, createCampaigns, type PlannedCampaign } from '../../src/campaigns/create-campaigns.js';
import { testContext } from '../../src/context-test.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientFor, contacts, givenAgent } from '../helpers/given.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const tmp = tempDir('voicectl-workflow-');
let sandbox: Sandbox;
let agentId: string;
const FULL = 'sk_test_full_0000000000000000';
const NO_DISPATCH = 'sk_test_write_000000000000000';

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0, timeScale: 600, seed: 2,
    keys: [
      { key: FULL, org: 'org_a', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:dispatch', 'calls:read', 'webhooks:manage'] },
      { key: NO_DISPATCH, org: 'org_a', scopes: ['agents:read', 'calls:write', 'calls:read'] },
    ],
  });
  agentId = (await givenAgent(clientFor({ url: sandbox.url, apiKey: FULL }))).id;
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

function api(key = FULL): Promise<ApiClient> {
  const ctx = testContext({ env: { VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: key, VOICECTL_CONFIG_DIR: tmp.dir } });
  return ctx.api();
}

function plan(names: string[], launch = true): PlannedCampaign[] {
  return names.map((name, i) => ({ draft: { name, agent_id: agentId, contacts: contacts(3, i * 10) }, launch }));
}

const posts = () => sandbox.requests.filter((q) => q.method === 'POST').map((q) => q.path.replace(/[0-9a-f-]{36}/, 'ID'));

describe('createCampaigns', () => {
  it('creates every campaign, then launches them, telling its hooks before and after each request', async () => {
    const calls: string[] = [];
    const before = sandbox.requests.length;
    const result = await createCampaigns(await api(), plan(['A', 'B']), {
      beforeCreate: (p) => { calls.push(`before create ${p.draft.name}`); },
      created: (p, id) => { calls.push(`created ${p.draft.name} ${id.length}`); },
      beforeLaunch: (p) => { calls.push(`before launch ${p.draft.name}`); },
      launched: (p) => { calls.push(`launched ${p.draft.name}`); },
    });
    expect(calls).toEqual(['before create A', 'created A 36', 'before create B', 'created B 36', 'before launch A', 'launched A', 'before launch B', 'launched B']);
    expect(result.map((r) => [r.planned.draft.name, r.launched, r.campaign?.status])).toEqual([['A', true, 'draft'], ['B', true, 'draft']]);
    expect(sandbox.requests.slice(before).map((q) => `${q.method} ${q.path.replace(/[0-9a-f-]{36}/, 'ID')}`)).toEqual([
      'POST /campaigns/json', 'POST /campaigns/json', 'POST /campaigns/ID/launch', 'POST /campaigns/ID/launch',
    ]);
  });

  it('leaves a campaign a draft when beforeLaunch says no, and does not create one given by id', async () => {
    const [first] = await createCampaigns(await api(), plan(['Draft'], false));
    const before = posts().length;
    const result = await createCampaigns(await api(), [{ ...plan(['Draft'])[0]!, id: first!.id }, ...plan(['Kept'])], {
      beforeLaunch: (p) => p.draft.name !== 'Kept',
    });
    expect(posts().slice(before)).toEqual(['/campaigns/json', '/campaigns/ID/launch']);
    expect(result.map((r) => [r.id === first!.id, r.launched])).toEqual([[true, true], [false, false]]);
  });

  it('a refused create stops with what was created, the failed step, what was not attempted, and the resume command', async () => {
    const bad = plan(['One', 'Two', 'Three']);
    bad[1]!.draft.contacts = [{ phone_number: '12345' }];
    const err = await createCampaigns(await api(), bad, {}, { resume: (at) => `resume from ${at.planned.draft.name}` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CampaignsStopped);
    const s = err as CampaignsStopped;
    expect(s.done.map((r) => [r.planned.draft.name, r.launched])).toEqual([['One', false]]);
    expect(s.at).toMatchObject({ step: 'create', planned: { draft: { name: 'Two' } } });
    expect(s.unknown).toBe(false);
    expect(s.notAttempted.map((p) => p.draft.name)).toEqual(['Three']);
    expect(s.drafts.map((r) => r.planned.draft.name)).toEqual(['One']);
    expect(s.resume).toBe('resume from Two');
    expect((s.cause as { status?: number }).status).toBeGreaterThanOrEqual(400);
  });

  it('a refused launch stops at the launch, the campaigns created and still drafts', async () => {
    const err = await createCampaigns(await api(NO_DISPATCH), plan(['X', 'Y'])).catch((e: unknown) => e);
    const s = err as CampaignsStopped;
    expect(s).toBeInstanceOf(CampaignsStopped);
    expect(s.at).toMatchObject({ step: 'launch', planned: { draft: { name: 'X' } } });
    expect(s.at.id).toBe(s.done[0]!.id);
    expect(s.drafts.map((r) => r.planned.draft.name)).toEqual(['X', 'Y']);
    expect((s.cause as { status?: number }).status).toBe(403);
  });

  it('a request that gets no answer is unknown: it may have happened', async () => {
    const client = await api();
    const dead = Object.create(client) as ApiClient;
    dead.post = (async () => {
      const { ApiError } = await import('../../src/api/errors.js');
      throw new ApiError({ kind: 'timeout', method: 'POST', url: `${sandbox.url}/campaigns/json`, message: 'no answer within 30s' });
    }) as ApiClient['post'];
    const s = (await createCampaigns(dead, plan(['Quiet'])).catch((e: unknown) => e)) as CampaignsStopped;
    expect(s).toBeInstanceOf(CampaignsStopped);
    expect(s.unknown).toBe(true);
    expect(s.message).toContain('no answer: it may or may not have happened');
  });

  it('a create answered without an id stops as unknown, with an error a person can read', async () => {
    const client = await api();
    const quiet = Object.create(client) as ApiClient;
    quiet.post = (async () => ({})) as ApiClient['post'];
    const s = (await createCampaigns(quiet, plan(['Nameless'])).catch((e: unknown) => e)) as CampaignsStopped;
    expect(s).toBeInstanceOf(CampaignsStopped);
    expect(s.unknown).toBe(true);
    expect((s.cause as Error).message).toBe('The service created "Nameless" but returned no id, so voicectl cannot launch or follow it.');
  });
});

describe('the verbs on the workflow', () => {
  it('campaign create --launch that is refused says once what is left a draft and how to launch it, exit 3', async () => {
    const file = join(tmp.dir, 'three.json');
    writeFileSync(file, JSON.stringify(contacts(3, 500)));
    const r = await run(['campaign', 'create', '--name', 'Refused', '--agent', agentId, '--contacts', file, '--launch', '--ignore-calling-hours', '--yes'], {
      env: { VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: NO_DISPATCH, VOICECTL_CONFIG_DIR: tmp.dir },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split('Created but not launched (drafts, nothing dialed):')).toHaveLength(2);
    expect(r.stderr).toMatch(/"Refused" {2}[0-9a-f-]{36} {4}launch with: voicectl campaign launch [0-9a-f-]{36}/);
    expect(r.stderr).toContain('lacks the "calls:dispatch" scope');
  });
});
