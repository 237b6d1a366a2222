import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { RETRY_DELAYS_MS } from '../../src/sandbox/webhook-store.js';
import { clientFor, type Res } from '../helpers/given.js';
import { sandboxForBlock } from './helpers.js';
import { referenceCheck } from '../webhooks/reference-hmac.js';
import { startReceiver, type Receiver, type Received, type Responder } from '../webhooks/capture-server.js';

const receivers: Receiver[] = [];

const call = (sb: Sandbox, method: string, path: string, body?: unknown): Promise<Res> => clientFor(sb)(method, path, body);

async function receiver(respond?: Responder): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

async function endpoint(sb: Sandbox, url: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const res = await call(sb, 'POST', '/webhooks/endpoints', { url, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

async function launchCampaign(sb: Sandbox, contacts: number): Promise<string> {
  const agent = await call(sb, 'POST', '/agents', { name: 'Hook agent', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'survey', prompt: 'Ask one question.', tools: [] });
  const campaign = await call(sb, 'POST', '/campaigns/json', {
    name: 'Hooks',
    agent_id: agent.body.id,
    contacts: Array.from({ length: contacts }, (_, i) => ({ phone_number: `+9198765432${String(i).padStart(2, '0')}`, name: `Lead ${i}`, extra: { crm_id: `L-${i}`, tags: ['x', i] } })),
  });
  expect(campaign.status).toBe(201);
  expect((await call(sb, 'POST', `/campaigns/${campaign.body.id}/launch`)).status).toBe(200);
  return campaign.body.id;
}

/** Polls the deliveries listing until `done` holds. */
async function deliveriesUntil(sb: Sandbox, id: string, done: (list: any[]) => boolean): Promise<any[]> {
  for (let i = 0; i < 1500; i++) {
    const res = await call(sb, 'GET', `/webhooks/endpoints/${id}/deliveries?limit=200`);
    if (done(res.body.deliveries)) return res.body.deliveries;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('deliveries never reached the expected state');
}

const ofType = (type: string) => (r: Received) => r.json?.type === type;

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('deliveries from a launched campaign', () => {
  let sb: Sandbox;
  sandboxForBlock({ timeScale: 2000, seed: 11, allowLocalWebhooks: true }, (s) => (sb = s));

  it('sends call.ended, call.recording_ready and campaign.completed, signed over the raw bytes', async () => {
    const rx = await receiver();
    const ep = await endpoint(sb, `${rx.url}/hooks`);
    const campaignId = await launchCampaign(sb, 4);
    await rx.waitFor(1, ofType('campaign.completed'));
    const contacts = (await call(sb, 'GET', `/campaigns/${campaignId}/contacts`)).body as Array<{ status: string }>;
    const answered = contacts.filter((c) => c.status === 'completed').length;
    await rx.waitFor(answered, ofType('call.recording_ready'));
    expect(rx.received.filter(ofType('call.ended'))).toHaveLength(4);

    const ids = new Set<string>();
    for (const r of rx.received) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hooks');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['service-event-id']).toBe(r.json.id);
      expect(r.headers['service-event-type']).toBe(r.json.type);
      // An independent HMAC over the bytes as received, with real-time t.
      const check = referenceCheck(ep.secret, r.raw, String(r.headers['service-signature']));
      expect(check.ok).toBe(true);
      expect(Math.abs(check.t - Date.now() / 1000)).toBeLessThan(300);
      expect(r.json.id).toMatch(/^evt_/);
      expect(r.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(JSON.stringify(r.json)).not.toMatch(/"_/);
      ids.add(r.json.id);
    }
    expect(ids.size).toBe(rx.received.length);

    const ended = rx.received.filter(ofType('call.ended')).map((r) => r.json.data);
    for (const d of ended) {
      for (const field of ['call_id', 'campaign_id', 'agent_id', 'agent_name', 'direction', 'phone_number', 'status', 'end_reason', 'outcome', 'summary', 'error', 'duration_seconds', 'start_time', 'end_time', 'has_recording', 'contact']) {
        expect(d, field).toHaveProperty(field);
      }
      expect(d).not.toHaveProperty('transcript');
      expect(d.campaign_id).toBe(campaignId);
      expect(d.contact.extra).toEqual({ crm_id: expect.stringMatching(/^L-\d$/), tags: ['x', expect.any(Number)] });
    }
    for (const r of rx.received.filter(ofType('call.recording_ready'))) expect(r.json.data.has_recording).toBe(true);
    const completed = rx.received.find(ofType('campaign.completed'))!.json.data;
    expect(completed).toMatchObject({ id: campaignId, status: 'completed' });
    expect(Object.values(completed.contacts_by_status as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(4);

    const list = await deliveriesUntil(sb, ep.id, (l) => l.length === rx.received.length && l.every((d) => d.status === 'delivered'));
    for (const d of list) {
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, last_response_code: 200, next_retry_at: null });
      expect(ids.has(d.event_id)).toBe(true);
    }
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });

  it('sends each endpoint only the event types it subscribed to, and nothing to a disabled endpoint', async () => {
    const all = await receiver();
    const completedOnly = await receiver();
    const disabled = await receiver();
    const a = await endpoint(sb, all.url);
    const c = await endpoint(sb, completedOnly.url, { events: ['campaign.completed'] });
    const d = await endpoint(sb, disabled.url);
    expect((await call(sb, 'PATCH', `/webhooks/endpoints/${d.id}`, { enabled: false })).status).toBe(200);
    await launchCampaign(sb, 3);
    await all.waitFor(1, ofType('campaign.completed'));
    await completedOnly.waitFor(1);
    expect(completedOnly.received.map((r) => r.json.type)).toEqual(['campaign.completed']);
    expect(all.received.filter(ofType('call.ended'))).toHaveLength(3);
    // The same event reaches both subscribers under one id.
    expect(completedOnly.received[0]!.json.id).toBe(all.received.find(ofType('campaign.completed'))!.json.id);
    expect(disabled.received).toHaveLength(0);
    expect((await call(sb, 'GET', `/webhooks/endpoints/${d.id}/deliveries`)).body.deliveries).toEqual([]);
    for (const id of [a.id, c.id, d.id]) await call(sb, 'DELETE', `/webhooks/endpoints/${id}`);
  });
});

describe('test pings, redirects and retries', () => {
  let sb: Sandbox;
  // One simulated minute is 0.3 ms: the whole day-and-a-half retry schedule takes about 0.6 s.
  sandboxForBlock({ timeScale: 200_000, allowLocalWebhooks: true }, (s) => (sb = s));

  it('POST …/test sends a signed ping and reports the first attempt', async () => {
    const rx = await receiver();
    const ep = await endpoint(sb, rx.url, { events: ['call.ended'] });
    const res = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ status: 'delivered', attempts: 1, last_response_code: 200, event_type: 'ping' });
    expect(rx.received).toHaveLength(1);
    const ping = rx.received[0]!;
    expect(ping.json).toMatchObject({ id: res.body.event_id, type: 'ping', data: { endpoint_id: ep.id } });
    expect(referenceCheck(ep.secret, ping.raw, String(ping.headers['service-signature'])).ok).toBe(true);
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const rx = await receiver((r) => (r.path === '/hook' ? { status: 302, headers: { location: '/elsewhere' } } : 200));
    const ep = await endpoint(sb, `${rx.url}/hook`);
    const res = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(res.body.delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_code: 302 });
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
    expect(rx.received.every((r) => r.path === '/hook')).toBe(true);
  });

  it('retries on the schedule with the same event id until a 2xx', async () => {
    const dueSeen: Array<{ attempts: number; gap: number | null; early: boolean }> = [];
    let epId = '';
    const rx = await receiver((_r, n) => {
      // Read the record as it stood before this attempt: the previous failure and the retry it scheduled.
      const d = Object.values(sb.world.org(sb.world.keys.get(sb.apiKey)!.org).webhooks.deliveries).find((x) => x.endpoint_id === epId)!;
      const gap = d.next_retry_at && d.last_attempt_at ? Date.parse(d.next_retry_at) - Date.parse(d.last_attempt_at) : null;
      dueSeen.push({ attempts: d.attempts, gap, early: d.next_retry_at ? sb.world.clock.now() < Date.parse(d.next_retry_at) : false });
      return n < 3 ? 503 : 204;
    });
    const ep = await endpoint(sb, rx.url);
    epId = ep.id;
    await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    const [d] = await deliveriesUntil(sb, ep.id, (l) => l[0]?.status !== 'pending');
    expect(d).toMatchObject({ status: 'delivered', attempts: 4, last_response_code: 204, next_retry_at: null });
    expect(rx.received).toHaveLength(4);
    expect(new Set(rx.received.map((r) => r.headers['service-event-id']))).toEqual(new Set([d.event_id]));
    expect(new Set(rx.received.map((r) => r.raw.toString()))).toHaveProperty('size', 1);
    expect(dueSeen).toEqual([
      { attempts: 0, gap: null, early: false },
      { attempts: 1, gap: RETRY_DELAYS_MS[0], early: false },
      { attempts: 2, gap: RETRY_DELAYS_MS[1], early: false },
      { attempts: 3, gap: RETRY_DELAYS_MS[2], early: false },
    ]);
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });

  it('marks a delivery failed after 8 failed attempts over the full schedule', async () => {
    const rx = await receiver(() => 500);
    const ep = await endpoint(sb, rx.url);
    const sent = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(sent.body.delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_code: 500 });
    expect(Date.parse(sent.body.delivery.next_retry_at) - Date.parse(sent.body.delivery.last_attempt_at)).toBe(60_000);
    const [d] = await deliveriesUntil(sb, ep.id, (l) => l[0]?.status === 'failed');
    expect(d).toMatchObject({ status: 'failed', attempts: 8, last_response_code: 500, next_retry_at: null, event_id: sent.body.event_id });
    expect(rx.received).toHaveLength(8);
    expect(new Set(rx.received.map((r) => r.json.id))).toEqual(new Set([sent.body.event_id]));
    // 1 m + 5 m + 30 m + 2 h + 5 h + 10 h + 18 h of simulated time passed between the first and last attempt.
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe((1 + 5 + 30 + 120 + 300 + 600 + 1080) * 60_000);
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const rx = await receiver(() => null);
    const ep = await endpoint(sb, rx.url);
    const sent = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(sent.body.delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_code: null, last_error: expect.stringMatching(/no answer within 2 s/) });
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });

  it('counts a refused connection as a failed attempt', async () => {
    const rx = await receiver();
    const url = rx.url;
    await rx.close();
    receivers.splice(receivers.indexOf(rx), 1);
    const ep = await endpoint(sb, url);
    const sent = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(sent.body.delivery).toMatchObject({ attempts: 1, last_response_code: null, last_error: expect.stringMatching(/refused/) });
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });
});

describe('deletion and rotation while retries are pending', () => {
  let sb: Sandbox;
  // One simulated minute is half a real second: long enough to act between attempts.
  sandboxForBlock({ timeScale: 120, allowLocalWebhooks: true }, (s) => (sb = s));

  async function untilSimTime(t: number): Promise<void> {
    while (sb.world.clock.now() < t) await new Promise((r) => setTimeout(r, 20));
  }

  it('drops the pending retries of a deleted endpoint', async () => {
    const rx = await receiver(() => 500);
    const ep = await endpoint(sb, rx.url);
    const sent = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(sent.body.delivery.status).toBe('pending');
    expect((await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`)).status).toBe(200);
    const org = sb.world.org(sb.world.keys.get(sb.apiKey)!.org);
    expect(Object.values(org.webhooks.deliveries).filter((d) => d.endpoint_id === ep.id)).toEqual([]);
    // Past the time the retry was due, nothing more arrived.
    await untilSimTime(Date.parse(sent.body.delivery.next_retry_at) + 30_000);
    expect(rx.received).toHaveLength(1);
  });

  it('signs retries and later deliveries with the rotated secret', async () => {
    const rx = await receiver((_r, n) => (n === 0 ? 500 : 200));
    const ep = await endpoint(sb, rx.url);
    const first = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(first.body.delivery.status).toBe('pending');
    const rotated = (await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/rotate-secret`)).body.secret as string;
    const [retry] = (await rx.waitFor(2)).slice(1);
    expect(retry!.json.id).toBe(first.body.event_id);
    const sig = (r: Received) => String(r.headers['service-signature']);
    expect(referenceCheck(ep.secret, rx.received[0]!.raw, sig(rx.received[0]!)).ok).toBe(true);
    expect(referenceCheck(rotated, retry!.raw, sig(retry!)).ok).toBe(true);
    expect(referenceCheck(ep.secret, retry!.raw, sig(retry!)).ok).toBe(false);
    const later = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    expect(later.body.delivery.status).toBe('delivered');
    const last = rx.received.at(-1)!;
    expect(referenceCheck(rotated, last.raw, sig(last)).ok).toBe(true);
    expect(referenceCheck(ep.secret, last.raw, sig(last)).ok).toBe(false);
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });

  it('refuses a test ping to a disabled endpoint and stops retrying once it is disabled', async () => {
    const rx = await receiver(() => 500);
    const ep = await endpoint(sb, rx.url);
    const sent = await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`);
    await call(sb, 'PATCH', `/webhooks/endpoints/${ep.id}`, { enabled: false });
    expect((await call(sb, 'POST', `/webhooks/endpoints/${ep.id}/test`)).status).toBe(409);
    const [d] = await deliveriesUntil(sb, ep.id, (l) => l[0]?.status !== 'pending');
    // The retry came due while disabled: dropped, not sent, not counted as an attempt.
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 500, next_retry_at: null, last_error: expect.stringMatching(/endpoint disabled/) });
    expect(sb.world.clock.now()).toBeGreaterThanOrEqual(Date.parse(sent.body.delivery.next_retry_at));
    expect(rx.received).toHaveLength(1);
    await call(sb, 'DELETE', `/webhooks/endpoints/${ep.id}`);
  });
});
