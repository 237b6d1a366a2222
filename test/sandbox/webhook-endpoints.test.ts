import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientFor } from '../helpers/given.js';

const FULL = ['agents:read', 'agents:write', 'calls:write', 'calls:dispatch', 'calls:read', 'webhooks:manage'];
let strict: Sandbox;
let local: Sandbox;

beforeAll(async () => {
  strict = await startSandbox({
    port: 0,
    keys: [
      { key: 'sk_a', org: 'org_a', scopes: FULL },
      { key: 'sk_b', org: 'org_b', scopes: FULL },
      { key: 'sk_nohooks', org: 'org_a', scopes: ['agents:read'] },
    ],
  });
  local = await startSandbox({ port: 0, allowLocalWebhooks: true });
});
afterAll(async () => {
  await strict?.close();
  await local?.close();
});

const call = (sb: Sandbox, method: string, path: string, body?: unknown, key: string | null = sb.apiKey) => clientFor(sb)(method, path, body, key);

const PUBLIC = 'https://93.184.215.14/hooks';

describe('POST /webhooks/endpoints', () => {
  it('creates an endpoint, enabled, for all events when none are given, and shows the secret once', async () => {
    const res = await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_a');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: PUBLIC, enabled: true, events: ['call.ended', 'call.recording_ready', 'campaign.completed', 'ping'] });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{24,}$/);
    const list = await call(strict, 'GET', '/webhooks/endpoints', undefined, 'sk_a');
    const listed = list.body.endpoints.find((e: { id: string }) => e.id === res.body.id);
    expect(listed).toMatchObject({ id: res.body.id, url: PUBLIC, enabled: true });
    expect(listed).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    await call(strict, 'DELETE', `/webhooks/endpoints/${res.body.id}`, undefined, 'sk_a');
  });

  it('gives each endpoint its own secret', async () => {
    const a = await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_b');
    const b = await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_b');
    expect(a.body.secret).not.toBe(b.body.secret);
    await call(strict, 'DELETE', `/webhooks/endpoints/${a.body.id}`, undefined, 'sk_b');
    await call(strict, 'DELETE', `/webhooks/endpoints/${b.body.id}`, undefined, 'sk_b');
  });

  it('refuses http, private and loopback URLs with the reason', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://93.184.215.14/hooks', /https/],
      ['https://10.0.0.8/hooks', /private-network/],
      ['https://192.168.1.20/hooks', /private-network/],
      ['https://127.0.0.1:4242/hooks', /loopback/],
      ['https://[::1]:4242/hooks', /loopback/],
      ['https://[fe80::1]/hooks', /link-local/],
      ['https://localhost:4242/hooks', /this machine/],
    ];
    for (const [url, reason] of cases) {
      const res = await call(strict, 'POST', '/webhooks/endpoints', { url }, 'sk_a');
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toMatch(reason);
    }
    expect((await call(strict, 'GET', '/webhooks/endpoints', undefined, 'sk_a')).body.endpoints).toEqual([]);
  });

  it('accepts http and loopback when the sandbox allows local webhooks, but not other private addresses', async () => {
    const ok = await call(local, 'POST', '/webhooks/endpoints', { url: 'http://127.0.0.1:4242/webhooks' });
    expect(ok.status).toBe(201);
    const ok6 = await call(local, 'POST', '/webhooks/endpoints', { url: 'http://localhost:4242/webhooks' });
    expect(ok6.status).toBe(201);
    expect((await call(local, 'POST', '/webhooks/endpoints', { url: 'http://10.0.0.8/hooks' })).status).toBe(400);
    for (const id of [ok.body.id, ok6.body.id]) await call(local, 'DELETE', `/webhooks/endpoints/${id}`);
  });

  it('validates events and other fields', async () => {
    const bad: unknown[] = [
      { url: PUBLIC, events: [] },
      { url: PUBLIC, events: ['call.started'] },
      { url: PUBLIC, events: 'call.ended' },
      { url: PUBLIC, secret: 'mine' },
      { events: ['ping'] },
      { url: PUBLIC, enabled: 'yes' },
    ];
    for (const body of bad) expect((await call(strict, 'POST', '/webhooks/endpoints', body, 'sk_a')).status, JSON.stringify(body)).toBe(400);
    const res = await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC, events: ['campaign.completed', 'call.ended', 'call.ended'] }, 'sk_a');
    expect(res.body.events).toEqual(['call.ended', 'campaign.completed']);
    await call(strict, 'DELETE', `/webhooks/endpoints/${res.body.id}`, undefined, 'sk_a');
  });

  it('allows at most 10 endpoints per organization', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await call(strict, 'POST', '/webhooks/endpoints', { url: `${PUBLIC}/${i}` }, 'sk_a');
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const over = await call(strict, 'POST', '/webhooks/endpoints', { url: `${PUBLIC}/11` }, 'sk_a');
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ limit: 'webhook_endpoint_limit_exceeded', message: expect.stringMatching(/10/) });
    // Another organization has its own ten.
    const other = await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_b');
    expect(other.status).toBe(201);
    await call(strict, 'DELETE', `/webhooks/endpoints/${ids[0]}`, undefined, 'sk_a');
    const again = await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_a');
    expect(again.status).toBe(201);
    for (const id of [...ids.slice(1), again.body.id]) await call(strict, 'DELETE', `/webhooks/endpoints/${id}`, undefined, 'sk_a');
    await call(strict, 'DELETE', `/webhooks/endpoints/${other.body.id}`, undefined, 'sk_b');
  });
});

describe('PATCH, rotate-secret, DELETE', () => {
  it('updates enabled, url and events, rejecting null and unsafe URLs', async () => {
    const ep = (await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_a')).body;
    const off = await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { enabled: false }, 'sk_a');
    expect(off).toMatchObject({ status: 200, body: { id: ep.id, enabled: false, url: PUBLIC } });
    expect(off.body).not.toHaveProperty('secret');
    const moved = await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { url: 'https://93.184.215.15/new', events: ['ping'] }, 'sk_a');
    expect(moved.body).toMatchObject({ url: 'https://93.184.215.15/new', events: ['ping'], enabled: false });
    expect((await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { enabled: null }, 'sk_a')).status).toBe(400);
    expect((await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { url: null }, 'sk_a')).status).toBe(400);
    expect((await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { url: 'https://10.1.1.1/x' }, 'sk_a')).status).toBe(400);
    expect((await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { secret: 'x' }, 'sk_a')).status).toBe(400);
    expect((await call(strict, 'PATCH', `/webhooks/endpoints/${ep.id}`, { events: [] }, 'sk_a')).status).toBe(400);
    const after = (await call(strict, 'GET', '/webhooks/endpoints', undefined, 'sk_a')).body.endpoints.find((e: { id: string }) => e.id === ep.id);
    expect(after).toMatchObject({ url: 'https://93.184.215.15/new', events: ['ping'], enabled: false });
    await call(strict, 'DELETE', `/webhooks/endpoints/${ep.id}`, undefined, 'sk_a');
  });

  it('rotates the secret, returning the new one', async () => {
    const ep = (await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_a')).body;
    const rotated = await call(strict, 'POST', `/webhooks/endpoints/${ep.id}/rotate-secret`, undefined, 'sk_a');
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ id: ep.id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(ep.secret);
    await call(strict, 'DELETE', `/webhooks/endpoints/${ep.id}`, undefined, 'sk_a');
  });

  it('deletes, after which the endpoint is a 404 everywhere', async () => {
    const ep = (await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_a')).body;
    expect((await call(strict, 'DELETE', `/webhooks/endpoints/${ep.id}`, undefined, 'sk_a')).status).toBe(200);
    for (const [m, p] of [['DELETE', ''], ['PATCH', ''], ['POST', '/test'], ['POST', '/rotate-secret'], ['GET', '/deliveries']] as const) {
      expect((await call(strict, m, `/webhooks/endpoints/${ep.id}${p}`, m === 'PATCH' ? { enabled: true } : undefined, 'sk_a')).status, `${m} ${p}`).toBe(404);
    }
  });
});

describe('scopes and organizations', () => {
  it('needs webhooks:manage, and hides other organizations’ endpoints', async () => {
    const denied = await call(strict, 'GET', '/webhooks/endpoints', undefined, 'sk_nohooks');
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/webhooks:manage/);
    expect((await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_nohooks')).status).toBe(403);
    const mine = (await call(strict, 'POST', '/webhooks/endpoints', { url: PUBLIC }, 'sk_a')).body;
    expect((await call(strict, 'GET', `/webhooks/endpoints/${mine.id}/deliveries`, undefined, 'sk_b')).status).toBe(404);
    expect((await call(strict, 'POST', `/webhooks/endpoints/${mine.id}/rotate-secret`, undefined, 'sk_b')).status).toBe(404);
    expect((await call(strict, 'GET', '/webhooks/endpoints', undefined, 'sk_b')).body.endpoints).toEqual([]);
    await call(strict, 'DELETE', `/webhooks/endpoints/${mine.id}`, undefined, 'sk_a');
  });
});
