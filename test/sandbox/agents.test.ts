import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { AGENT, allCalls, campaignDone, FULL, givenAgent, givenCampaign, sandbox, type Client } from './helpers.js';

let sb: Sandbox;
let api: Client;

beforeAll(async () => {
  ({ sb, api } = await sandbox({
    keys: [FULL('sk_small_plan', 'small'), FULL('sk_other', 'other')],
    plan: { agent_limit: 3, active_agent_limit: 1, languages: ['en-IN', 'hi-IN', 'ta-IN'] },
  }));
});
afterAll(() => sb?.close());

async function clear(key = 'sk_small_plan') {
  const list = await api('GET', '/agents?limit=200', undefined, key);
  for (const a of list.body.agents) await api('DELETE', `/agents/${a.id}`, undefined, key);
}

describe('agents', () => {
  it('creates, reads, lists, updates and deletes', async () => {
    await clear();
    const created = await api('POST', '/agents', AGENT);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...AGENT, language: 'en-IN', direction: 'outbound', kb_item_ids: [] });
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const got = await api('GET', `/agents/${created.body.id}`);
    expect(got.body).toEqual(created.body);
    const list = await api('GET', '/agents');
    expect(list.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(list.body.agents[0].id).toBe(created.body.id);
    const patched = await api('PATCH', `/agents/${created.body.id}`, { greeting: 'Namaste!', kb_item_ids: [] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ greeting: 'Namaste!', name: 'Asha', prompt: AGENT.prompt });
    expect((await api('DELETE', `/agents/${created.body.id}`)).status).toBe(200);
    expect((await api('GET', `/agents/${created.body.id}`)).status).toBe(404);
  });

  it("defaults the language to the voice's, and keeps an explicit one", async () => {
    await clear();
    expect((await givenAgent(api, { voice_name: 'Priya' })).language).toBe('hi-IN');
    expect((await givenAgent(api, { voice_name: 'Meera' })).language).toBe('ta-IN');
    expect((await givenAgent(api, { voice_name: 'Priya', language: 'en-IN' })).language).toBe('en-IN');
  });

  it('rejects an unknown voice and missing required fields with 400', async () => {
    await clear();
    const voice = await api('POST', '/agents', { ...AGENT, voice_name: 'Nobody' });
    expect(voice.status).toBe(400);
    expect(voice.body.error.message).toMatch(/voice_name/);
    expect((await api('POST', '/agents', { voice_name: 'Priya' })).status).toBe(400);
    expect((await api('POST', '/agents', { ...AGENT, tools: 'take_message' })).status).toBe(400);
  });

  it('returns 402 language_not_allowed for a language outside the plan, explicit or from the voice', async () => {
    await clear();
    const explicit = await api('POST', '/agents', { ...AGENT, language: 'bn-IN' });
    expect(explicit.status).toBe(402);
    expect(explicit.body).toMatchObject({ status_code: 402, error: { limit: 'language_not_allowed' } });
    const fromVoice = await api('POST', '/agents', { ...AGENT, voice_name: 'Camille' });
    expect(fromVoice.status).toBe(402);
    expect(fromVoice.body.error.limit).toBe('language_not_allowed');
    const agent = await givenAgent(api);
    const patch = await api('PATCH', `/agents/${agent.id}`, { language: 'gu-IN' });
    expect(patch.status).toBe(402);
    expect(patch.body.error.limit).toBe('language_not_allowed');
  });

  it('returns 402 agent_limit_exceeded beyond the plan', async () => {
    await clear();
    for (let i = 0; i < 3; i++) await givenAgent(api, { name: `A${i}` });
    const res = await api('POST', '/agents', AGENT);
    expect(res.status).toBe(402);
    expect(res.body.error.limit).toBe('agent_limit_exceeded');
    expect((await api('GET', '/agents')).body.total).toBe(3);
    // Another organization has its own count.
    expect((await api('POST', '/agents', AGENT, 'sk_other')).status).toBe(201);
  });

  it('returns 402 when activating an inbound agent beyond the active-agent limit', async () => {
    await clear();
    const a = await givenAgent(api, { name: 'Reception 1', direction: 'inbound' });
    const b = await givenAgent(api, { name: 'Reception 2', direction: 'inbound' });
    expect(a.phone_number).toMatch(/^\+\d{8,15}$/);
    expect(a.status).not.toBe('active');
    expect((await api('PATCH', `/agents/${a.id}`, { status: 'active' })).status).toBe(200);
    const over = await api('PATCH', `/agents/${b.id}`, { status: 'active' });
    expect(over.status).toBe(402);
    expect(over.body.error.limit).toBeTruthy();
    expect((await api('GET', `/agents/${b.id}`)).body.status).not.toBe('active');
    // Re-sending active for the agent already active is not a new activation.
    expect((await api('PATCH', `/agents/${a.id}`, { status: 'active' })).status).toBe(200);
    expect((await api('PATCH', `/agents/${a.id}`, { status: 'inactive' })).status).toBe(200);
    expect((await api('PATCH', `/agents/${b.id}`, { status: 'active' })).status).toBe(200);
  });

  it('rejects PATCH with a null field, changing nothing', async () => {
    await clear();
    const agent = await givenAgent(api);
    const res = await api('PATCH', `/agents/${agent.id}`, { greeting: null, name: 'Changed' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/greeting/);
    expect((await api('GET', `/agents/${agent.id}`)).body).toMatchObject({ greeting: AGENT.greeting, name: 'Asha' });
    expect((await api('PATCH', `/agents/${agent.id}`, { id: 'x' })).status).toBe(400);
    expect((await api('PATCH', `/agents/${agent.id}`, { colour: 'blue' })).status).toBe(400);
  });

  it('sets agent_id to null on its campaigns and calls when deleted, keeping them', async () => {
    await clear();
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 4);
    const draft = await givenCampaign(api, agent.id, 1);
    await api('POST', `/campaigns/${campaign.id}/launch`);
    await campaignDone(api, campaign.id);
    // Read first, so the lists' cached JSON has to be refreshed by the deletion.
    expect((await allCalls(api, `campaign_id=${campaign.id}`)).every((c) => c.agent_id === agent.id)).toBe(true);
    expect((await api('DELETE', `/agents/${agent.id}`)).status).toBe(200);
    expect((await api('GET', `/campaigns/${campaign.id}`)).body).toMatchObject({ agent_id: null, status: 'completed' });
    expect((await api('GET', `/campaigns/${draft.id}`)).body.agent_id).toBeNull();
    const calls = await allCalls(api, `campaign_id=${campaign.id}`);
    expect(calls).toHaveLength(4);
    for (const c of calls) expect(c).toMatchObject({ agent_id: null, agent_name: 'Asha' });
    const one = await api('GET', `/calls/${calls[0].call_id}`);
    expect(one.body.agent_id).toBeNull();
    // A draft without an agent cannot be launched.
    expect((await api('POST', `/campaigns/${draft.id}/launch`)).status).toBe(409);
  });
});

describe('pagination', () => {
  it('pages with limit and offset and reports the total', async () => {
    await clear();
    for (let i = 0; i < 3; i++) await givenAgent(api, { name: `P${i}` });
    const first = await api('GET', '/agents?limit=2');
    expect(first.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(first.body.agents.map((a: any) => a.name)).toEqual(['P0', 'P1']);
    const second = await api('GET', '/agents?limit=2&offset=2');
    expect(second.body.agents.map((a: any) => a.name)).toEqual(['P2']);
    expect((await api('GET', '/agents?offset=10')).body).toMatchObject({ agents: [], total: 3 });
  });

  it.each(['0', '201', '-1', 'abc', '1.5', ''])('rejects limit=%s with 400 on every list', async (limit) => {
    for (const path of ['/agents', '/campaigns', '/calls']) {
      const res = await api('GET', `${path}?limit=${limit}`);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toMatch(/limit/);
    }
  });

  it('accepts the bounds 1 and 200, and rejects a negative offset', async () => {
    expect((await api('GET', '/calls?limit=1')).status).toBe(200);
    expect((await api('GET', '/calls?limit=200')).body.limit).toBe(200);
    expect((await api('GET', '/agents?offset=-1')).status).toBe(400);
  });
});
