import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDispatcher, proxyFor } from '../../src/api/dispatcher.js';
import { UsageError } from '../../src/errors.js';
import { client, json, serve, type TestClient, type TestServer } from './helpers.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/**
 * A tiny forward proxy: it takes absolute-URI requests (GET http://host/path), forwards
 * them and marks the answer, so a test can tell a proxied request from a direct one.
 */
async function forwardProxy() {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { ...up.headers, 'x-via-test-proxy': '1' });
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  // Tunnels are not what this proxy is for: refusing them shows the client did not ask for one.
  server.on('connect', (_req, socket) => socket.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n'));
  const { url, close } = await listenOnLoopback(server);
  return { url, seen, close };
}

const open: Array<TestServer | TestClient | { close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function setup(env: (proxyUrl: string) => Record<string, string>) {
  const target = await serve((req, res) => json(res, 200, { path: req.url, key: req.headers['x-api-key'] ?? null }));
  const proxy = await forwardProxy();
  const c = client(`${target.url}/v1`, { env: env(proxy.url) });
  open.push(c, target, proxy);
  return { target, proxy, api: c.api };
}

describe('proxy from the environment', () => {
  it('sends an http:// request through HTTP_PROXY as an absolute-URI request', async () => {
    const { target, proxy, api } = await setup((p) => ({ HTTP_PROXY: p }));
    expect(await api.get('/agents', { query: { limit: 1 } })).toEqual({ path: '/v1/agents?limit=1', key: 'sk_test_1234' });
    expect(proxy.seen).toEqual([`GET ${target.url}/v1/agents?limit=1`]);
    expect(target.requests[0]!.headers['x-via-test-proxy']).toBeUndefined();
    expect(target.requests).toHaveLength(1);
  });

  it('reads the lower-case http_proxy too', async () => {
    const { proxy, api } = await setup((p) => ({ http_proxy: p }));
    await api.post('/agents', { name: 'A' });
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/v1\/agents$/);
  });

  it.each(['127.0.0.1', 'localhost,127.0.0.1', '*'])('bypasses the proxy for hosts in NO_PROXY=%s', async (noProxy) => {
    const { target, proxy, api } = await setup((p) => ({ HTTP_PROXY: p, NO_PROXY: noProxy }));
    expect(await api.get('/agents')).toEqual({ path: '/v1/agents', key: 'sk_test_1234' });
    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });

  it('still proxies when NO_PROXY names other hosts', async () => {
    const { proxy, api } = await setup((p) => ({ HTTP_PROXY: p, NO_PROXY: 'internal.example.com,.corp' }));
    await api.get('/agents');
    expect(proxy.seen).toHaveLength(1);
  });

  it('does not use HTTPS_PROXY for an http:// target', async () => {
    const { proxy, target, api } = await setup((p) => ({ HTTPS_PROXY: p }));
    await api.get('/agents');
    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });

  it('goes direct when no proxy is set', async () => {
    const { proxy, target, api } = await setup(() => ({}));
    await api.get('/agents');
    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });
});

describe('a proxy variable that is not a proxy URL', () => {
  it.each([
    ['HTTP_PROXY', 'http://[bad'],
    ['https_proxy', '::::'],
    ['HTTPS_PROXY', 'ftp://proxy.example.com:21'],
    ['http_proxy', 'http://'],
  ])('%s=%s is a usage error (exit 2) that names the variable', (variable, value) => {
    let caught: unknown;
    try {
      makeDispatcher({ [variable]: value }, 1000);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toMatch(new RegExp(`^${variable} .*is not a proxy address`));
  });

  it('never shows a malformed value that may hold a password', () => {
    expect(() => makeDispatcher({ HTTPS_PROXY: 'http://ops:s3cret pw@[proxy' }, 1000)).toThrow(/^HTTPS_PROXY is not a proxy address/);
  });

  it('reads a value without a scheme as http://, as curl does', async () => {
    const d = makeDispatcher({ HTTPS_PROXY: 'proxy.example.com:3128' }, 1000);
    await d.close();
    expect(proxyFor({ HTTPS_PROXY: 'ops:pw@proxy.example.com:3128' }, 'https://api.example.com/v1')).toEqual({ where: 'proxy.example.com:3128', variable: 'HTTPS_PROXY', credentials: true });
  });
});
