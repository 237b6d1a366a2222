/**
 * One clock: voicectl talking to a sandbox on this machine decides and shows times on
 * the sandbox's simulated clock (util/sandbox-clock.ts), and no other host can move it.
 */
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { isLoopbackHost, parseSandboxClock, parseSandboxClockEnv, sandboxClockEnvValue } from '../../src/util/sandbox-clock.js';
import { sharedHarness } from '../helpers/cli.js';
import { givenAgent, givenCampaign } from '../helpers/given.js';

/** 08:00 in India on a Tuesday: the Indian calling window (09:00-21:00) opens in an hour of simulated time. */
const INDIA_8AM = '2026-12-01T02:30:00.000Z';

describe('a sandbox at 3600x that starts at 08:00 in India', () => {
  const h = sharedHarness({ timeScale: 3600, startAt: INDIA_8AM });

  it('tells its clock in every answer', async () => {
    const res = await h.api('GET', '/voices', undefined, null);
    const clock = parseSandboxClock(res.headers.get('voicectl-sandbox-clock') ?? undefined)!;
    expect(clock.scale).toBe(3600);
    expect(Math.abs(clock.now - h.sandbox.world.clock.now())).toBeLessThan(3600 * 1000);
  });

});

/** Whether India's calling window (09:00-21:00 IST) is open at this real moment. */
function indiaOpenNow(): boolean {
  const h = (new Date().getUTCHours() * 60 + new Date().getUTCMinutes() + 330) % 1440;
  return h >= 9 * 60 && h < 20 * 60 + 30;
}

describe('a sandbox at 60x whose simulated hour is the opposite of the real one', () => {
  // Closed in simulated time (07:00 IST) while it is open for real, and the other way round
  // (12:00 IST) at night: only a voicectl on the sandbox's clock gets both right.
  const simOpen = !indiaOpenNow();
  // 60x: two simulated hours before the window opens are two real minutes, room for a slow machine.
  const h = sharedHarness({ timeScale: 60, startAt: simOpen ? '2026-12-01T06:30:00.000Z' : '2026-12-01T01:30:00.000Z' });

  it('launches or holds by the calling window in simulated time, whatever the real hour', async () => {
    const agent = await givenAgent(h.api);
    const campaign = await givenCampaign(h.api, agent.id, 3);
    const r = await h.run(['campaign', 'launch', campaign.id, '--yes']);
    const after = (await h.api('GET', `/campaigns/${campaign.id}`)).body;
    if (simOpen) {
      expect(r.exitCode).toBe(0);
      expect(after.status).not.toBe('draft');
    } else {
      expect(r.stderr).toMatch(/calling hours|window/i);
      expect(after.status).toBe('draft');
    }
  });
});

describe('a sandbox at 3600x, read before it answers', () => {
  const h = sharedHarness({ timeScale: 3600, startAt: INDIA_8AM });

  it('reads a relative --since on the sandbox clock from VOICECTL_SANDBOX_CLOCK', async () => {
    const a = h.sandbox.world.clock.anchors();
    const env = { VOICECTL_SANDBOX_CLOCK: sandboxClockEnvValue(a.simStart, a.realStart, a.scale) };
    const before = h.sandbox.requests.length;
    const r = await h.run(['call', 'list', '--since', '2h', '--json'], { env });
    expect(r.exitCode).toBe(0);
    const sent = h.sandbox.requests.slice(before).find((q) => q.path === '/calls')!;
    const since = Date.parse(String(sent.query.since));
    const simNow = h.sandbox.world.clock.now();
    // Two simulated hours back from the sandbox's now (with a few real seconds of slack at 3600x).
    expect(Math.abs(simNow - 2 * 3_600_000 - since)).toBeLessThan(30 * 3_600_000 / 3600 * 1000);
    expect(Math.abs(Date.now() - 2 * 3_600_000 - since)).toBeGreaterThan(3_600_000);
  });
});

describe('who may move the clock', () => {
  it('is only a host on this machine', () => {
    for (const h of ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]', '::1']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['api.example.com', '10.0.0.1', '192.168.1.1', '127.0.0.1.example.com', 'localhost.example.com']) expect(isLoopbackHost(h)).toBe(false);
  });

  it('ignores a service elsewhere that sends the header', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://api.example.com').intercept({ path: '/v1/agents', method: 'GET' }).reply(200, { agents: [], total: 0 }, {
      headers: { 'content-type': 'application/json', 'voicectl-sandbox-clock': 'now=2030-01-01T00:00:00.000Z; scale=3600' },
    });
    const seen: unknown[] = [];
    const api = new ApiClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', timeoutMs: 5000, dispatcher: agent, onSandboxClock: (c) => seen.push(c) });
    await api.get('/agents');
    expect(seen).toEqual([]);
    await agent.close();
  });

  it('reads only well-formed values', () => {
    expect(parseSandboxClock('now=2026-12-01T02:30:00.000Z; scale=3600')).toEqual({ now: Date.parse(INDIA_8AM), scale: 3600 });
    for (const bad of ['now=yesterday; scale=2', 'now=2026-12-01T02:30:00.000Z; scale=0', 'now=2026-12-01T02:30:00.000Z; scale=-1', 'scale=2', '']) {
      expect(parseSandboxClock(bad)).toBeUndefined();
    }
    expect(parseSandboxClockEnv('now=2026-12-01T02:30:00.000Z; scale=60; real=1796092200000')).toEqual({ now: Date.parse(INDIA_8AM), scale: 60, real: 1796092200000 });
  });
});
