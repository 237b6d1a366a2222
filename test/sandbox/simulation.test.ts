import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { AGENT, allCalls, campaignDone, contacts, expectValidWav, FULL, givenAgent, givenCampaign, sandbox, waitFor, type Client } from './helpers.js';

const FINAL = ['completed', 'no_answer', 'failed'];
const OUTCOMES = ['requirements_gathered', 'callback_scheduled', 'not_interested', 'message_taken', 'information_provided', 'wrong_number', 'do_not_call'];

describe('a launched campaign', () => {
  let sb: Sandbox;
  let api: Client;
  const events: Array<{ org: string; type: string; data: any }> = [];
  let campaign: any;
  let calls: any[];

  beforeAll(async () => {
    ({ sb, api } = await sandbox());
    sb.world.onEvent((org, type, data) => events.push({ org, type, data }));
    const agent = await givenAgent(api);
    campaign = await givenCampaign(api, agent.id, 30);
    const launched = await api('POST', `/campaigns/${campaign.id}/launch`);
    expect(launched.body.contacts_by_status).toMatchObject({ pending: 0, initiated: 30 });
    await campaignDone(api, campaign.id);
    // Recordings are saved some simulated seconds after each answered call ends.
    calls = await waitFor(async () => {
      const all = await allCalls(api, `campaign_id=${campaign.id}`);
      return all.every((c) => c.status !== 'completed' || c.has_recording) ? all : undefined;
    }, 10_000, 'recordings');
  });
  afterAll(() => sb?.close());

  it('ends with every contact called and counted', async () => {
    const done = (await api('GET', `/campaigns/${campaign.id}`)).body;
    expect(done.status).toBe('completed');
    const counts = done.contacts_by_status;
    expect(counts.pending + counts.initiated).toBe(0);
    expect(counts.completed + counts.no_answer + counts.failed).toBe(30);
    expect(counts.completed).toBeGreaterThan(0);
    const rows = (await api('GET', `/campaigns/${campaign.id}/contacts`)).body as any[];
    expect(rows).toHaveLength(30);
    for (const r of rows) {
      expect(FINAL).toContain(r.status);
      expect(calls.find((c) => c.call_id === r.call_id)?.status).toBe(r.status);
    }
  });

  it('fills every call record plausibly', () => {
    expect(calls).toHaveLength(30);
    for (const c of calls) {
      expect(c).toMatchObject({ campaign_id: campaign.id, agent_name: 'Asha', direction: 'outbound' });
      expect(c.transcript).toBeUndefined();
      expect(c.phone_number).toMatch(/^\+\d+$/);
      expect(c.contact.name).toMatch(/^Lead \d+$/);
      expect(c.contact.extra).toMatchObject({ tags: ['web'] });
      const start = Date.parse(c.start_time);
      const end = Date.parse(c.end_time);
      expect(end - start).toBe(c.duration_seconds * 1000);
      expect(c.summary.length).toBeGreaterThan(20);
      expect(c.summary.split(/[.!?](\s|$)/).filter((s: string) => s && s.trim()).length).toBeLessThanOrEqual(2);
      if (c.status === 'completed') {
        expect(OUTCOMES).toContain(c.outcome);
        expect(c.duration_seconds).toBeGreaterThanOrEqual(40);
        expect(c.duration_seconds).toBeLessThanOrEqual(240);
        expect(c.error).toBeNull();
        expect(c.has_recording).toBe(true);
      } else if (c.status === 'no_answer') {
        expect(c.duration_seconds).toBeGreaterThanOrEqual(20);
        expect(c.duration_seconds).toBeLessThanOrEqual(40);
        expect(c.has_recording).toBe(false);
      } else {
        expect(c.status).toBe('failed');
        expect(c.error).toEqual(expect.any(String));
        expect(c.duration_seconds).toBeLessThan(10);
      }
    }
    // Sorted by start time, then call id.
    const keys = calls.map((c) => `${c.start_time}|${c.call_id}`);
    expect(keys).toEqual([...keys].sort());
  });

  it("gives answered calls a transcript that opens with the agent's greeting and follows its purpose", async () => {
    const answered = calls.filter((c) => c.status === 'completed');
    for (const c of answered) {
      const full = (await api('GET', `/calls/${c.call_id}`)).body;
      const t = full.transcript as any[];
      expect(t.length).toBeGreaterThanOrEqual(3);
      expect(t[0]).toMatchObject({ role: 'agent', text: `Hi ${c.contact.name}, this is Asha from Sunrise Homes.` });
      expect(t.some((turn) => turn.role === 'user')).toBe(true);
      for (const turn of t) expect(['agent', 'user']).toContain(turn.role);
      const times = t.map((turn) => Date.parse(turn.timestamp));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times[0]).toBeGreaterThanOrEqual(Date.parse(c.start_time));
      expect(times.at(-1)).toBeLessThanOrEqual(Date.parse(c.end_time));
      if (!['wrong_number'].includes(c.outcome)) {
        expect(t.map((turn) => turn.text).join(' ')).toContain('follow up on your enquiry about our apartments');
      }
      // The same transcript on every read.
      expect((await api('GET', `/calls/${c.call_id}`)).body.transcript).toEqual(t);
    }
    const missed = calls.find((c) => c.status !== 'completed');
    if (missed) expect((await api('GET', `/calls/${missed.call_id}`)).body.transcript).toEqual([]);
  });

  it('emits call.ended, call.recording_ready and campaign.completed with the documented data', () => {
    const ended = events.filter((e) => e.type === 'call.ended');
    expect(ended).toHaveLength(30);
    for (const e of ended) {
      const listed = calls.find((c) => c.call_id === e.data.call_id);
      expect(e.data).toEqual({ ...listed, has_recording: false });
      expect(e.org).toBe(sb.world.keys.get(sb.apiKey)!.org);
    }
    const ready = events.filter((e) => e.type === 'call.recording_ready');
    expect(ready.map((e) => e.data.call_id).sort()).toEqual(calls.filter((c) => c.status === 'completed').map((c) => c.call_id).sort());
    for (const e of ready) expect(e.data).toEqual(calls.find((c) => c.call_id === e.data.call_id));
    const completed = events.filter((e) => e.type === 'campaign.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({ id: campaign.id, status: 'completed', contacts_by_status: expect.any(Object) });
    expect(completed[0]!.data.contacts).toBeUndefined();
  });

  it('has no recording link for a call without a recording', async () => {
    const missed = calls.find((c) => c.status !== 'completed');
    if (!missed) return;
    const res = await api('GET', `/calls/${missed.call_id}/recording-url`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/no recording/);
  });
});

describe('recording links', () => {
  // Slower time, so a link stays valid (one simulated hour = 1.8 real seconds) while the test uses it.
  let sb: Sandbox;
  let api: Client;
  let calls: any[];
  let call: any;

  beforeAll(async () => {
    ({ sb, api } = await sandbox({ timeScale: 2_000 }));
    const agent = await givenAgent(api);
    const c = await givenCampaign(api, agent.id, 8);
    await api('POST', `/campaigns/${c.id}/launch`);
    await campaignDone(api, c.id);
    calls = await allCalls(api, `campaign_id=${c.id}`);
    call = calls.find((x) => x.status === 'completed');
    expect(call).toBeDefined();
    await waitFor(async () => ((await api('GET', `/calls/${call.call_id}`)).body.has_recording ? true : undefined), 10_000, 'the recording');
  });
  afterAll(() => sb?.close());

  it('serves recordings through signed links that expire after one simulated hour', async () => {
    const link = await api('GET', `/calls/${call.call_id}/recording-url`);
    expect(link.status).toBe(200);
    const expires = Date.parse(link.body.expires_at);
    const now = sb.world.clock.now();
    // Simulated time runs fast between the request and this line.
    expect(expires - now).toBeGreaterThan(3_000_000);
    expect(expires - now).toBeLessThanOrEqual(3_600_000);
    const audio = await fetch(link.body.url);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expectValidWav(Buffer.from(await audio.arrayBuffer()), 2);

    const tampered = link.body.url.replace(/sig=([0-9a-f])/, (_: string, ch: string) => `sig=${ch === '0' ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);
    const otherCall = calls.filter((c) => c.status === 'completed')[1];
    if (otherCall) expect((await fetch(link.body.url.replace(call.call_id, otherCall.call_id))).status).toBe(403);

    await waitFor(() => (sb.world.clock.now() > expires ? true : undefined), 10_000, 'the link to expire');
    const expired = await fetch(link.body.url);
    expect(expired.status).toBe(410);
    const fresh = await api('GET', `/calls/${call.call_id}/recording-url`);
    expect(fresh.body.url).not.toBe(link.body.url);
    expect((await fetch(fresh.body.url)).status).toBe(200);
  });
});

describe('calls in progress', () => {
  it('shows contacts initiated and call records with a start time while calls run', async () => {
    // Slower than real time: nothing finishes during the test.
    const { sb, api } = await sandbox({ timeScale: 0.05 });
    try {
      const agent = await givenAgent(api);
      const c = await givenCampaign(api, agent.id, 4);
      await api('POST', `/campaigns/${c.id}/launch`);
      const running = (await api('GET', `/campaigns/${c.id}`)).body;
      expect(running).toMatchObject({ status: 'running', contacts_by_status: { pending: 0, initiated: 4 } });
      const contactsNow = (await api('GET', `/campaigns/${c.id}/contacts`)).body as any[];
      for (const row of contactsNow) expect(row).toMatchObject({ status: 'initiated', call_id: expect.stringMatching(/^call_/) });
      const list = (await api('GET', `/calls?campaign_id=${c.id}`)).body;
      expect(list.total).toBe(4);
      for (const call of list.calls) {
        expect(call).toMatchObject({ status: 'initiated', end_time: null, has_recording: false });
        expect(Date.parse(call.start_time)).not.toBeNaN();
      }
    } finally {
      await sb.close();
    }
  });

  it('keeps the agent as it was at launch for calls already placed', async () => {
    const { sb, api } = await sandbox();
    try {
      const agent = await givenAgent(api);
      const c = await givenCampaign(api, agent.id, 6);
      await api('POST', `/campaigns/${c.id}/launch`);
      await api('PATCH', `/agents/${agent.id}`, { greeting: 'Changed greeting.' });
      await campaignDone(api, c.id);
      for (const call of await allCalls(api, `campaign_id=${c.id}&status=completed`)) {
        const t = (await api('GET', `/calls/${call.call_id}`)).body.transcript;
        expect(t[0].text).toContain('this is Asha from Sunrise Homes');
      }
    } finally {
      await sb.close();
    }
  });
});

describe('the daily dispatch cap', () => {
  it('stops dispatching at the cap, leaves the rest pending, and resumes the next simulated day', async () => {
    // Just after midnight: a whole simulated day (over 2 real seconds) to see the first round stop.
    const { sb, api } = await sandbox({
      timeScale: 40_000,
      startAt: '2025-03-10T00:05:00Z',
      keys: [FULL('sk_capped', 'acme', { daily_dispatch_cap: 3 }), FULL('sk_uncapped', 'acme')],
    });
    try {
      const agent = await givenAgent(api, {}, 'sk_capped');
      const first = await givenCampaign(api, agent.id, 5, 'sk_capped');
      const second = await givenCampaign(api, agent.id, 2, 'sk_capped');
      const third = await givenCampaign(api, agent.id, 2, 'sk_capped');
      const launched = await api('POST', `/campaigns/${first.id}/launch`, undefined, 'sk_capped');
      expect(launched.body).toMatchObject({ dispatched: 3, contacts_by_status: { pending: 2, initiated: 3 } });
      const secondLaunch = await api('POST', `/campaigns/${second.id}/launch`, undefined, 'sk_capped');
      expect(secondLaunch.body).toMatchObject({ status: 'running', dispatched: 0, contacts_by_status: { pending: 2 } });
      // Another key of the same organization has no cap.
      const thirdLaunch = await api('POST', `/campaigns/${third.id}/launch`, undefined, 'sk_uncapped');
      expect(thirdLaunch.body.dispatched).toBe(2);

      const afterRound = await waitFor(async () => {
        const b = (await api('GET', `/campaigns/${first.id}`, undefined, 'sk_capped')).body;
        return b.contacts_by_status.initiated === 0 ? b : undefined;
      }, 10_000, 'the first round');
      expect(sb.world.clock.now()).toBeLessThan(Date.parse('2025-03-11T00:00:00Z'));
      expect(afterRound).toMatchObject({ status: 'running', contacts_by_status: { pending: 2 } });
      expect((await api('GET', `/calls?campaign_id=${first.id}`, undefined, 'sk_capped')).body.total).toBe(3);

      const done = await campaignDone(api, first.id, 'sk_capped');
      expect(done.contacts_by_status.pending).toBe(0);
      const calls = await allCalls(api, `campaign_id=${first.id}`, 'sk_capped');
      expect(calls).toHaveLength(5);
      // The next day's 3 dispatches go to the earlier launch first...
      expect(calls.filter((c) => c.start_time.startsWith('2025-03-11'))).toHaveLength(2);
      // ...and the second campaign gets the last one that day, and the rest the day after.
      await campaignDone(api, second.id, 'sk_capped');
      const days = (await allCalls(api, `campaign_id=${second.id}`, 'sk_capped')).map((c) => c.start_time.slice(0, 10)).sort();
      expect(days).toEqual(['2025-03-11', '2025-03-12']);
    } finally {
      await sb.close();
    }
  });
});

describe('--seed', () => {
  async function run(seed: number) {
    const { sb, api } = await sandbox({ seed });
    try {
      const agent = await givenAgent(api);
      const c = await givenCampaign(api, agent.id, 12);
      await api('POST', `/campaigns/${c.id}/launch`);
      await campaignDone(api, c.id);
      const calls = await allCalls(api, `campaign_id=${c.id}`);
      const answered = calls.find((x) => x.status === 'completed');
      const transcript = answered ? (await api('GET', `/calls/${answered.call_id}`)).body.transcript.map((t: any) => t.text) : [];
      return {
        ids: [agent.id, c.id],
        calls: calls.map((x) => [x.call_id, x.phone_number, x.status, x.outcome, x.duration_seconds, x.summary]).sort(),
        transcript,
      };
    } finally {
      await sb.close();
    }
  }

  it('repeats ids, outcomes, durations and transcripts with the same seed, and varies with another', async () => {
    const a = await run(42);
    const b = await run(42);
    expect(b).toEqual(a);
    const c = await run(43);
    expect(c.calls).not.toEqual(a.calls);
  });
});

describe('a large campaign', () => {
  it('dials every contact of a 2,000-contact campaign and completes', async () => {
    const { sb, api } = await sandbox({ timeScale: 50_000 });
    try {
      const agent = await givenAgent(api);
      const res = await api('POST', '/campaigns/json', { name: 'Big', agent_id: agent.id, contacts: contacts(2000) });
      await api('POST', `/campaigns/${res.body.id}/launch`);
      const done = await campaignDone(api, res.body.id);
      const c = done.contacts_by_status;
      expect(c.completed + c.no_answer + c.failed).toBe(2000);
      expect((await api('GET', `/calls?campaign_id=${res.body.id}&limit=1`)).body.total).toBe(2000);
    } finally {
      await sb.close();
    }
  });
});

// Keeps the AGENT fixture's greeting in step with the assertions above.
expect(AGENT.greeting).toBe('Hi {name}, this is Asha from Sunrise Homes.');
