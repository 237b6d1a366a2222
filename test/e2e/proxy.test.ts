/**
 * voicectl behind a corporate proxy: a real HTTP proxy server (the `proxy` package) on
 * loopback between bin/voicectl.js and the sandbox, configured the way users configure
 * it, through HTTP_PROXY / HTTPS_PROXY / NO_PROXY.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy } from 'proxy';
import { harness, type Harness } from '../helpers/cli.js';
import { httpsFront, TEST_CA, type HttpsListening } from '../helpers/https.js';
import { listenOnLoopback } from '../helpers/loopback.js';

interface RealProxy {
  url: string;
  port: number;
  /** Requests the proxy received, as "METHOD url". */
  seen: string[];
  /** The Proxy-Authorization header of each CONNECT, in order (undefined when absent). */
  connectAuth: Array<string | undefined>;
  close(): Promise<void>;
}

async function startProxy(authenticate?: (req: IncomingMessage) => boolean): Promise<RealProxy> {
  const server = createProxy(createServer());
  if (authenticate) server.authenticate = authenticate;
  const seen: string[] = [];
  const connectAuth: Array<string | undefined> = [];
  server.prependListener('request', (req: IncomingMessage) => seen.push(`${req.method} ${req.url}`));
  server.prependListener('connect', (req: IncomingMessage) => {
    seen.push(`CONNECT ${req.url}`);
    const auth = req.headers['proxy-authorization'];
    connectAuth.push(typeof auth === 'string' ? auth : undefined);
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, port: Number(new URL(url).port), seen, connectAuth, close };
}

function basicAuth(req: IncomingMessage): { user: string; password: string } | undefined {
  const header = req.headers['proxy-authorization'];
  const m = typeof header === 'string' ? /^Basic (.+)$/i.exec(header) : null;
  if (!m) return undefined;
  const [user, ...rest] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
  return { user, password: rest.join(':') };
}

let h: Harness;
let open: RealProxy;
let guarded: RealProxy;
const PASSWORD = 'pr0xy-s3cret-pw';

beforeAll(async () => {
  h = await harness();
  open = await startProxy();
  guarded = await startProxy((req) => {
    const auth = basicAuth(req);
    return auth?.user === 'ops' && auth.password === PASSWORD;
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), open?.close(), guarded?.close()]);
});

const proxyEnv = (proxyUrl: string, extra: Record<string, string> = {}) => ({
  HTTP_PROXY: proxyUrl,
  HTTPS_PROXY: proxyUrl,
  NO_PROXY: '',
  ...extra,
});

/** agent list with this environment: it succeeds, the open proxy saw exactly `seen`, and the service one request. */
async function listsAgentsThrough(env: Record<string, string>, seen: string): Promise<void> {
  open.seen.length = 0;
  const before = h.sandbox.requests.length;
  const r = await h.run(['agent', 'list', '--json'], { env });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
  expect(open.seen).toEqual([seen]);
  expect(h.sandbox.requests.length).toBe(before + 1);
}

describe('voicectl behind an HTTP proxy', () => {
  it('sends its requests through the proxy named in HTTP_PROXY / HTTPS_PROXY', async () => {
    await listsAgentsThrough(proxyEnv(open.url), `GET ${h.sandbox.url}/agents`);
  });

  it('lower-case http_proxy works too, as curl reads it', async () => {
    open.seen.length = 0;
    const r = await h.run(['agent', 'list', '--json'], { env: { http_proxy: open.url } });
    expect(r.exitCode).toBe(0);
    expect(open.seen.length).toBe(1);
  });

  it('goes straight to hosts in NO_PROXY', async () => {
    open.seen.length = 0;
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${new URL(h.sandbox.url).port}`, '*']) {
      const r = await h.run(['agent', 'list', '--json'], { env: proxyEnv(open.url, { NO_PROXY: noProxy }) });
      expect(r.exitCode, noProxy).toBe(0);
    }
    expect(open.seen).toEqual([]);
  });

  it('authenticates with credentials in the proxy URL, and never prints them', async () => {
    guarded.seen.length = 0;
    const proxyUrl = `http://ops:${PASSWORD}@127.0.0.1:${guarded.port}`;
    const r = await h.run(['agent', 'list', '--json', '--debug'], { env: proxyEnv(proxyUrl) });
    expect(r.exitCode).toBe(0);
    expect(guarded.seen.length).toBe(1);
    expect(r.stderr).toContain('GET ');
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stdout).not.toContain(PASSWORD);
  });

  it('says the proxy refused the credentials, naming the proxy and not the password', async () => {
    const proxyUrl = `http://ops:wrong-${PASSWORD}@127.0.0.1:${guarded.port}`;
    const debug = await h.run(['agent', 'list', '--debug'], { env: proxyEnv(proxyUrl) });
    expect(debug.exitCode).toBe(1);
    expect(debug.stderr).not.toContain(PASSWORD);
    const r = await h.run(['agent', 'list'], { env: proxyEnv(proxyUrl) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/proxy/i);
    expect(r.stderr).toContain(`127.0.0.1:${guarded.port}`);
    expect(r.stderr).toMatch(/407|credentials/);
    expect(r.stderr).not.toContain(PASSWORD);
    // Without credentials the proxy asks for them, and the message says where they go.
    const none = await h.run(['agent', 'list'], { env: proxyEnv(`http://127.0.0.1:${guarded.port}`) });
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain(`user:password@127.0.0.1:${guarded.port}`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('says the proxy could not be reached, naming the proxy', async () => {
    const closed = await startProxy();
    await closed.close();
    const r = await h.run(['agent', 'list'], { env: proxyEnv(`http://ops:${PASSWORD}@127.0.0.1:${closed.port}`) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`proxy 127.0.0.1:${closed.port}`);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('does not let a proxy answer pass for the service when the proxy cannot reach it', async () => {
    // The proxy is up, the service address is not: the proxy answers 502 itself.
    const nowhere = await listenOnLoopback(createServer());
    const base = nowhere.url;
    await nowhere.close();
    const r = await h.run(['agent', 'list'], { env: { ...proxyEnv(open.url), VOICECTL_BASE_URL: base } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/proxy/i);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a malformed proxy variable', () => {
  it.each(['HTTP_PROXY', 'https_proxy'])('%s is exit 2 and named, before any request', async (variable) => {
    const before = h.sandbox.requests.length;
    const r = await h.run(['agent', 'list'], { env: { [variable]: `http://ops:${PASSWORD}@[proxy` } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${variable} is not a proxy address`);
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.stderr).not.toContain(PASSWORD);
    expect(h.sandbox.requests.length).toBe(before);
  });
});

describe('an https:// service behind the proxy', () => {
  // The sandbox speaks http; an HTTPS front with a test authority's certificate stands
  // where a real service would, and voicectl trusts the authority as users trust a
  // corporate one, through NODE_EXTRA_CA_CERTS.
  let front: HttpsListening;
  beforeAll(async () => {
    front = await httpsFront(h.sandbox.url);
  });
  afterAll(async () => {
    await front?.close();
  });
  const httpsEnv = (proxyUrl: string): Record<string, string> => proxyEnv(proxyUrl, {
    VOICECTL_BASE_URL: `${front.url}${new URL(h.sandbox.url).pathname}`,
    NODE_EXTRA_CA_CERTS: TEST_CA,
  });

  it('opens a CONNECT tunnel through HTTPS_PROXY and reads the service through it', async () => {
    await listsAgentsThrough(httpsEnv(open.url), `CONNECT ${front.host}`);
  });

  it('sends the credentials in the proxy URL with the CONNECT, and never prints them', async () => {
    guarded.seen.length = 0;
    guarded.connectAuth.length = 0;
    const r = await h.run(['agent', 'list', '--json', '--debug'], { env: httpsEnv(`http://ops:${PASSWORD}@127.0.0.1:${guarded.port}`) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(guarded.seen).toEqual([`CONNECT ${front.host}`]);
    expect(guarded.connectAuth).toEqual([`Basic ${Buffer.from(`ops:${PASSWORD}`).toString('base64')}`]);
    expect(r.stderr).toContain('GET https://');
    expect(r.stderr + r.stdout).not.toContain(PASSWORD);
  });

  it('says the proxy refused the tunnel\'s credentials, naming the proxy and not the password', async () => {
    guarded.seen.length = 0;
    const r = await h.run(['agent', 'list'], { env: httpsEnv(`http://ops:wrong-${PASSWORD}@127.0.0.1:${guarded.port}`) });
    expect(r.exitCode).toBe(1);
    expect(guarded.seen).toEqual([`CONNECT ${front.host}`]);
    expect(r.stderr).toContain(`the proxy 127.0.0.1:${guarded.port}`);
    expect(r.stderr).toMatch(/407/);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('names an untrusted certificate at the far end of the tunnel', async () => {
    const { NODE_EXTRA_CA_CERTS: _, ...untrusted } = httpsEnv(open.url);
    const r = await h.run(['agent', 'list'], { env: untrusted });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(front.host);
    expect(r.stderr).toMatch(/certificate/);
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
  });
});
