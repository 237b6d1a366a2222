/**
 * `listen --from-api` against the sandbox: no listener, no tunnel. Killed with SIGKILL in
 * the middle of a 1,000-call campaign and started again, it logs every call.ended exactly
 * once, and every call.recording_ready and the campaign.completed too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { allCalls, campaignDone, clientFor, givenAgent, givenCampaign, givenFinishedCampaign, waitFor, type Client } from '../helpers/given.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { verify } from '../../src/webhooks/signature.js';
import { startReceiver } from '../webhooks/capture-server.js';

let h: Harness;
let api: Client;
let dir: TempDir;
const children: ResultPromise[] = [];

beforeAll(async () => {
  // Slow enough that the campaign is still running when the first process is killed.
  h = await harness({ timeScale: 30 });
  api = clientFor(h.sandbox);
  dir = tempDir();
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.allSettled(children);
  await h?.close();
  dir?.remove();
});

function start(args: string[]): ResultPromise {
  const child = execa(process.execPath, [BIN, 'listen', ...args], { reject: false, extendEnv: false, env: h.env, timeout: 120_000 });
  children.push(child);
  return child;
}

/**
 * The events of the log. `live`: read while listen is writing, so the last line may be one
 * whose write is under way (a read is not atomic with a write): it is left for the next look.
 */
function events(file: string, live = false): any[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  if (live) lines.pop(); // whole lines end with a newline: what follows the last one is not yet a line
  // Once the writers have stopped, a line cut short by the kill would show here as a parse error: there must be none.
  return lines.filter(Boolean).map((l) => JSON.parse(l));
}

describe('listen --from-api', () => {
  it('logs each call.ended of a 1,000-call campaign exactly once across a SIGKILL and a restart', async () => {
    const log = join(dir.dir, 'events.jsonl');
    const args = ['--from-api', '--log', log, '--interval', '0.2', '--since', '1h'];
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 1000);
    const first = start(args);
    expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBeLessThan(300);
    const ended = (live = false) => events(log, live).filter((e) => e.type === 'call.ended');
    await waitFor(() => (ended(true).length >= 100 ? true : undefined), 60_000, 'a hundred call.ended in the log');
    first.kill('SIGKILL');
    expect((await first).signal).toBe('SIGKILL');
    const before = ended().length;
    expect(before).toBeLessThan(1000);

    const second = start(args);
    await campaignDone(api, campaign.id, undefined);
    const calls = await allCalls(api, `campaign_id=${campaign.id}`);
    const recorded = calls.filter((c) => c.has_recording).length;
    await waitFor(() => (events(log, true).some((e) => e.type === 'campaign.completed') && ended(true).length >= 1000 ? true : undefined), 60_000, 'every event in the log');
    await waitFor(async () => {
      const now = (await allCalls(api, `campaign_id=${campaign.id}`)).filter((c) => c.has_recording).length;
      return events(log, true).filter((e) => e.type === 'call.recording_ready').length >= now && now >= recorded ? true : undefined;
    }, 60_000, 'every recording_ready in the log');
    second.kill('SIGINT');
    const r = await second;
    expect([0, 130]).toContain(r.exitCode);

    const all = events(log);
    const perCall = new Map<string, number>();
    for (const e of all.filter((x) => x.type === 'call.ended')) perCall.set(e.data.call_id, (perCall.get(e.data.call_id) ?? 0) + 1);
    expect(perCall.size).toBe(1000);
    expect([...perCall.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(calls.map((c) => c.call_id))).toEqual(new Set(perCall.keys()));
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.filter((e) => e.type === 'campaign.completed')).toHaveLength(1);
    expect(all.every((e) => e.id.startsWith('evt_reconciled_'))).toBe(true);
    // The rebuilt event's data is the call as the list returns it.
    const sample = all.find((e) => e.type === 'call.ended');
    expect(Object.keys(sample.data)).toEqual(expect.arrayContaining(['call_id', 'campaign_id', 'status', 'end_time', 'has_recording', 'contact']));
    expect(r.stderr).toMatch(/Polling/);
  }, 180_000);

  it('forwards each event to the app signed as the service signs, and records the app\'s answers for --replay --unforwarded', async () => {
    const secret = 'whsec_from_api_test_0123456789';
    const secretFile = join(dir.dir, 'secret.txt');
    writeFileSync(secretFile, `${secret}\n`);
    const app = await startReceiver((q) => (verify(secret, q.raw, q.headers['service-signature'] as string).ok ? 200 : 401));
    // A sandbox of its own: only this campaign's events.
    const own = await harness({ timeScale: 30 });
    const api = clientFor(own.sandbox);
    const start = (args: string[]) => {
      const child = execa(process.execPath, [BIN, 'listen', ...args], { reject: false, extendEnv: false, env: own.env, timeout: 120_000 });
      children.push(child);
      return child;
    };
    try {
      const log = join(dir.dir, 'forwarded.jsonl');
      const agent = await givenAgent(api);
      const campaign = await givenCampaign(api, agent.id, 6);
      const child = start(['--from-api', '--log', log, '--interval', '0.2', '--since', '1h', '--forward-to', `${app.url}/hooks`, '--secret-file', secretFile]);
      expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBeLessThan(300);
      await campaignDone(api, campaign.id, undefined);
      const got = await app.waitFor(1, (q) => q.json?.type === 'campaign.completed', 60_000);
      expect(got).toHaveLength(1);
      await waitFor(() => (app.received.filter((q) => q.json?.type === 'call.ended' && q.json.data.campaign_id === campaign.id).length >= 6 ? true : undefined), 30_000, 'six call.ended at the app');
      const forwards = () => {
        try {
          // Read while listen writes it: what follows the last newline is not yet a line.
          return readFileSync(`${log}.forwards`, 'utf8').split('\n').slice(0, -1).filter(Boolean).map((l) => JSON.parse(l));
        } catch {
          return [];
        }
      };
      await waitFor(() => (forwards().length >= events(log, true).length ? true : undefined), 30_000, 'every forward recorded');
      child.kill('SIGINT');
      await child;
      expect(app.received.every((q) => q.headers['service-event-synthesized'] === 'true')).toBe(true);
      // Every answer was 200: what the app received verified with the endpoint's secret.
      const logged = events(log);
      expect(events(log).filter((e) => e.type === 'call.ended')).toHaveLength(6);
      expect(new Set(forwards().filter((f) => f.ok).map((f) => f.id))).toEqual(new Set(logged.map((e) => e.id)));
      const replay = await own.run(['listen', '--replay', log, '--unforwarded', '--forward-to', `${app.url}/hooks`, '--secret-file', secretFile]);
      expect(replay.exitCode, replay.stderr).toBe(0);
      expect(replay.stderr).toMatch(/Replayed 0 events/);
    } finally {
      await app.close();
      await own.close();
    }
  }, 120_000);

  it('at Ctrl-C, says how many events the app did not acknowledge and prints the command that re-sends them', async () => {
    const app = await startReceiver(() => 500);
    const own = await harness({ timeScale: 600 });
    try {
      const ownApi = clientFor(own.sandbox);
      await givenFinishedCampaign(ownApi, { contacts: 3 });
      const log = join(dir.dir, 'refused.jsonl');
      const child = execa(process.execPath, [BIN, 'listen', '--from-api', '--log', log, '--since', '1h', '--interval', '0.2', '--forward-to', `${app.url}/hooks`, '--skip-verify'], { reject: false, extendEnv: false, env: own.env, timeout: 60_000 });
      children.push(child);
      await app.waitFor(1);
      child.kill('SIGINT');
      const r = await child;
      expect(r.stderr).toMatch(/\d+ events? not forwarded \(the app did not acknowledge/);
      expect(r.stderr).toContain(`voicectl listen --replay ${log} --forward-to ${app.url}/hooks --unforwarded`);
      // Unsigned, as --skip-verify says.
      expect(app.received[0]!.headers['service-signature']).toBeUndefined();
    } finally {
      await app.close();
      await own.close();
    }
  }, 60_000);

  it('will not forward unsigned without being told, and says how to give the secret', async () => {
    const r = await h.run(['listen', '--from-api', '--forward-to', 'http://127.0.0.1:9/hooks']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/No secret to sign the forwarded events with/);
    expect(r.stderr).toMatch(/--secret-file/);
    const since = await h.run(['listen', '--since', '1h', '--skip-verify']);
    expect(since.exitCode).toBe(2);
    expect(since.stderr).toMatch(/--since goes with --from-api/);
    const both = await h.run(['listen', '--from-api', '--replay', 'events.jsonl', '--forward-to', 'http://127.0.0.1:9/', '--skip-verify']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/--from-api polls the API; --replay re-sends a log/);
  });
});
