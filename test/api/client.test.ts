import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { backoffCeiling, parseRetryAfter } from '../../src/api/client.js';
import { client, json, rejection, serve, type Handler, type TestClient, type TestServer } from './helpers.js';

const open: Array<TestServer | TestClient> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function setup(handler: Handler, options: Parameters<typeof client>[1] = {}) {
  const server = await serve(handler);
  const c = client(server.url, options);
  open.push(server, c);
  return { server, ...c };
}

/** Fails the first `failures` requests with `status`, then answers 200. */
function flaky(failures: number, status: number, headers: Record<string, string> = {}): Handler {
  return (_req, res, _body, n) => (n <= failures ? json(res, status, { error: 'busy', status_code: status }, headers) : json(res, 200, { ok: n }));
}

describe('JSON, key and URL', () => {
  it('sends X-API-Key and JSON, and reads JSON back', async () => {
    const { api, server } = await setup((_req, res, body) => json(res, 201, { echo: JSON.parse(body) }));
    const out = await api.post<{ echo: unknown }>('/agents', { name: 'A' });
    expect(out).toEqual({ echo: { name: 'A' } });
    const seen = server.requests[0]!;
    expect(seen.headers['x-api-key']).toBe('sk_test_1234');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.accept).toBe('application/json');
  });

  it('sends no key on an anonymous request', async () => {
    const { api, server } = await setup((_req, res) => json(res, 200, []));
    await api.get('/voices', { anonymous: true });
    expect(server.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it.each(['/v1', '/v1/', '/v1//'])('joins a base URL with the path prefix %s', async (prefix) => {
    const { server } = await setup((_req, res) => json(res, 200, { agents: [] }));
    const c = client(server.url + prefix);
    open.push(c);
    expect(c.api.url('/agents', { limit: 5, offset: 0, skip: undefined, empty: '' })).toBe(`${server.url}/v1/agents?limit=5&offset=0`);
    expect(c.api.url('agents')).toBe(`${server.url}/v1/agents`);
    await c.api.get('/agents', { query: { q: 'a b&c' } });
    expect(server.requests[0]!.url).toBe('/v1/agents?q=a+b%26c');
  });

  it('returns undefined for an empty 2xx body', async () => {
    const { api } = await setup((_req, res) => res.writeHead(204).end());
    expect(await api.delete('/agents/x')).toBeUndefined();
  });

  it('turns a 2xx body that is not JSON into an unexpected-response error', async () => {
    const { api, server } = await setup((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'));
    const err = (await rejection(api.get('/agents'))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('unexpected');
    expect(err.message).toContain(server.host);
    expect(err.message).not.toContain('<html>');
  });

  it('reports a redirect with where it points instead of following it', async () => {
    const { api } = await setup((_req, res) => res.writeHead(301, { location: 'https://api.example.com/v1/agents' }).end());
    const err = (await rejection(api.get('/agents'))) as ApiError;
    expect(err.status).toBe(301);
    expect(err.location).toBe('https://api.example.com/v1/agents');
    expect(err.message).toContain('https://api.example.com/v1/agents');
  });
});

describe('stream', () => {
  it('hands a 2xx body over unread, sends the key only to the service\'s own origin, and raises on errors', async () => {
    const { api, server } = await setup((req, res) => (req.url === '/missing' ? json(res, 404, { error: 'gone' }) : res.writeHead(200, { 'content-type': 'audio/mpeg' }).end('ID3 audio')));
    const other = await serve((_req, res) => res.writeHead(200).end('signed'));
    open.push(other);
    const own = await api.stream('GET', '/calls/c1/recording');
    expect([own.status, await own.body.text()]).toEqual([200, 'ID3 audio']);
    const foreign = await api.stream('GET', `${other.url}/rec.mp3?sig=abc`);
    expect(await foreign.body.text()).toBe('signed');
    expect(server.requests[0]!.headers['x-api-key']).toBe('sk_test_1234');
    expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
    const err = (await rejection(api.stream('GET', `${server.url}/missing`))) as ApiError;
    expect([err.status, err.message]).toEqual([404, 'gone']);
  });
});

describe('GET retries', () => {
  it.each([429, 502, 503, 504])('retries a GET answered %i, then succeeds', async (status) => {
    const { api, server, waits } = await setup(flaky(2, status));
    expect(await api.get('/agents')).toEqual({ ok: 3 });
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 500])('does not retry a GET answered %i', async (status) => {
    const { api, server, waits } = await setup(flaky(1, status));
    const err = (await rejection(api.get('/agents'))) as ApiError;
    expect(err.status).toBe(status);
    expect(server.requests).toHaveLength(1);
    expect(waits).toHaveLength(0);
  });

  it('retries a GET whose connection the server drops', async () => {
    const { api, server, waits } = await setup((req, res, _b, n) => (n <= 2 ? req.socket.destroy() : json(res, 200, { ok: n })));
    expect(await api.get('/agents')).toEqual({ ok: 3 });
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('honours Retry-After in seconds', async () => {
    const { api, waits } = await setup(flaky(2, 429, { 'retry-after': '7' }));
    await api.get('/agents');
    expect(waits).toEqual([7000, 7000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    const { api, waits } = await setup(flaky(1, 503, { 'retry-after': 'Wed, 21 Oct 2015 07:28:05 GMT' }), { now: () => now });
    await api.get('/agents');
    expect(waits).toEqual([5000]);
  });

  it('reports a Retry-After too long to wait out instead of sleeping through it', async () => {
    const { api, server, waits } = await setup(flaky(1, 429, { 'retry-after': '3600' }));
    const err = (await rejection(api.get('/agents'))) as ApiError;
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(err.message).toContain('3600s');
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up after 4 retries with the last error', async () => {
    const { api, server, waits } = await setup(flaky(100, 503));
    const err = (await rejection(api.get('/agents'))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.message).toBe('busy');
    expect(server.requests).toHaveLength(5);
    expect(waits).toHaveLength(4);
  });

  it('waits with exponential backoff and full jitter', async () => {
    for (const [r, check] of [
      [0, (w: number) => expect(w).toBe(0)],
      [0.999999, (w: number, i: number) => { expect(w).toBeLessThan(backoffCeiling(i)); expect(w).toBeGreaterThan(backoffCeiling(i) * 0.99); }],
      [0.5, (w: number, i: number) => expect(w).toBe(backoffCeiling(i) / 2)],
    ] as const) {
      const { api, waits } = await setup(flaky(100, 502), { random: () => r });
      await rejection(api.get('/agents'));
      expect(waits).toHaveLength(4);
      waits.forEach((w, i) => check(w, i));
    }
    // The ceiling doubles from attempt to attempt.
    expect([0, 1, 2, 3].map(backoffCeiling)).toEqual([500, 1000, 2000, 4000]);
  });
});

describe('no retries for writes', () => {
  it.each(['POST', 'PATCH', 'DELETE'] as const)('sends a failing %s exactly once (503)', async (method) => {
    const { api, server, waits } = await setup(flaky(100, 503));
    const call = method === 'POST' ? api.post('/campaigns/json', { name: 'c' })
      : method === 'PATCH' ? api.patch('/agents/a', { greeting: 'hi' }) : api.delete('/agents/a');
    const err = (await rejection(call)) as ApiError;
    expect(err.status).toBe(503);
    expect(server.requests.map((r) => r.method)).toEqual([method]);
    expect(waits).toEqual([]);
  });

  it.each(['POST', 'PATCH'] as const)('sends a %s exactly once when the connection drops', async (method) => {
    const { api, server } = await setup((req) => req.socket.destroy());
    const err = (await rejection(method === 'POST' ? api.post('/campaigns/x/launch') : api.patch('/agents/a', { status: 'active' }))) as ApiError;
    expect(err.kind).toBe('network');
    expect(err.message).toContain(server.host);
    expect(server.requests).toHaveLength(1);
  });
});

describe('network failures', () => {
  it('times out a request the server never answers, without retrying it', async () => {
    const { api, server } = await setup(() => { /* never answers */ }, { timeoutMs: 150 });
    const err = (await rejection(api.get('/calls'))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(`timed out: ${server.host} did not answer GET /calls within 150ms (raise --timeout if it is just slow)`);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a refused connection naming the host, after retrying the GET', async () => {
    const server = await serve(() => {});
    await server.close();
    const c = client(server.url);
    open.push(c);
    const err = (await rejection(c.api.get('/agents'))) as ApiError;
    expect(err.kind).toBe('network');
    expect(err.status).toBeUndefined();
    expect(err.message).toBe(`${server.host} refused the connection (is the service running at this address?)`);
    expect(c.waits).toHaveLength(4);
  });

  it('stops at once when the run is interrupted', async () => {
    const ac = new AbortController();
    const { api } = await setup(() => ac.abort(new Error('Interrupted')), { signal: ac.signal });
    const err = (await rejection(api.get('/agents'))) as Error;
    expect(err).not.toBeInstanceOf(ApiError);
    expect(err.message).toBe('Interrupted');
  });
});

describe('concurrency', () => {
  it('runs many requests on the run\'s signal without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const { api, server } = await setup((_req, res) => setTimeout(() => json(res, 200, {}), 20), { signal: new AbortController().signal });
      await Promise.all(Array.from({ length: 20 }, (_, i) => api.get(`/calls/c${i}`)));
      await new Promise((r) => setImmediate(r));
      expect(server.requests).toHaveLength(20);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and dates, and ignores what it cannot read', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 9000).toUTCString(), now)).toBe(9000);
    expect(parseRetryAfter(new Date(now - 9000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
