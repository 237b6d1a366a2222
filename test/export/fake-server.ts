/**
 * A small node:http stand-in for the calls endpoints, for tests that need behaviour the
 * sandbox does not have: newest-first order, pages that fail, capped page sizes,
 * other envelopes, links on another host. Calls are plain objects held in `calls`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Call } from '../../src/api/calls.js';
import { listenOnLoopback } from '../helpers/loopback.js';

export interface FakeOptions {
  /** Newest first instead of oldest first. */
  newestFirst?: boolean;
  /** The most a page may hold, whatever `limit` asks for. */
  maxLimit?: number;
  /** Leave `limit` out of the envelope. */
  hideLimit?: boolean;
  /** Leave `total` out of the envelope. */
  hideTotal?: boolean;
  /** Runs before a GET /calls page is answered; may change `calls` or answer itself (return true). */
  beforePage?: (offset: number, n: number, res: ServerResponse) => boolean | void | Promise<boolean | void>;
  /** The transcript GET /calls/{id} returns (default: one agent turn). */
  transcript?: (call: Call) => unknown[];
  /** The body of GET /calls/{id}/recording-url. */
  recordingBody?: (call: Call, fake: FakeServer) => unknown;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface FakeServer {
  url: string;
  calls: Call[];
  requests: FakeRequest[];
  close(): Promise<void>;
}

export function makeCall(i: number, over: Partial<Call> = {}): Call {
  const start = new Date(Date.UTC(2024, 4, 1, 9, 0, 0) + i * 60_000).toISOString();
  return {
    call_id: `call_${String(i).padStart(6, '0')}`,
    campaign_id: 'camp_1', agent_id: 'agent_1', agent_name: 'Priya', direction: 'outbound',
    phone_number: `+9198${String(i).padStart(8, '0')}`, status: 'completed', end_reason: 'completed',
    outcome: 'requirements_gathered', summary: `Call ${i} went fine.`, error: null, duration_seconds: 60 + (i % 30),
    start_time: start, end_time: new Date(Date.parse(start) + 60_000).toISOString(), has_recording: true,
    contact: { name: `Contact ${i}`, extra: { idx: i, city: i % 2 ? 'Pune' : 'Delhi' } },
    ...over,
  };
}

export async function fakeServer(calls: Call[], opts: FakeOptions = {}): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  let pageRequests = 0;
  const fake: FakeServer = { url: '', calls, requests, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://x');
      requests.push({ method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers });
      if (u.pathname === '/calls') {
        const offset = Number(u.searchParams.get('offset') ?? 0);
        if (await opts.beforePage?.(offset, ++pageRequests, res)) return;
        const since = u.searchParams.get('since');
        const until = u.searchParams.get('until');
        const status = u.searchParams.get('status');
        let list = fake.calls.filter((c) =>
          (!since || Date.parse(c.start_time!) >= Date.parse(since)) && (!until || Date.parse(c.start_time!) < Date.parse(until))
          && (!status || c.status === status));
        if (opts.newestFirst) list = list.slice().reverse();
        const limit = Math.min(Number(u.searchParams.get('limit') ?? 50), opts.maxLimit ?? 200);
        const body: Record<string, unknown> = { calls: list.slice(offset, offset + limit), offset };
        if (!opts.hideTotal) body.total = list.length;
        if (!opts.hideLimit) body.limit = limit;
        return send(res, 200, body);
      }
      const one = /^\/calls\/([^/]+)(\/recording-url)?$/.exec(u.pathname);
      if (one) {
        const call = fake.calls.find((c) => c.call_id === decodeURIComponent(one[1]!));
        if (!call) return send(res, 404, { error: 'no such call', status_code: 404 });
        if (!one[2]) return send(res, 200, { ...call, transcript: opts.transcript?.(call) ?? [{ role: 'agent', text: `Hello ${call.call_id}`, timestamp: call.start_time }] });
        if (!call.has_recording) return send(res, 404, { error: 'no recording', status_code: 404 });
        return send(res, 200, opts.recordingBody ? opts.recordingBody(call, fake) : { url: `${fake.url}/audio/${call.call_id}.mp3?sig=abc` });
      }
      const audio = /^\/audio\/([^/]+)$/.exec(u.pathname);
      if (audio) {
        const data = Buffer.alloc(4096, audio[1]!);
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': data.length });
        return res.end(data);
      }
      send(res, 404, { error: 'not found', status_code: 404 });
    })();
  });
  ({ url: fake.url, close: fake.close } = await listenOnLoopback(server));
  return fake;
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Calls number `from` to `from + n - 1`, oldest first. */
export const manyCalls = (n: number, from = 0): Call[] => Array.from({ length: n }, (_, i) => makeCall(from + i));

/** The environment that points voicectl at a fake server. */
export const envFor = (s: Pick<FakeServer, 'url'>, key = 'sk_test_export') => ({ VOICECTL_BASE_URL: s.url, VOICECTL_API_KEY: key });

/** A page request that fails with a 500 and `message`, when `offset` is asked for. */
export function failAt(offset: number, message: string): NonNullable<FakeOptions['beforePage']> {
  return (at, _n, res) => {
    if (at !== offset) return;
    send(res, 500, { error: message, status_code: 500 });
    return true;
  };
}

/** Aborts `ac` when the page at `offset` is asked for, and answers it a little later. */
export function abortAt(offset: number, ac: AbortController): NonNullable<FakeOptions['beforePage']> {
  return async (at) => {
    if (at !== offset) return;
    ac.abort();
    await new Promise((r) => setTimeout(r, 50));
  };
}
