/**
 * A small node:http stand-in for a service that behaves differently from the sandbox:
 * each test scripts the answers by method and path, and reads the requests it got.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach } from 'vitest';
import { listenOnLoopback } from '../../helpers/loopback.js';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Answer = { status: number; body?: unknown };
export type Handler = (req: FakeRequest, nth: number) => Answer | undefined;

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** `routes` maps "METHOD /path" (path without the query) to a handler; anything else is 404. */
export async function fakeServer(routes: Record<string, Handler>): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => { raw += c.toString(); });
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const entry: FakeRequest = { method: req.method ?? '', path, query: new URL(req.url ?? '/', 'http://x').searchParams, headers: req.headers, body: raw ? JSON.parse(raw) as unknown : undefined };
      requests.push(entry);
      const key = `${entry.method} ${path}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      const route = routes[key] ?? Object.entries(routes).find(([k]) => matches(k, key))?.[1];
      const answer = route?.(entry, n) ?? { status: 404, body: { error: 'Not found', status_code: 404 } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, requests, close };
}

/**
 * For the tests of a file (or of the describe it is called in) that each start their own
 * fake server: `start(routes)` starts it, `server` is the one the test started, and it is
 * closed after the test.
 */
export function fakeServerPerTest(): { start(routes: Record<string, Handler>): Promise<FakeServer>; readonly server: FakeServer } {
  let current: FakeServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async start(routes) {
      current = await fakeServer(routes);
      return current;
    },
    get server() {
      if (!current) throw new Error('this test has started no fake server');
      return current;
    },
  };
}

/** "GET /campaigns/:id" matches "GET /campaigns/abc". */
function matches(pattern: string, key: string): boolean {
  const p = pattern.split('/');
  const k = key.split('/');
  return p.length === k.length && p.every((seg, i) => seg.startsWith(':') || seg === k[i]);
}

export const AGENT_ID = '11111111-2222-4333-8444-555555555555';
export const agentRoute: Record<string, Handler> = {
  [`GET /agents/${AGENT_ID}`]: () => ({ status: 200, body: { id: AGENT_ID, name: 'Fake agent' } }),
};
