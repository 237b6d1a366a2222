import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { campaignDone, contacts, givenAgent, givenCampaign, sandbox, type Client } from './helpers.js';

let sb: Sandbox;
let api: Client;
let agentId: string;

beforeAll(async () => {
  ({ sb, api } = await sandbox());
  agentId = (await givenAgent(api)).id;
});
afterAll(() => sb?.close());

describe('POST /campaigns/json', () => {
  it('creates a draft with every contact pending and nothing dialed', async () => {
    const before = sb.requests.length;
    const res = await api('POST', '/campaigns/json', {
      name: 'Spring leads', agent_id: agentId, campaign_prompt: 'Mention the spring offer.', contacts: contacts(3),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Spring leads', agent_id: agentId, status: 'draft', campaign_prompt: 'Mention the spring offer.',
      contacts_by_status: { pending: 3, initiated: 0, completed: 0, no_answer: 0, failed: 0 },
    });
    expect(sb.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);
    expect((await api('GET', `/calls?campaign_id=${res.body.id}`)).body.total).toBe(0);
    const list = await api('GET', `/campaigns/${res.body.id}/contacts`);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body[1]).toEqual({ ...contacts(3)[1], status: 'pending' });
  });

  it('rejects the whole request naming the first invalid row (422), creating nothing', async () => {
    const rows = contacts(10);
    rows[7] = { ...rows[7]!, phone_number: '98765' };
    rows[8] = { ...rows[8]!, phone_number: '+91 98765 43210' };
    const total = (await api('GET', '/campaigns')).body.total;
    const res = await api('POST', '/campaigns/json', { name: 'Bad', agent_id: agentId, contacts: rows });
    expect(res.status).toBe(422);
    expect(res.body.error.row).toBe(7);
    expect(res.body.error.message).toMatch(/^contacts\[7\]\.phone_number "98765" is not E\.164/);
    expect((await api('GET', '/campaigns')).body.total).toBe(total);
  });

  it.each([
    ['+1 415 555 0100', 'spaces'],
    ['0919876543210', 'no plus'],
    ['+0919876543210', 'country code 0'],
    ['+91987654321098765', 'too long'],
    ['+91-98765-43210', 'dashes'],
  ])('treats %s (%s) as not E.164', async (phone) => {
    const res = await api('POST', '/campaigns/json', { name: 'x', agent_id: agentId, contacts: [{ phone_number: '+14155550100' }, { phone_number: phone }] });
    expect(res.status).toBe(422);
    expect(res.body.error.row).toBe(1);
  });

  it('names a row without a phone number', async () => {
    const res = await api('POST', '/campaigns/json', { name: 'x', agent_id: agentId, contacts: [{ name: 'No number' }] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ row: 0, message: expect.stringContaining('contacts[0].phone_number') });
  });

  it('accepts 10,000 contacts and refuses 10,001 with 400', async () => {
    const ok = await api('POST', '/campaigns/json', { name: 'Max', agent_id: agentId, contacts: contacts(10_000) });
    expect(ok.status).toBe(201);
    expect(ok.body.contacts_by_status.pending).toBe(10_000);
    const over = await api('POST', '/campaigns/json', { name: 'Over', agent_id: agentId, contacts: contacts(10_001) });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/10,000/);
  });

  it('requires an existing agent, a name and a non-empty contact list', async () => {
    const ghost = await api('POST', '/campaigns/json', { name: 'x', agent_id: '3f2c1e4a-9b8d-4c7e-8f6a-5d4c3b2a1f0e', contacts: contacts(1) });
    expect(ghost.status).toBe(404);
    expect((await api('POST', '/campaigns/json', { agent_id: agentId, contacts: contacts(1) })).status).toBe(400);
    expect((await api('POST', '/campaigns/json', { name: 'x', agent_id: agentId, contacts: [] })).status).toBe(400);
    expect((await api('POST', '/campaigns/json', { name: 'x', agent_id: agentId })).status).toBe(400);
  });

  it('keeps any JSON in extra, and the contact order', async () => {
    const extras = [null, 42, 'text', [1, { a: true }], { nested: { deep: ['x'] }, unicode: 'नमस्ते' }];
    const rows = extras.map((extra, i) => ({ phone_number: `+4420794600${10 + i}`, name: `E${i}`, extra }));
    const c = (await api('POST', '/campaigns/json', { name: 'Extras', agent_id: agentId, contacts: rows })).body;
    const back = (await api('GET', `/campaigns/${c.id}/contacts`)).body;
    expect(back.map((r: any) => r.extra)).toEqual(extras);
    await api('POST', `/campaigns/${c.id}/launch`);
    await campaignDone(api, c.id);
    const calls = (await api('GET', `/calls?campaign_id=${c.id}`)).body.calls as any[];
    const byPhone = new Map(calls.map((x) => [x.phone_number, x]));
    rows.forEach((r) => expect(byPhone.get(r.phone_number).contact).toEqual({ name: r.name, extra: r.extra }));
  });
});

describe('campaign reads and launch', () => {
  it('lists campaigns newest first in the paginated envelope, with a status filter', async () => {
    const a = await givenCampaign(api, agentId, 1);
    const b = await givenCampaign(api, agentId, 1);
    await api('POST', `/campaigns/${a.id}/launch`);
    const all = await api('GET', '/campaigns?limit=2');
    expect(all.body).toMatchObject({ limit: 2, offset: 0 });
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    expect(all.body.campaigns.map((c: any) => c.id)).toEqual([b.id, a.id]);
    expect(all.body.campaigns[0].contacts_by_status).toBeTruthy();
    const drafts = (await api('GET', '/campaigns?status=draft&limit=200')).body.campaigns as any[];
    expect(drafts.some((c) => c.id === b.id)).toBe(true);
    expect(drafts.some((c) => c.id === a.id)).toBe(false);
    expect((await api('GET', '/campaigns?status=paused')).status).toBe(400);
  });

  it('launches a draft once; launching again is 409', async () => {
    const c = await givenCampaign(api, agentId, 5);
    const launched = await api('POST', `/campaigns/${c.id}/launch`);
    expect(launched.status).toBe(200);
    expect(launched.body).toMatchObject({ status: 'running', dispatched: 5 });
    const again = await api('POST', `/campaigns/${c.id}/launch`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/running|draft/);
    await campaignDone(api, c.id);
    expect((await api('POST', `/campaigns/${c.id}/launch`)).status).toBe(409);
  });
});
