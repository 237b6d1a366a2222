/**
 * -o csv of a resource comes from the same columns as its table (one row source, with each
 * column's CSV rule): the files are pinned here byte for byte, so the table's columns can
 * change without the CSV changing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer as callServer, makeCall, type FakeServer as CallServer } from '../export/fake-server.js';
import { run } from '../helpers/run.js';
import { fakeServer, type FakeServer } from '../commands/campaign/fake-server.js';

let calls: CallServer;
let other: FakeServer;
const CAMPAIGN = {
  id: 'c1', name: 'Renewals, second try', status: 'running', agent_id: 'ag_1',
  contacts_by_status: { pending: 2, initiated: 1, completed: 5, no_answer: 1, failed: 1 }, created_at: '2026-01-15T10:00:00Z',
};
const DELIVERY = {
  id: 'd1', event_id: 'ev_1', event_type: 'call.ended', status: 'retrying', attempts: 2, last_response_code: 500,
  next_retry_at: '2026-01-15T10:05:00Z', last_error: 'HTTP 500 from the receiver',
};

beforeAll(async () => {
  calls = await callServer([makeCall(0), makeCall(1, { summary: '=SUM(A1), then "quoted"', outcome: null, status: 'no_answer' })]);
  other = await fakeServer({
    'GET /campaigns': () => ({ status: 200, body: { data: { campaigns: [CAMPAIGN] }, meta: { total: 1 } } }),
    'GET /campaigns/c1': () => ({ status: 200, body: { data: CAMPAIGN } }),
    'GET /webhooks/endpoints/:id/deliveries': () => ({ status: 200, body: { data: { deliveries: [DELIVERY] }, meta: { total: 1 } } }),
  });
});
afterAll(async () => {
  await calls.close();
  await other.close();
});

const env = (url: string) => ({ VOICECTL_BASE_URL: url, VOICECTL_API_KEY: 'sk_test' });
const at = () => new Date('2026-01-15T10:00:00Z');

describe('-o csv from the table\'s columns', () => {
  it('call list: every spec field as the service sent it, in the spec\'s order', async () => {
    const r = await run(['call', 'list', '-o', 'csv'], { env: env(calls.url) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe([
      'call_id,campaign_id,agent_id,agent_name,direction,phone_number,status,end_reason,outcome,summary,error,duration_seconds,start_time,end_time,has_recording',
      'call_000000,camp_1,agent_1,Priya,outbound,+919800000000,completed,completed,requirements_gathered,Call 0 went fine.,,60,2024-05-01T09:00:00.000Z,2024-05-01T09:01:00.000Z,true',
      `call_000001,camp_1,agent_1,Priya,outbound,+919800000001,no_answer,completed,,"'=SUM(A1), then ""quoted""",,61,2024-05-01T09:01:00.000Z,2024-05-01T09:02:00.000Z,true`,
      '',
    ].join('\n'));
  });

  it('campaign list and campaign get: the agent id and a count per status', async () => {
    const header = 'id,name,status,agent_id,contacts,pending,initiated,completed,no_answer,failed';
    const row = 'c1,"Renewals, second try",running,ag_1,10,2,1,5,1,1';
    const list = await run(['campaign', 'list', '-o', 'csv'], { env: env(other.url) });
    expect(list.stdout).toBe(`${header}\n${row}\n`);
    const get = await run(['campaign', 'get', 'c1', '-o', 'csv'], { env: env(other.url) });
    expect(get.stdout).toBe(`${header}\n${row}\n`);
  });

  it('webhook deliveries: the next retry in UTC, whatever the zone', async () => {
    const r = await run(['webhook', 'deliveries', 'wh_1', '-o', 'csv', '--tz', 'Asia/Kolkata'], { env: env(other.url), now: at });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('id,event,type,status,attempts,last_code,next_retry,failure\nd1,ev_1,call.ended,retrying,2,500,2026-01-15T10:05:00Z,HTTP 500 from the receiver\n');
  });
});
