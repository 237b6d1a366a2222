/**
 * Helpers for the receiver tests: signed posts over loopback, a stand-in for the user's
 * app, and `voicectl listen` run in process (fake streams, Ctrl-C by AbortController).
 */
import http from 'node:http';
import { afterEach, beforeEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Env } from '../../src/context.js';
import { start, type RunOptions } from '../helpers/run.js';
import { sign } from '../../src/webhooks/signature.js';
import { tempDir as makeTempDir, type TempDir } from '../helpers/temp.js';

export const SECRET = 'whsec_test_receiver_0123456789';

export interface Reply {
  status: number;
  body: string;
  json: Record<string, unknown>;
}

/** POSTs exactly these bytes; keep-alive off so every request is independent. */
export function post(port: number, body: string | Buffer, headers: Record<string, string> = {}, path = '/'): Promise<Reply> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // not every answer is JSON
        }
        resolve({ status: res.statusCode ?? 0, body: text, json });
      });
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

let counter = 0;

export function event(type = 'call.ended', extra: Record<string, unknown> = {}): { id: string; body: string } {
  const id = `evt_test_${process.pid}_${++counter}`;
  const data = type.startsWith('call.')
    ? { call_id: `call_${counter}`, campaign_id: 'c1', status: 'completed', outcome: 'requirements_gathered', summary: 'Asked for the brochure. नमस्ते', contact: { name: 'Asha', extra: { lead: counter } } }
    : { message: 'hi' };
  return { id, body: JSON.stringify({ id, type, created_at: new Date().toISOString(), data: { ...data, ...extra } }) };
}

export function signedHeaders(id: string, type: string, body: string | Buffer, opts: { secret?: string; t?: number } = {}): Record<string, string> {
  return {
    'Service-Event-Id': id,
    'Service-Event-Type': type,
    'Service-Signature': sign(opts.secret ?? SECRET, body, opts.t ?? Math.floor(Date.now() / 1000)),
  };
}

export function sendEvent(port: number, type = 'call.ended', opts: { secret?: string } = {}): Promise<Reply & { id: string; sent: string }> {
  const e = event(type);
  return post(port, e.body, signedHeaders(e.id, type, e.body, opts)).then((r) => ({ ...r, id: e.id, sent: e.body }));
}

export interface AppRequest {
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** The user's app: records what it receives; `hold` keeps requests waiting until released. */
export async function startApp(opts: { status?: number; hold?: boolean; host?: string } = {}) {
  const received: AppRequest[] = [];
  const held: http.ServerResponse[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      waiters.splice(0).forEach((w) => w());
      if (opts.hold) held.push(res);
      else res.writeHead(opts.status ?? 200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, opts.host ?? '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    /** Resolves once `n` requests have arrived. */
    async waitFor(n: number): Promise<void> {
      while (received.length < n) await new Promise<void>((r) => waiters.push(r));
    },
    release(): void {
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
    },
    async close(): Promise<void> {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export function tempDir(): TempDir {
  return makeTempDir('voicectl-listen-');
}

/** `voicectl listen` running in process, on the port it printed; `interrupt` is Ctrl-C. */
export type Running = ReturnType<typeof start> & { port: number };

/** How the receiver tests run a command: stdin open and empty, as at a shell, and real sleeps. */
export const LISTEN: RunOptions = { openStdin: true, realTime: true };

/** `voicectl listen --port 0 …` in process, resolved once it is ready. */
export async function startListen(args: string[], env: Env = {}, options: RunOptions = {}): Promise<Running> {
  const r = start(['listen', '--port', '0', ...args], { ...LISTEN, env, ...options });
  await r.waitForOutput(/Listening for webhook events on http:\/\/[^:]+:\d+\//, 'stderr');
  const port = Number(/Listening for webhook events on http:\/\/[^/]+:(\d+)\//.exec(r.stderr())![1]);
  return { ...r, port };
}

/** What each listen test starts from: a fresh config folder; what it started is stopped after it. */
export interface ListenTest {
  tmp: TempDir;
  env: Record<string, string>;
  /** The listen the test started, interrupted after it. */
  running?: Running;
  /** A stand-in for the user's app, closed after the test. */
  app(opts?: Parameters<typeof startApp>[0]): ReturnType<typeof startApp>;
  /** Another server of the test's, closed after it. */
  closeAfter(server: { close(): Promise<void> }): void;
}

export function eachListenTest(): ListenTest {
  let apps: Array<{ close(): Promise<void> }> = [];
  const t = {
    app: async (opts: Parameters<typeof startApp>[0] = {}) => {
      const a = await startApp(opts);
      apps.push(a);
      return a;
    },
    closeAfter: (server: { close(): Promise<void> }) => { apps.push(server); },
  } as ListenTest;
  beforeEach(() => {
    t.tmp = tempDir();
    t.env = { VOICECTL_CONFIG_DIR: t.tmp.dir };
    t.running = undefined;
    apps = [];
  });
  afterEach(async () => {
    await t.running?.interrupt();
    for (const a of apps) await a.close();
    t.tmp.remove();
  });
  return t;
}
