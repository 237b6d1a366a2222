import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_SCOPES } from '../../src/sandbox/world.js';
import { campaignDone, clientFor, FULL, givenAgent, givenCampaign, sandbox, type Client } from './helpers.js';

let sb: Sandbox;
let api: Client;

beforeAll(async () => {
  ({ sb, api } = await sandbox({
    keys: [
      FULL('sk_acme_full', 'acme'),
      { key: 'sk_acme_read', org: 'acme', scopes: ['agents:read', 'calls:read'] },
      { key: 'sk_acme_write', org: 'acme', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:read'] },
      { key: 'sk_acme_none', org: 'acme', scopes: [] },
      FULL('sk_globex_full', 'globex'),
    ],
  }));
});
afterAll(() => sb?.close());

describe('authentication', () => {
  it('uses the first full-scope key of --keys as the default key', () => {
    expect(sb.apiKey).toBe('sk_acme_full');
  });

  it('answers 401 without a key and with an unknown key, in the error envelope', async () => {
    const missing = await api('GET', '/agents', undefined, null);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status_code: 401, error: { message: expect.stringMatching(/X-API-Key/) } });
    const wrong = await api('GET', '/agents', undefined, 'sk_nope_nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/invalid API key/);
  });

  it('serves GET /voices without a key', async () => {
    const res = await api('GET', '/voices', undefined, null);
    expect(res.status).toBe(200);
    expect(res.body.voices.length).toBeGreaterThan(10);
  });

  it.each([
    ['POST', '/agents', 'sk_acme_read', 'agents:write'],
    ['GET', '/agents', 'sk_acme_none', 'agents:read'],
    ['POST', '/campaigns/json', 'sk_acme_read', 'calls:write'],
    ['GET', '/calls', 'sk_acme_none', 'calls:read'],
    ['GET', '/campaigns', 'sk_acme_none', 'calls:read'],
  ])('%s %s with %s is 403 naming %s', async (method, path, key, scope) => {
    const res = await api(method, path, method === 'POST' ? {} : undefined, key);
    expect(res.status).toBe(403);
    expect(res.body.status_code).toBe(403);
    expect(res.body.error.scope).toBe(scope);
    expect(res.body.error.message).toContain(scope);
  });

  it('names calls:dispatch when a key that can create campaigns tries to launch', async () => {
    const agent = await givenAgent(api, {}, 'sk_acme_write');
    const campaign = await givenCampaign(api, agent.id, 2, 'sk_acme_write');
    const res = await api('POST', `/campaigns/${campaign.id}/launch`, undefined, 'sk_acme_write');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ scope: 'calls:dispatch', message: expect.stringContaining('calls:dispatch') });
    const after = await api('GET', `/campaigns/${campaign.id}`, undefined, 'sk_acme_write');
    expect(after.body.status).toBe('draft');
    expect(after.body.contacts_by_status.pending).toBe(2);
  });

  it('lets a read-only key read but not write', async () => {
    expect((await api('GET', '/agents', undefined, 'sk_acme_read')).status).toBe(200);
    expect((await api('GET', '/calls', undefined, 'sk_acme_read')).status).toBe(200);
    expect((await api('DELETE', '/agents/00000000-0000-4000-8000-000000000000', undefined, 'sk_acme_read')).status).toBe(403);
  });

  it('knows every scope of the spec', () => {
    expect(ALL_SCOPES.sort()).toEqual(['agents:read', 'agents:write', 'calls:dispatch', 'calls:read', 'calls:write', 'webhooks:manage']);
  });
});

describe('organizations', () => {
  it("answers another organization's ids with a 404 identical to a nonexistent id", async () => {
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 3);
    expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBe(200);
    await campaignDone(api, campaign.id);
    const calls = (await api('GET', `/calls?campaign_id=${campaign.id}`)).body.calls;
    const callId = calls[0].call_id;
    const ghostUuid = '3f2c1e4a-9b8d-4c7e-8f6a-5d4c3b2a1f0e';

    const pairs: Array<[string, string, string]> = [
      ['GET', `/agents/${agent.id}`, `/agents/${ghostUuid}`],
      ['PATCH', `/agents/${agent.id}`, `/agents/${ghostUuid}`],
      ['DELETE', `/agents/${agent.id}`, `/agents/${ghostUuid}`],
      ['GET', `/campaigns/${campaign.id}`, `/campaigns/${ghostUuid}`],
      ['GET', `/campaigns/${campaign.id}/contacts`, `/campaigns/${ghostUuid}/contacts`],
      ['POST', `/campaigns/${campaign.id}/launch`, `/campaigns/${ghostUuid}/launch`],
      ['GET', `/calls/${callId}`, '/calls/call_000000000000000000000000'],
      ['GET', `/calls/${callId}/recording-url`, '/calls/call_000000000000000000000000/recording-url'],
    ];
    for (const [method, theirs, ghost] of pairs) {
      const body = method === 'PATCH' ? { name: 'x' } : undefined;
      const a = await api(method, theirs, body, 'sk_globex_full');
      const b = await api(method, ghost, body, 'sk_globex_full');
      expect(a.status, `${method} ${theirs}`).toBe(404);
      expect(b.status).toBe(404);
      // Same body once the id itself is taken out of the message.
      expect(JSON.stringify(a.body).replace(theirs.split('/')[2]!, 'ID')).toBe(JSON.stringify(b.body).replace(ghost.split('/')[2]!, 'ID'));
    }
    // Nothing of acme's leaks into globex's lists, and acme's agent survived globex's DELETE.
    expect((await api('GET', '/agents', undefined, 'sk_globex_full')).body.total).toBe(0);
    expect((await api('GET', '/calls', undefined, 'sk_globex_full')).body.total).toBe(0);
    expect((await api('GET', '/campaigns', undefined, 'sk_globex_full')).body.total).toBe(0);
    expect((await api('GET', `/calls?campaign_id=${campaign.id}`, undefined, 'sk_globex_full')).body.total).toBe(0);
    expect((await api('GET', `/agents/${agent.id}`)).status).toBe(200);
  });

  it("refuses a campaign for another organization's agent as not found", async () => {
    const agent = await givenAgent(api);
    const res = await api('POST', '/campaigns/json', { name: 'x', agent_id: agent.id, contacts: [{ phone_number: '+919876543210' }] }, 'sk_globex_full');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain(agent.id);
  });
});

describe('the server', () => {
  it('logs requests for assertions', async () => {
    const before = sb.requests.length;
    await api('POST', '/agents', { name: 'Logged', voice_name: 'Priya' });
    const posts = sb.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/agents');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({ name: 'Logged' });
  });

  it('answers an unknown path with 404 and a wrong method with 405', async () => {
    expect((await api('GET', '/nothing-here')).status).toBe(404);
    expect((await api('PUT', '/agents')).status).toBe(405);
  });

  it('rejects a body that is not JSON with 400, and a non-JSON content type with 415', async () => {
    const bad = await fetch(`${sb.url}/agents`, { method: 'POST', headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' }, body: '{"name":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toMatch(/not valid JSON/);
    const form = await fetch(`${sb.url}/agents`, { method: 'POST', headers: { 'x-api-key': sb.apiKey, 'content-type': 'text/plain' }, body: 'name=x' });
    expect(form.status).toBe(415);
  });

  it('delays every response by --latency', async () => {
    const slow = await sandbox({ latencyMs: 150 });
    try {
      const slowApi = clientFor(slow.sb);
      for (const [method, path] of [['GET', '/voices'], ['GET', '/agents'], ['GET', '/nothing']]) {
        const started = performance.now();
        await slowApi(method!, path!);
        // A lower bound only: a slow machine can add time, never remove it.
        expect(performance.now() - started).toBeGreaterThanOrEqual(145);
      }
    } finally {
      await slow.sb.close();
    }
  });
});
