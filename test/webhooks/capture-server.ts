/** A real HTTP receiver on 127.0.0.1:0 that records every request with its raw body bytes. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from '../helpers/loopback.js';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: any;
}

/** What to answer the n-th request (0-based): a status, a status with headers, or null to never answer. */
export type Responder = (req: Received, n: number) => number | { status: number; headers?: Record<string, string> } | null;

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests match, or rejects after `timeoutMs`. */
  waitFor(count: number, match?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      const r: Received = { method: req.method!, path: req.url!, headers: req.headers, raw, json };
      const n = received.length;
      received.push(r);
      const answer = respond(r, n);
      if (answer === null) return;
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end('ok');
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    received,
    async waitFor(count, match = () => true, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hits = received.filter(match);
        if (hits.length >= count) return hits;
        if (Date.now() > deadline) throw new Error(`receiver got ${hits.length} of ${count} expected requests`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close,
  };
}
