/**
 * `events reconcile` against the sandbox: an endpoint disabled during part of a campaign
 * misses the events of that stretch; reconcile lists exactly those (checked against the
 * sandbox's own delivery records), says why, exits 1; `--backfill` makes the app receive
 * each once, verified by the same code that verifies real deliveries, even when run twice.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/webhooks/signature.js';
import { harness, type Harness } from '../../helpers/cli.js';
import { allCalls, campaignDone, clientFor, givenAgent, givenCampaign, waitFor, type Client } from '../../helpers/given.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { startReceiver, type Receiver } from '../../webhooks/capture-server.js';
import { freePort, readLog, spawnListen, type ListenProcess } from '../../e2e/listen-helpers.js';

let h: Harness;
let api: Client;
let dir: TempDir;
let log: string;
let endpointId: string;
let secret: string;
let campaignId: string;
let listen: ListenProcess | undefined;

async function allDeliveries(): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 200) {
    const res = await api('GET', `/webhooks/endpoints/${endpointId}/deliveries?limit=200&offset=${offset}`);
    const list = Array.isArray(res.body) ? res.body : res.body.deliveries;
    out.push(...list);
    if (list.length < 200 || (res.body.total !== undefined && offset + 200 >= res.body.total)) return out;
  }
}

const loggedCalls = (type: string) => new Set(readLog(log).filter((e) => e.type === type).map((e) => e.data.call_id as string));

beforeAll(async () => {
  // Slow enough for the endpoint to be switched off and on while calls are still running.
  h = await harness({ allowLocalWebhooks: true, timeScale: 60 });
  api = clientFor(h.sandbox);
  dir = tempDir();
  log = join(dir.dir, 'events.jsonl');
  const port = await freePort();
  const made = await h.run(['webhook', 'create', '--url', `http://127.0.0.1:${port}/`, '--allow-local', '--save-secret', '--json']);
  expect(made.exitCode, made.stderr).toBe(0);
  ({ id: endpointId, secret } = JSON.parse(made.stdout));
  listen = await spawnListen(['--port', String(port), '--log', log], h.env);

  const agent = await givenAgent(api);
  const campaign = await givenCampaign(api, agent.id, 30);
  campaignId = campaign.id;
  expect((await api('POST', `/campaigns/${campaignId}/launch`)).status).toBeLessThan(300);
  await waitFor(() => (loggedCalls('call.ended').size > 0 ? true : undefined), 20_000, 'a first call.ended in the log');
  expect((await api('PATCH', `/webhooks/endpoints/${endpointId}`, { enabled: false })).status).toBeLessThan(300);
  // Off while several more calls end, then on again before the campaign is over.
  await waitFor(async () => ((await allCalls(api, `campaign_id=${campaignId}`)).filter((c) => c.end_time).length >= 12 ? true : undefined), 30_000, 'calls to end while disabled');
  expect((await api('PATCH', `/webhooks/endpoints/${endpointId}`, { enabled: true })).status).toBeLessThan(300);
  await campaignDone(api, campaignId);
  // Every connected call's recording saved, and every delivery settled.
  await waitFor(async () => ((await allCalls(api, `campaign_id=${campaignId}`)).every((c) => c.status !== 'completed' || c.has_recording) ? true : undefined), 30_000, 'recordings');
  await waitFor(async () => ((await allDeliveries()).every((d) => d.status !== 'pending') ? true : undefined), 30_000, 'deliveries to settle');
  expect([0, 130]).toContain(await listen.stop());
  listen = undefined;
}, 120_000);

afterAll(async () => {
  await listen?.stop();
  await h?.close();
  dir?.remove();
});

describe('events reconcile', () => {
  it('lists exactly the calls whose events were never delivered, says why, and exits 1; torn and foreign lines are named', async () => {
    const calls = await allCalls(api, `campaign_id=${campaignId}`);
    const ended = loggedCalls('call.ended');
    const missing = calls.filter((c) => !ended.has(c.call_id)).map((c) => c.call_id).sort();
    expect(missing.length).toBeGreaterThan(0);
    expect(ended.size).toBeGreaterThan(0);
    // The sandbox's own records: a call.ended delivery for every logged call, none for the missing ones.
    const deliveries = (await allDeliveries()).filter((d) => d.event_type === 'call.ended');
    const loggedIds = new Set(readLog(log).map((e) => e.id));
    expect(deliveries.length).toBe(ended.size);
    expect(deliveries.every((d) => d.status === 'delivered' && loggedIds.has(d.event_id))).toBe(true);

    const loggedRecordings = loggedCalls('call.recording_ready');
    appendFileSync(log, '{"hello":"not an event"}\n{"id":"evt_torn","type":"call.ended","data":{"call_');
    const lines = readFileSync(log, 'utf8').split('\n').length;
    const r = await h.run(['events', 'reconcile', '--log', log, '--campaign', campaignId, '--endpoint', endpointId, '--json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`line ${lines - 1} is JSON but not an event`);
    expect(r.stderr).toContain(`line ${lines} is not JSON`);
    const rows = JSON.parse(r.stdout) as any[];
    const endedGaps = rows.filter((g) => g.type === 'call.ended');
    expect(endedGaps.map((g) => g.object_id).sort()).toEqual(missing);
    for (const g of endedGaps) {
      expect(g.delivery.verdict).toBe('never_tried');
      expect(g.delivery.reason).toMatch(/disabled/);
      expect(g.event_id).toMatch(/^evt_reconciled_[0-9a-f]{32}$/);
    }
    // Recordings of the calls that ended while the endpoint was off went out once it was on again.
    const recorded = new Set(calls.filter((c) => c.has_recording).map((c) => c.call_id));
    const recordingGaps = rows.filter((g) => g.type === 'call.recording_ready').map((g) => g.object_id);
    expect(recordingGaps.every((id) => recorded.has(id) && !loggedRecordings.has(id))).toBe(true);

    // The same over --since, and over the log split in two files.
    const since = await h.run(['events', 'reconcile', '--log', log, '--since', '2h', '--endpoint', endpointId, '--json']);
    expect(since.exitCode).toBe(1);
    expect((JSON.parse(since.stdout) as any[]).filter((g) => g.type === 'call.ended').map((g) => g.object_id).sort()).toEqual(missing);
    const all = readFileSync(log, 'utf8').split('\n');
    const [first, second] = [join(dir.dir, 'part1.jsonl'), join(dir.dir, 'part2.jsonl')];
    writeFileSync(first, `${all.slice(0, 10).join('\n')}\n`);
    writeFileSync(second, all.slice(10).join('\n'));
    const split = await h.run(['events', 'reconcile', '--log', first, '--log', second, '--campaign', campaignId, '--json']);
    expect(split.exitCode).toBe(1);
    expect((JSON.parse(split.stdout) as any[]).map((g) => `${g.type} ${g.object_id}`)).toEqual(rows.map((g) => `${g.type} ${g.object_id}`));

    const table = await h.run(['events', 'reconcile', '--log', log, '--campaign', campaignId, '--endpoint', endpointId]);
    expect(table.exitCode).toBe(1);
    expect(table.stdout).toContain(missing[0]);
    expect(table.stdout).toMatch(/never tried/);
    const md = await h.run(['events', 'reconcile', '--log', log, '--campaign', campaignId, '--format', 'md']);
    expect(md.exitCode).toBe(1);
    expect(md.stdout).toMatch(/^\| Event \| Object \|/m);
  }, 60_000);

  it('backfills each missing event once, verifiable as a real delivery, even when run twice', async () => {
    const before = await h.run(['events', 'reconcile', '--log', log, '--campaign', campaignId, '--json']);
    const gaps = JSON.parse(before.stdout) as any[];
    expect(gaps.length).toBeGreaterThan(0);
    const secretFile = join(dir.dir, 'secret.txt');
    appendFileSync(secretFile, `${secret}\n`);
    const verdicts: boolean[] = [];
    const app: Receiver = await startReceiver((req) => {
      const ok = verify(secret, req.raw, req.headers['service-signature'] as string).ok;
      verdicts.push(ok);
      return ok ? 200 : 401;
    });
    try {
      const args = ['events', 'reconcile', '--log', log, '--campaign', campaignId, '--backfill', `${app.url}/hooks`, '--secret-file', secretFile];
      const first = await h.run(args);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(app.received.length).toBe(gaps.length);
      const second = await h.run(args);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/Nothing missing/);
      expect(app.received.length).toBe(gaps.length);
      expect(verdicts.every(Boolean)).toBe(true);
      const ids = app.received.map((r) => r.headers['service-event-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(gaps.map((g) => g.event_id).sort());
      for (const r of app.received) {
        expect(r.headers['service-event-synthesized']).toBe('true');
        expect(r.json.id).toBe(r.headers['service-event-id']);
        expect(r.json.type).toBe(r.headers['service-event-type']);
      }
      // `data` is the call as GET /calls lists it.
      const calls = new Map((await allCalls(api, `campaign_id=${campaignId}`)).map((c) => [c.call_id, c]));
      const ended = app.received.find((r) => r.json.type === 'call.ended')!;
      expect(ended.json.data).toEqual(calls.get(ended.json.data.call_id));
      const after = await h.run(['events', 'reconcile', '--log', log, '--campaign', campaignId]);
      expect(after.exitCode, after.stderr).toBe(0);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('says when the service is still retrying, tying a record to its call by time only when no other call or record is as close', async () => {
    const app = await startReceiver(() => 500);
    try {
      const made = await h.run(['webhook', 'create', '--url', `${app.url}/down`, '--allow-local', '--events', 'call.ended', '--json']);
      expect(made.exitCode, made.stderr).toBe(0);
      const downId = JSON.parse(made.stdout).id as string;
      const agent = await givenAgent(api);
      const other = await givenCampaign(api, agent.id, 8);
      expect((await api('POST', `/campaigns/${other.id}/launch`)).status).toBeLessThan(300);
      await campaignDone(api, other.id);
      // The app saw each first attempt: which event id was about which call.
      const ids = () => new Set(app.received.filter((q) => q.json?.type === 'call.ended').map((q) => q.headers['service-event-id']));
      await waitFor(() => (ids().size >= 8 ? true : undefined), 20_000, 'a first attempt of each event');
      const callOf = new Map(app.received.map((q) => [q.headers['service-event-id'] as string, q.json?.data?.call_id as string]));
      const empty = join(dir.dir, 'empty.jsonl');
      appendFileSync(empty, '');
      const r = await h.run(['events', 'reconcile', '--log', empty, '--campaign', other.id, '--endpoint', downId, '--json']);
      expect(r.exitCode, r.stderr).toBe(1);
      const rows = (JSON.parse(r.stdout) as any[]).filter((g) => g.type === 'call.ended');
      expect(rows).toHaveLength(8);
      // A record is tied to a call by time only when no other call ended as close to it and
      // no other record is as close to the call: then it is that call's own; otherwise unknown.
      for (const g of rows) {
        if (g.delivery.verdict === 'unknown') {
          expect(g.delivery.reason).toMatch(/equally close|could as well be another event's/);
          continue;
        }
        expect(g.delivery.verdict).toBe('retrying');
        expect(g.delivery.reason).toMatch(/still retrying \(\d+ attempts? so far, last: .*500\), next at .*\[record matched by time: \d+s apart; no other event or record as close, tolerance 1 minute\]/);
        expect(callOf.get(g.delivery.event_id)).toBe(g.object_id);
      }
      // Not subscribed: never tried, and said so.
      const rec = (JSON.parse(r.stdout) as any[]).filter((g) => g.type === 'call.recording_ready');
      expect(rec.every((g) => /not subscribed to call.recording_ready/.test(g.delivery.reason))).toBe(true);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('refuses a missing scope, a bad pair of flags and a missing log with exit 2', async () => {
    expect((await h.run(['events', 'reconcile', '--log', log])).exitCode).toBe(2);
    expect((await h.run(['events', 'reconcile', '--log', log, '--campaign', campaignId, '--backfill', 'http://127.0.0.1:9/', '--into-log'])).exitCode).toBe(2);
    const missing = await h.run(['events', 'reconcile', '--log', join(dir.dir, 'nope.jsonl'), '--since', '1h']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/nope\.jsonl: no such file/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
