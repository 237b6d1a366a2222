/** `voicectl listen` as a command, run in process: output, forwarding, replay, secrets, Ctrl-C. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/webhooks/signature.js';
import { LISTEN, eachListenTest, event, post, SECRET, sendEvent, signedHeaders, startListen } from '../../webhooks/receiver-harness.js';
import { start } from '../../helpers/run.js';
import { harness, type Harness } from '../../helpers/cli.js';
import { ok } from '../../helpers/given.js';
import { eventually, freePort, type ListenProcess, readLog, spawnListen } from '../../e2e/listen-helpers.js';

describe('in process', () => {
  const t = eachListenTest();

  describe('starting', () => {
    it('refuses to start without a secret, naming the ways to give one', async () => {
      const r = start(['listen', '--port', '0'], { ...LISTEN, env: t.env });
      expect(await r.done).toBe(2);
      expect(r.stderr()).toMatch(/No webhook secret/);
      expect(r.stderr()).toMatch(/--secret.*VOICECTL_WEBHOOK_SECRET.*--skip-verify/s);
    });

    it('against a sandbox on loopback, says how to register first, with the exact command', async () => {
      const r = start(['listen', '--port', '4343'], { ...LISTEN, env: { ...t.env, VOICECTL_BASE_URL: 'http://127.0.0.1:4010' } });
      expect(await r.done).toBe(2);
      expect(r.stderr()).toContain('voicectl webhook create --url http://127.0.0.1:4343/ --allow-local --save-secret');
    });

    it('rejects contradictory secret flags', async () => {
      const r = start(['listen', '--port', '0', '--secret', 'x', '--skip-verify'], { ...LISTEN, env: t.env });
      expect(await r.done).toBe(2);
    });

    it('prints how to expose the port and, for a sandbox, how to register it', async () => {
      t.running = await startListen(['--secret', SECRET], { ...t.env, VOICECTL_BASE_URL: 'http://127.0.0.1:4010' });
      const err = t.running.stderr();
      expect(err).toMatch(/only to public HTTPS/);
      expect(err).toMatch(/tunnel/);
      expect(err).toContain(`voicectl webhook create --url http://127.0.0.1:${t.running.port}/ --allow-local`);
    });

    it('says plainly when the port is taken', async () => {
      t.running = await startListen(['--secret', SECRET], t.env);
      const second = start(['listen', '--port', String(t.running.port), '--secret', SECRET], { ...LISTEN, env: t.env });
      expect(await second.done).toBe(1);
      expect(second.stderr()).toMatch(/already in use/);
    });
  });

  describe('output', () => {
    it('prints one line per event with time, type, ids and outcome; Ctrl-C reports the count', async () => {
      t.running = await startListen(['--secret', SECRET], t.env);
      const r = await sendEvent(t.running.port);
      await sendEvent(t.running.port, 'ping');
      await t.running.waitForOutput('ping', 'stdout');
      const lines = t.running.stdout().trim().split('\n');
      expect(lines).toHaveLength(2);
      // How the call went first, then its ids (which a narrow terminal cuts).
      expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d UTC\s+200\s+call\.ended\s+evt_\S+\s+(\+\d+\s+)?completed\/requirements_gathered\b.*\s+call call_\d+\s+campaign c1\b/);
      expect(lines[0]).toContain(r.id);
      // Ctrl-C is exit 130 (CLI.md), after a clean shutdown.
      const code = await t.running.interrupt();
      t.running = undefined;
      expect(code).toBe(130);
    });

    it('reports the number of events at Ctrl-C', async () => {
      const r = await startListen(['--secret', SECRET], t.env);
      await sendEvent(r.port);
      await sendEvent(r.port);
      const dup = event();
      await post(r.port, dup.body, signedHeaders(dup.id, 'call.ended', dup.body));
      await post(r.port, dup.body, signedHeaders(dup.id, 'call.ended', dup.body));
      expect(await r.interrupt()).toBe(130);
      expect(r.stderr()).toMatch(/Stopped\. Received 3 events, 1 duplicate/);
    });

    it('prints NDJSON with --json and filters with --events', async () => {
      t.running = await startListen(['--secret', SECRET, '--json', '--events', 'ping'], t.env);
      await sendEvent(t.running.port, 'call.ended');
      const ping = await sendEvent(t.running.port, 'ping');
      await t.running.waitForOutput('"ping"', 'stdout');
      const lines = t.running.stdout().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ id: ping.id, type: 'ping', verified: true, data: { message: 'hi' } });
      expect(typeof lines[0]!.received_at).toBe('string');
    });

    it('prints a rejection with its reason and likely cause on stderr', async () => {
      t.running = await startListen(['--secret', SECRET], t.env);
      await sendEvent(t.running.port, 'ping', { secret: 'whsec_wrong' });
      await t.running.waitForOutput('rejected', 'stderr');
      expect(t.running.stderr()).toMatch(/401\s+rejected ping evt_\S+: no v1 signature matches/);
      expect(t.running.stderr()).toMatch(/likely: .*secret is wrong/);
      expect(t.running.stdout()).toBe('');
    });

    it('uses VOICECTL_WEBHOOK_SECRET', async () => {
      t.running = await startListen([], { ...t.env, VOICECTL_WEBHOOK_SECRET: 'whsec_from_env' });
      expect(t.running.stderr()).toContain('VOICECTL_WEBHOOK_SECRET');
      expect((await sendEvent(t.running.port, 'ping', { secret: 'whsec_from_env' })).status).toBe(200);
      expect((await sendEvent(t.running.port, 'ping', { secret: SECRET })).status).toBe(401);
    });
  });

  describe('secrets saved in the profile', () => {
    function saveProfile(profile: Record<string, string>): void {
      writeFileSync(join(t.tmp.dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }));
    }

    it('--endpoint uses the secret saved for that endpoint and picks up a rotation saved later', async () => {
      saveProfile({ webhook_secret: 'whsec_first', webhook_endpoint: 'ep_1' });
      t.running = await startListen(['--endpoint', 'ep_1'], t.env);
      expect((await sendEvent(t.running.port, 'ping', { secret: 'whsec_first' })).status).toBe(200);
      saveProfile({ webhook_secret: 'whsec_rotated', webhook_endpoint: 'ep_1' });
      expect((await sendEvent(t.running.port, 'ping', { secret: 'whsec_rotated' })).status).toBe(200);
    });

    it('--endpoint refuses a secret saved for another endpoint', async () => {
      saveProfile({ webhook_secret: 'whsec_first', webhook_endpoint: 'ep_1' });
      const r = start(['listen', '--port', '0', '--endpoint', 'ep_2'], { ...LISTEN, env: t.env });
      expect(await r.done).toBe(2);
      expect(r.stderr()).toMatch(/holds the secret of endpoint ep_1, not ep_2/);
      expect(r.stderr()).toMatch(/rotate-secret ep_2 --save-secret/);
    });

    it('without flags, falls back to the profile secret', async () => {
      saveProfile({ webhook_secret: 'whsec_saved', webhook_endpoint: 'ep_9' });
      t.running = await startListen([], t.env);
      expect(t.running.stderr()).toMatch(/saved in profile "default" \(endpoint ep_9\)/);
      expect((await sendEvent(t.running.port, 'ping', { secret: 'whsec_saved' })).status).toBe(200);
    });

    it('trigger without flags signs with the same saved secret, so it reaches a listen started without flags', async () => {
      saveProfile({ webhook_secret: 'whsec_saved', webhook_endpoint: 'ep_9' });
      t.running = await startListen([], t.env);
      const trigger = start(['trigger', 'ping', '--to', `http://127.0.0.1:${t.running.port}/`], { ...LISTEN, env: t.env });
      expect(await trigger.done).toBe(0);
      expect(trigger.stderr()).toMatch(/Signing with the secret saved in profile "default" \(endpoint ep_9\)/);
      expect(trigger.stdout()).toMatch(/: 200 in \d+ ms/);
      // VOICECTL_WEBHOOK_SECRET comes first, as for listen.
      const env2 = start(['trigger', 'ping', '--to', `http://127.0.0.1:${t.running.port}/`], { ...LISTEN, env: { ...t.env, VOICECTL_WEBHOOK_SECRET: 'whsec_other' } });
      expect(await env2.done).toBe(1);
    });
  });

  describe('--forward-to', () => {
    it('relays the raw body and the service headers to a live app, and prints its status and time', async () => {
      const a = await t.app();
      t.running = await startListen(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${a.port}/hooks`], t.env);
      const e = event();
      // Odd spacing: any re-serialization on the way would change these bytes.
      const body = e.body.replace('{"id"', '{ "id"');
      const headers = signedHeaders(e.id, 'call.ended', body);
      expect((await post(t.running.port, body, headers)).status).toBe(200);
      await a.waitFor(1);
      const got = a.received[0]!;
      expect(got.raw.toString('utf8')).toBe(body);
      expect(got.headers['service-signature']).toBe(headers['Service-Signature']);
      expect(got.headers['service-event-id']).toBe(e.id);
      expect(got.headers['service-event-type']).toBe('call.ended');
      expect(verify(SECRET, got.raw, got.headers['service-signature']).ok).toBe(true);
      await t.running.waitForOutput(/200\s+forward evt_\S+ → http:\/\/127\.0\.0\.1:\d+\/hooks in \d+ ms/, 'stderr');
    });

    // With --log the event is safe once logged: the acknowledgement does not wait for the app.
    // (Without a log it does: test/hostile/listen-ack.test.ts.)
    it('with --log, acknowledges with 2xx when the app is down, and says the forward failed', async () => {
      const a = await t.app();
      const deadPort = a.port;
      await a.close();
      t.running = await startListen(['--secret', SECRET, '--log', join(t.tmp.dir, 'events.ndjson'), '--forward-to', `http://127.0.0.1:${deadPort}/`], t.env, { sleep: async () => {} });
      const r = await sendEvent(t.running.port);
      expect(r.status).toBe(200);
      await t.running.waitForOutput('connection refused', 'stderr');
      expect(t.running.stderr()).toMatch(/forward evt_\S+ → http:\/\/127\.0\.0\.1:\d+\/: connection refused/);
    });

    it('with --log, acknowledges before a slow app has answered', async () => {
      const a = await t.app({ hold: true });
      t.running = await startListen(['--secret', SECRET, '--log', join(t.tmp.dir, 'events.ndjson'), '--forward-to', `http://127.0.0.1:${a.port}/`], t.env);
      const r = await sendEvent(t.running.port);
      expect(r.status).toBe(200);
      await a.waitFor(1);
      // The app still holds the forwarded request: the acknowledgement did not wait for it.
      expect(t.running.stderr()).not.toMatch(/forward evt_/);
      a.release();
      await t.running.waitForOutput(/200\s+forward/, 'stderr');
    });

    it('shows the app\'s error status and body', async () => {
      const a = await t.app({ status: 500 });
      t.running = await startListen(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${a.port}/`], t.env);
      await sendEvent(t.running.port);
      await t.running.waitForOutput(/500\s+forward/, 'stderr');
    });

    it('reaches an app on 127.0.0.1 through http://localhost (trying ::1 first)', async () => {
      const a = await t.app({ host: '127.0.0.1' });
      t.running = await startListen(['--secret', SECRET, '--forward-to', `http://localhost:${a.port}/`], t.env);
      await sendEvent(t.running.port);
      await sendEvent(t.running.port);
      await a.waitFor(2);
      expect(a.received[0]!.headers.host).toBe(`localhost:${a.port}`);
    });
  });

  describe('--replay', () => {
    it('re-sends the logged events to the app, freshly signed, and exits with a count', async () => {
      const log = join(t.tmp.dir, 'events.ndjson');
      t.running = await startListen(['--secret', SECRET, '--log', log], t.env);
      const sent = [await sendEvent(t.running.port), await sendEvent(t.running.port, 'ping'), await sendEvent(t.running.port, 'campaign.completed')];
      await t.running.interrupt();
      t.running = undefined;
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(3);

      const a = await t.app();
      const r = start(['listen', '--replay', log, '--forward-to', `http://127.0.0.1:${a.port}/`, '--secret', 'whsec_app'], { ...LISTEN, env: t.env });
      expect(await r.done).toBe(0);
      expect(r.stderr()).toMatch(/Replayed 3 events .*: 3 acknowledged/);
      expect(a.received.map((x) => x.raw.toString('utf8'))).toEqual(sent.map((s) => s.sent));
      for (const x of a.received) expect(verify('whsec_app', x.raw, x.headers['service-signature']).ok).toBe(true);
      expect(a.received.map((x) => x.headers['service-event-id'])).toEqual(sent.map((s) => s.id));
    });

    it('exits 1 when the app does not acknowledge, and needs --forward-to', async () => {
      const log = join(t.tmp.dir, 'events.ndjson');
      writeFileSync(log, `${event().body}\nnot json\n`);
      const a = await t.app({ status: 400 });
      const r = start(['listen', '--replay', log, '--forward-to', `http://127.0.0.1:${a.port}/`, '--secret', SECRET], { ...LISTEN, env: t.env });
      expect(await r.done).toBe(1);
      expect(r.stderr()).toMatch(/Replayed 1 event .*0 acknowledged \(2xx\), 1 not, 1 unreadable line skipped/);
      const noTarget = start(['listen', '--replay', log, '--secret', SECRET], { ...LISTEN, env: t.env });
      expect(await noTarget.done).toBe(2);
    });
  });
});

describe('the built binary, with events from the sandbox', () => {
  /**
   * The development loop end to end: a sandbox that delivers to local URLs, `webhook create
   * --allow-local --save-secret`, `listen --log`, a launched campaign, and the signed
   * call.ended events arriving in the log.
   */
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
});
