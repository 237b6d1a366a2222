/** What reconcile expects from the API's calls and campaigns, against a fake API. */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { emptyIndex, eventKey } from '../../src/events/log-index.js';
import { scan } from '../../src/events/reconcile.js';

function fakeApi(calls: Array<Record<string, unknown>>, campaigns: Record<string, Record<string, unknown>>): ApiClient {
  return {
    baseUrl: 'http://api.test',
    url: (p: string) => `http://api.test${p}`,
    async get(path: string, o: { query?: Record<string, unknown> } = {}) {
      if (path === '/calls') {
        const offset = Number(o.query?.offset ?? 0);
        const limit = Number(o.query?.limit ?? 50);
        const list = calls.filter((c) => o.query?.campaign_id === undefined || c.campaign_id === o.query.campaign_id);
        return { calls: list.slice(offset, offset + limit), total: list.length, limit, offset };
      }
      const id = decodeURIComponent(path.split('/').pop()!);
      if (!campaigns[id]) throw new ApiError({ kind: 'http', status: 404, method: 'GET', url: path, message: 'not found' });
      return campaigns[id];
    },
  } as unknown as ApiClient;
}

const call = (id: string, campaign: string, o: Record<string, unknown> = {}) => ({
  call_id: id, campaign_id: campaign, status: 'completed', start_time: '2026-03-02T05:00:00Z', end_time: '2026-03-02T05:01:00Z', has_recording: false, ...o,
});

describe('events reconcile: what the service should have sent', () => {
  it('expects call.ended of finished calls, recording_ready of recorded ones, campaign.completed of completed campaigns', async () => {
    const api = fakeApi([
      call('a', 'k1', { has_recording: true }),
      call('b', 'k1', { status: 'initiated', end_time: null }),
      call('c', 'k2'),
      { campaign_id: 'k1', status: 'completed' },
    ], { k1: { id: 'k1', status: 'completed' }, k2: { id: 'k2', status: 'running' } });
    const log = emptyIndex();
    log.keys.add(eventKey('call.ended', 'a'));
    const r = await scan(api, { since: new Date('2026-03-01T00:00:00Z') }, log);
    expect(r.gaps.map((g) => `${g.type} ${g.object_id}`)).toEqual(['call.recording_ready a', 'call.ended c', 'campaign.completed k1']);
    expect(r).toMatchObject({ calls: 3, unfinished: 1, campaigns: 2, expected: 4, unreadable: [] });
  });

  it('warns of, rather than fails on, a campaign a call points to that the API no longer finds; a campaign named on the command line must exist', async () => {
    const api = fakeApi([call('a', 'gone')], {});
    const r = await scan(api, { since: new Date('2026-03-01T00:00:00Z') }, emptyIndex());
    expect(r.unreadable).toEqual(['gone']);
    expect(r.gaps.map((g) => g.type)).toEqual(['call.ended']);
    await expect(scan(api, { campaigns: ['gone'] }, emptyIndex())).rejects.toMatchObject({ status: 404 });
  });
});
