import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCalls, type Sandbox } from '../../src/sandbox/index.js';
import { allCalls, campaignDone, givenAgent, givenCampaign, sandbox, type Client } from './helpers.js';

let sb: Sandbox;
let api: Client;
let seeded: string[];
let orgId: string;

beforeAll(async () => {
  ({ sb, api } = await sandbox());
  orgId = sb.world.keys.get(sb.apiKey)!.org;
  // 2,500 finished calls over the 10 days before 2025-03-10T09:00Z, in campaigns of 1,000.
  seeded = seedCalls(sb.world, orgId, 2500, { days: 10, campaignSize: 1000 });
});
afterAll(() => sb?.close());

describe('GET /calls', () => {
  it('pages through every call exactly once, in start-time order', async () => {
    const first = await api('GET', '/calls');
    expect(first.body).toMatchObject({ total: 2500, limit: 50, offset: 0 });
    expect(first.body.calls).toHaveLength(50);
    const all = await allCalls(api);
    expect(all).toHaveLength(2500);
    expect(new Set(all.map((c) => c.call_id)).size).toBe(2500);
    const keys = all.map((c) => [Date.parse(c.start_time), c.call_id] as const);
    for (let i = 1; i < keys.length; i++) {
      const [t0, id0] = keys[i - 1]!;
      const [t1, id1] = keys[i]!;
      expect(t0 < t1 || (t0 === t1 && id0 < id1)).toBe(true);
    }
    expect(all.every((c) => c.transcript === undefined)).toBe(true);
  });

  it('filters by campaign', async () => {
    const res = await api('GET', `/calls?campaign_id=${seeded[1]}&limit=200`);
    expect(res.body.total).toBe(1000);
    expect(res.body.calls.every((c: any) => c.campaign_id === seeded[1])).toBe(true);
    expect((await api('GET', '/calls?campaign_id=3f2c1e4a-9b8d-4c7e-8f6a-5d4c3b2a1f0e')).body).toMatchObject({ total: 0, calls: [] });
  });

  it('filters by status, alone and with other filters', async () => {
    const all = await allCalls(api);
    for (const status of ['completed', 'no_answer', 'failed']) {
      const expected = all.filter((c) => c.status === status);
      const got = await allCalls(api, `status=${status}`);
      expect(got.map((c) => c.call_id)).toEqual(expected.map((c) => c.call_id));
    }
    const inCampaign = await allCalls(api, `status=completed&campaign_id=${seeded[2]}`);
    expect(inCampaign.map((c) => c.call_id)).toEqual(all.filter((c) => c.status === 'completed' && c.campaign_id === seeded[2]).map((c) => c.call_id));
  });

  it('filters on start time: since inclusive, until exclusive, a time without offset as UTC', async () => {
    const all = await allCalls(api);
    const pivot = all[1234];
    const since = await allCalls(api, `since=${encodeURIComponent(pivot.start_time)}`);
    expect(since[0].call_id).toBe(pivot.call_id);
    expect(since).toHaveLength(all.filter((c) => c.start_time >= pivot.start_time).length);
    const until = await allCalls(api, `until=${encodeURIComponent(pivot.start_time)}`);
    expect(until).toHaveLength(all.filter((c) => c.start_time < pivot.start_time).length);

    // "2025-03-05T12:00:00" names the same instant as "2025-03-05T12:00:00Z", not local time.
    const bare = (await api('GET', '/calls?since=2025-03-05T12:00:00&until=2025-03-06T00:00:00')).body;
    const zulu = (await api('GET', '/calls?since=2025-03-05T12:00:00Z&until=2025-03-06T00:00:00.000Z')).body;
    const offset = (await api('GET', `/calls?since=${encodeURIComponent('2025-03-05T17:30:00+05:30')}&until=2025-03-06`)).body;
    expect(bare.total).toBeGreaterThan(0);
    expect(bare.total).toBe(zulu.total);
    expect(offset.total).toBe(zulu.total);
    expect(bare.total).toBe(all.filter((c) => c.start_time >= '2025-03-05T12:00:00.000Z' && c.start_time < '2025-03-06T00:00:00.000Z').length);

    const combined = await allCalls(api, `since=2025-03-03&until=2025-03-08&status=no_answer`);
    expect(combined.map((c) => c.call_id)).toEqual(
      all.filter((c) => c.status === 'no_answer' && c.start_time >= '2025-03-03' && c.start_time < '2025-03-08').map((c) => c.call_id),
    );
  });

  it('rejects a time that is not ISO 8601 with 400', async () => {
    for (const bad of ['yesterday', '03/05/2025', '2025-13-45T00:00:00']) {
      const res = await api('GET', `/calls?since=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.message).toMatch(/since/);
    }
  });

  it('lists new calls after older seeded ones, and live updates show in the list', async () => {
    const agent = await givenAgent(api);
    const c = await givenCampaign(api, agent.id, 3);
    await api('POST', `/campaigns/${c.id}/launch`);
    await campaignDone(api, c.id);
    const all = await allCalls(api);
    expect(all).toHaveLength(2503);
    expect(all.slice(-3).every((x) => x.campaign_id === c.id)).toBe(true);
    expect(all.slice(-3).every((x) => x.status !== 'initiated')).toBe(true);
  });

  it('gives seeded calls the same details as live ones', async () => {
    const call = (await api('GET', '/calls?status=completed&limit=1')).body.calls[0];
    const full = (await api('GET', `/calls/${call.call_id}`)).body;
    expect(full.transcript[0].role).toBe('agent');
    expect(full.transcript[0].text).toContain(call.contact.name);
    expect((await api('GET', `/calls/${call.call_id}/recording-url`)).status).toBe(200);
  });
});
