/**
 * Local node:http servers on port 0 and clients wired to them, with the sleeps recorded
 * instead of waited.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';
import { makeDispatcher } from '../../src/api/dispatcher.js';
import { listenOnLoopback } from '../helpers/loopback.js';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string, n: number) => void;

export interface TestServer {
  url: string;
  host: string;
  requests: Seen[];
  close(): Promise<void>;
}

export async function serve(handler: Handler): Promise<TestServer> {
  const requests: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body, requests.length);
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export interface TestClient {
  api: ApiClient;
  waits: number[];
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

/** A client whose sleeps are recorded, not waited; close it after the test. */
export function client(
  baseUrl: string,
  options: Partial<ClientOptions> & { env?: Record<string, string | undefined> } = {},
): TestClient {
  const waits: number[] = [];
  const { env = {}, ...rest } = options;
  const timeoutMs = rest.timeoutMs ?? 5_000;
  const dispatcher = rest.dispatcher ?? makeDispatcher(env, timeoutMs);
  const api = new ApiClient({
    baseUrl,
    apiKey: 'sk_test_1234',
    timeoutMs,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...rest,
    dispatcher,
  });
  return { api, waits, dispatcher, close: () => dispatcher.close() };
}

/** The rejection of a promise, failing the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the request to fail, but it succeeded');
}
