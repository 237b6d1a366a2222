/**
 * The development loop end to end: a sandbox that delivers to local URLs, `webhook create
 * --allow-local --save-secret`, `listen --log`, a launched campaign, and the signed
 * call.ended events arriving in the log.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { ok } from '../helpers/given.js';
import { eventually, freePort, readLog, spawnListen, type ListenProcess } from './listen-helpers.js';

let h: Harness;
let listener: ListenProcess | undefined;

beforeAll(async () => {
  h = await harness({ allowLocalWebhooks: true, timeScale: 600 });
});
afterAll(async () => {
  await listener?.stop();
  await h.close();
});

const api = (method: string, path: string, body?: unknown) => ok(h.api, method, path, body);

/** Registers http://127.0.0.1:PORT/ and starts listen there; retries if the port was taken meanwhile. */
async function registerAndListen(log: string): Promise<{ id: string; listener: ListenProcess }> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const created = await h.run(['webhook', 'create', '--url', `http://127.0.0.1:${port}/`, '--allow-local', '--save-secret', '--events', 'call.ended,campaign.completed,ping', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout) as { id: string; secret: string };
    expect(endpoint.secret).toMatch(/\S{16,}/);
    try {
      return { id: endpoint.id, listener: await spawnListen(['--port', String(port), '--endpoint', endpoint.id, '--log', log], h.env) };
    } catch (err) {
      if (attempt >= 2 || !/already in use/.test(String(err))) throw err;
      await h.run(['webhook', 'delete', endpoint.id, '--yes']);
    }
  }
}

describe('events from the sandbox arriving through listen', () => {
  it('logs every call.ended of a launched campaign, verified, once each', async () => {
    const log = join(h.configDir, 'events.ndjson');
    const started = await registerAndListen(log);
    listener = started.listener;
    expect(listener.stderr()).toContain(`secret saved for endpoint ${started.id}`);

    const ping = await h.run(['webhook', 'test', started.id]);
    expect(ping.exitCode, ping.stderr).toBe(0);
    await eventually(() => (readLog(log).some((e) => e.type === 'ping') ? true : undefined));

    const agent = await api('POST', '/agents', {
      name: 'Listen e2e', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Confirm the appointment', prompt: 'Confirm the slot.', tools: [],
    });
    const contacts = [
      { phone_number: '+919812345670', name: 'Asha', extra: { lead: 1 } },
      { phone_number: '+919812345671', name: 'Ravi', extra: { lead: 2 } },
      { phone_number: '+14155550123', name: 'Sam', extra: { lead: 3 } },
    ];
    const campaign = await api('POST', '/campaigns/json', { name: 'Listen e2e', agent_id: agent.id ?? agent.agent?.id, contacts });
    const campaignId = campaign.id ?? campaign.campaign?.id;
    await api('POST', `/campaigns/${campaignId}/launch`);

    const ended = await eventually(() => {
      const events = readLog(log);
      const calls = events.filter((e) => e.type === 'call.ended' && e.data.campaign_id === campaignId);
      return calls.length >= 3 && events.some((e) => e.type === 'campaign.completed') ? calls : undefined;
    });
    expect(ended).toHaveLength(3);
    expect(new Set(ended.map((e) => e.id)).size).toBe(3);
    expect(ended.map((e) => e.data.contact.extra.lead).sort()).toEqual([1, 2, 3]);
    for (const e of ended) expect(e.id).toMatch(/^evt_/);
    // The endpoint was subscribed without call.recording_ready: none may arrive.
    expect(readLog(log).some((e) => e.type === 'call.recording_ready')).toBe(false);

    const dialed = (await api('GET', `/campaigns/${campaignId}/contacts`)) as Array<{ call_id: string }>;
    expect(ended.map((e) => e.data.call_id).sort()).toEqual(dialed.map((c) => c.call_id).sort());

    // One printed line per event, and the sandbox saw a 2xx for each delivery.
    await eventually(() => (listener!.stdout().split('\n').filter((l) => l.includes('call.ended')).length === 3 ? true : undefined));
    const deliveries = await h.run(['webhook', 'deliveries', started.id, '--json']);
    const rows = JSON.parse(deliveries.stdout) as Array<Record<string, unknown>>;
    expect(rows.filter((r) => r.event_type === 'call.ended').every((r) => r.last_response_code === 200)).toBe(true);

    const code = await listener.stop();
    listener = undefined;
    expect(code).toBe(130);
    const total = readLog(log).length;
    expect(started.listener.stderr()).toMatch(new RegExp(`Stopped\\. Received ${total} events`));
  });
});
