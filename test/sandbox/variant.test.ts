/** The sandbox making the other choices: each option changes exactly what it says. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientFor } from '../helpers/given.js';

let plain: Sandbox;
let other: Sandbox;
beforeAll(async () => {
  plain = await startSandbox({ port: 0, seed: 1 });
  other = await startSandbox({
    port: 0, seed: 1,
    variant: { noAgentRead: true, noWebhookList: true, noContentOnWrite: true, listEnvelope: 'data-meta', wrapCreated: true, agentExtras: { voicemail: { on: true } } },
  });
});
afterAll(async () => {
  await plain.close();
  await other.close();
});

const call = (sb: Sandbox, method: string, path: string, body?: unknown) => clientFor(sb)(method, path, body);

const AGENT = { name: 'A', voice_name: 'Priya', greeting: 'Hi', call_purpose: 'x', prompt: 'x', tools: [] };

describe('sandbox variant', () => {
  it('answers creates wrapped, lists in another envelope, with the extra field', async () => {
    const created = await call(other, 'POST', '/agents', AGENT);
    expect(created.body.data).toMatchObject({ name: 'A', voicemail: { on: true } });
    // The spec shows the agents list's envelope: it stays; lists it leaves open change.
    const list = await call(other, 'GET', '/agents');
    expect(list.body).toEqual({ agents: [expect.objectContaining({ id: created.body.data.id, voicemail: { on: true } })], total: 1, limit: 50, offset: 0 });
    const campaigns = await call(other, 'GET', '/campaigns');
    expect(campaigns.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0 } });
    const same = await call(plain, 'POST', '/agents', AGENT);
    expect(same.body).not.toHaveProperty('voicemail');
    expect((await call(plain, 'GET', '/agents')).body.agents).toHaveLength(1);
  });

  it('has no single-agent read and no endpoint list; PATCH and DELETE answer 204', async () => {
    const id = (await call(other, 'GET', '/agents')).body.agents[0].id;
    expect((await call(other, 'GET', `/agents/${id}`)).status).toBe(405);
    expect((await call(other, 'GET', '/webhooks/endpoints')).status).toBe(405);
    const patched = await call(other, 'PATCH', `/agents/${id}`, { greeting: 'Hello', voicemail: { on: false } });
    expect([patched.status, patched.body]).toEqual([204, '']);
    expect((await call(other, 'GET', '/agents')).body.agents[0]).toMatchObject({ greeting: 'Hello', voicemail: { on: false } });
    expect((await call(other, 'DELETE', `/agents/${id}`)).status).toBe(204);
    expect((await call(other, 'GET', '/agents')).body.agents).toEqual([]);
  });
});
