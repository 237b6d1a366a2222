/**
 * Proxies between voicectl and the service, hand-made so a test decides what they do:
 * an HTTPS service behind a CONNECT proxy (with and without credentials, refusing the
 * tunnel), and a careless proxy that echoes the Proxy-Authorization it received, whose
 * credentials voicectl must never print.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { httpsServer, TEST_CA } from '../helpers/https.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { tempDir } from '../helpers/temp.js';
import { KEY, sendJson } from './client-harness.js';

const USER = 'ops';
const PASSWORD = 'Pr0xy-Pa55-hostile';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const LIST = { agents: [{ agent_id: 'a1', name: 'Desk' }], total: 1, limit: 50, offset: 0 };

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/**
 * A forward proxy: CONNECT opens a tunnel unless `onConnect` answers it instead (with a
 * status line and body), absolute-URI requests go to `onRequest`.
 */
async function proxy(options: {
  onConnect?: (req: IncomingMessage) => { status: string; body?: string; type?: string } | undefined;
  onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
}) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    res.on('error', () => {});
    if (options.onRequest) options.onRequest(req, res);
    else res.writeHead(405).end();
  });
  const tunnels = new Set<Socket>();
  server.on('connect', (req: IncomingMessage, client: Socket) => {
    seen.push({ method: 'CONNECT', url: req.url!, headers: req.headers });
    client.on('error', () => {});
    const answer = options.onConnect?.(req);
    if (answer) {
      const body = answer.body ?? '';
      client.end(`HTTP/1.1 ${answer.status}\r\ncontent-type: ${answer.type ?? 'text/plain'}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    tunnels.add(client).add(upstream);
  });
  const listening = await listenOnLoopback(server);
  const handle = {
    ...listening,
    seen,
    async close() {
      for (const s of tunnels) s.destroy();
      await listening.close();
    },
  };
  open.push(handle);
  return handle;
}

/** An HTTPS service (test authority) answering the agent list; it records what reached it. */
async function service() {
  const seen: Seen[] = [];
  const s = await httpsServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    sendJson(res, 200, LIST);
  });
  open.push(s);
  return { ...s, seen };
}

async function run(args: string[], env: Record<string, string>) {
  const config = tempDir();
  try {
    return await runCli(args, { ...baseEnv(config.dir), VOICECTL_API_KEY: KEY, NODE_EXTRA_CA_CERTS: TEST_CA, NO_PROXY: '', ...env });
  } finally {
    config.remove();
  }
}

const withCredentials = (proxyHost: string, password = PASSWORD) => `http://${USER}:${password}@${proxyHost}`;
const authorized = (req: IncomingMessage) => req.headers['proxy-authorization'] === `Basic ${BASIC}`;

describe('HTTPS behind a CONNECT proxy', () => {
  it('tunnels with CONNECT: the key reaches the service and never the proxy', async () => {
    const svc = await service();
    const p = await proxy({});
    const r = await run(['agent', 'list', '--json'], { VOICECTL_BASE_URL: svc.url, HTTPS_PROXY: p.url });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(LIST.agents);
    expect(p.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`CONNECT ${svc.host}`]);
    expect(p.seen[0]!.headers['x-api-key']).toBeUndefined();
    expect(p.seen[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(svc.seen.map((s) => [s.method, s.url, s.headers['x-api-key']])).toEqual([['GET', '/agents', KEY]]);
  });

  it('sends the proxy URL\'s credentials with the CONNECT only, and prints them nowhere', async () => {
    const svc = await service();
    const p = await proxy({ onConnect: (req) => (authorized(req) ? undefined : { status: '407 Proxy Authentication Required' }) });
    for (const extra of [[], ['--debug']]) {
      const r = await run(['agent', 'list', '--json', ...extra], { VOICECTL_BASE_URL: svc.url, HTTPS_PROXY: withCredentials(p.host) });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
      expect(r.stdout + r.stderr).not.toContain(BASIC);
    }
    expect(p.seen.every((s) => s.method === 'CONNECT' && s.headers['proxy-authorization'] === `Basic ${BASIC}`)).toBe(true);
    expect(svc.seen.every((s) => s.headers['proxy-authorization'] === undefined)).toBe(true);
  });

  it('without credentials, says where to put them (exit 1, no stack trace)', async () => {
    const svc = await service();
    const p = await proxy({ onConnect: (req) => (authorized(req) ? undefined : { status: '407 Proxy Authentication Required' }) });
    const r = await run(['agent', 'list'], { VOICECTL_BASE_URL: svc.url, HTTPS_PROXY: p.url });
    expect(r.exitCode).toBe(1);
    expect(p.seen.map((s) => s.method)).toEqual(['CONNECT']);
    expect(r.stderr).toContain(`user:password@${p.host}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(svc.seen).toEqual([]);
  });

  it('a proxy that refuses the tunnel is named, with its status', async () => {
    const svc = await service();
    const p = await proxy({ onConnect: () => ({ status: '403 Forbidden', body: 'CONNECT to this port is not allowed' }) });
    const r = await run(['agent', 'list'], { VOICECTL_BASE_URL: svc.url, https_proxy: p.url });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`the proxy ${p.host} (https_proxy) refused to connect to ${svc.host} (HTTP 403)`);
    expect(svc.seen).toEqual([]);
  });
});

describe('an echoing proxy', () => {
  /** What a careless proxy says back: the header as received and the credentials decoded. */
  const echo = (req: IncomingMessage) => {
    const header = String(req.headers['proxy-authorization'] ?? '');
    const decoded = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');
    return `credentials refused: Proxy-Authorization: ${header} (${decoded})`;
  };

  it.each([
    ['a JSON error', 1, (req: IncomingMessage, res: ServerResponse) => sendJson(res, 407, { error: echo(req) })],
    ['a plain-text error', 1, (req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(407, { 'content-type': 'text/plain' });
      res.end(echo(req));
    }],
    ['a policy refusal', 3, (req: IncomingMessage, res: ServerResponse) => sendJson(res, 403, { message: `blocked by policy for ${echo(req)}` })],
  ])('never gets its credentials printed for an http:// service (%s), with or without --debug', async (_name, exitCode, onRequest) => {
    const p = await proxy({ onRequest });
    for (const extra of [[], ['--debug']]) {
      const r = await run(['agent', 'list', ...extra], { VOICECTL_BASE_URL: 'http://voice.internal.example/v1', HTTP_PROXY: withCredentials(p.host), VOICECTL_TIMEOUT: '2' });
      expect(r.exitCode).toBe(exitCode);
      expect(r.stderr).not.toContain(PASSWORD);
      expect(r.stderr).not.toContain(BASIC);
      expect(r.stderr).toMatch(/credentials refused|proxy|blocked/);
    }
    expect(p.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${BASIC}`);
  });

  it('never gets its credentials printed for an https:// service, where it answers the CONNECT', async () => {
    const svc = await service();
    const p = await proxy({ onConnect: (req) => ({ status: '407 Proxy Authentication Required', body: echo(req) }) });
    for (const extra of [[], ['--debug']]) {
      const r = await run(['agent', 'list', ...extra], { VOICECTL_BASE_URL: svc.url, HTTPS_PROXY: withCredentials(p.host) });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).not.toContain(PASSWORD);
      expect(r.stderr).not.toContain(BASIC);
      expect(r.stderr).toContain(`the proxy ${p.host} (HTTPS_PROXY) refused the user name and password`);
    }
  });
});
