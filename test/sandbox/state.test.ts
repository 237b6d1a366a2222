import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { StateFileError } from '../../src/sandbox/state.js';
import { allCalls, campaignDone, clientFor, givenAgent, givenCampaign, MORNING, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'voicectl-sandbox-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--state', () => {
  it('keeps agents, campaigns and calls across a restart and finishes calls that were in flight', async () => {
    const file = join(dir, 'restart.json');
    // Slower than real time: the calls are still ringing when the sandbox stops.
    const first = await startSandbox({ port: 0, timeScale: 0.05, seed: 5, startAt: MORNING, stateFile: file });
    const api1 = clientFor(first);
    const agent = await givenAgent(api1);
    const campaign = await givenCampaign(api1, agent.id, 6);
    await api1('POST', `/campaigns/${campaign.id}/launch`);
    const inFlight = (await api1('GET', `/calls?campaign_id=${campaign.id}`)).body.calls as any[];
    expect(inFlight.every((c) => c.status === 'initiated')).toBe(true);
    await first.close();

    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.version).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);

    // Fast now: the stored due times come round within milliseconds.
    const second = await startSandbox({ port: 0, timeScale: 100_000, startAt: MORNING, stateFile: file });
    const api2 = clientFor(second);
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect((await api2('GET', `/agents/${agent.id}`)).body.name).toBe('Asha');
      const done = await campaignDone(api2, campaign.id);
      expect(done.contacts_by_status.completed + done.contacts_by_status.no_answer + done.contacts_by_status.failed).toBe(6);
      const calls = await allCalls(api2, `campaign_id=${campaign.id}`);
      // The same calls finished: none redialed, none lost.
      expect(calls.map((c) => c.call_id).sort()).toEqual(inFlight.map((c) => c.call_id).sort());
      for (const c of calls) {
        const before = inFlight.find((x) => x.call_id === c.call_id);
        expect(c.start_time).toBe(before.start_time);
        expect(Date.parse(c.end_time) - Date.parse(c.start_time)).toBe(c.duration_seconds * 1000);
      }
      const answered = calls.find((c) => c.status === 'completed');
      if (answered) {
        const full = (await api2('GET', `/calls/${answered.call_id}`)).body;
        expect(full.transcript[0].text).toContain(answered.contact.name);
      }
      await api2('POST', '/agents', { name: 'Second', voice_name: 'Priya' });
    } finally {
      await second.close();
    }

    const third = await startSandbox({ port: 0, timeScale: 100_000, stateFile: file });
    try {
      const names = (await clientFor(third)('GET', '/agents')).body.agents.map((a: any) => a.name);
      expect(names).toEqual(['Asha', 'Second']);
    } finally {
      await third.close();
    }
  });

  it('writes changes while running, without waiting for shutdown', async () => {
    const file = join(dir, 'live.json');
    const sb = await startSandbox({ port: 0, timeScale: 1, stateFile: file });
    try {
      await givenAgent(clientFor(sb), { name: 'Written' });
      await waitFor(() => {
        try {
          const s = JSON.parse(readFileSync(file, 'utf8'));
          return s.orgs.some((o: any) => Object.values(o.agents).some((a: any) => a.name === 'Written')) ? true : undefined;
        } catch {
          return undefined;
        }
      }, 10_000, 'the state file');
    } finally {
      await sb.close();
    }
  });

  it('keeps the keys given by --keys over the stored default key', async () => {
    const file = join(dir, 'keys.json');
    const a = await startSandbox({ port: 0, stateFile: file });
    await a.close();
    const b = await startSandbox({ port: 0, stateFile: file, keys: [{ key: 'sk_explicit_1', org: 'acme', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:dispatch', 'calls:read', 'webhooks:manage'] }] });
    try {
      expect(b.apiKey).toBe('sk_explicit_1');
    } finally {
      await b.close();
    }
  });

  it('refuses a state file that is not JSON or not a sandbox state, with a readable error', async () => {
    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, '{"half": ');
    await expect(startSandbox({ port: 0, stateFile: garbage })).rejects.toThrow(StateFileError);
    await expect(startSandbox({ port: 0, stateFile: garbage })).rejects.toThrow(/not valid JSON/);
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"name": "something else"}');
    await expect(startSandbox({ port: 0, stateFile: other })).rejects.toThrow(/not a voicectl sandbox state/);
  });

  it('starts empty when the state file does not exist yet', async () => {
    const sb = await startSandbox({ port: 0, stateFile: join(dir, 'fresh.json') });
    try {
      expect((await clientFor(sb)('GET', '/agents')).body.total).toBe(0);
    } finally {
      await sb.close();
    }
  });
});
