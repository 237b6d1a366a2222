/**
 * `watch ID --serve [PORT]`: the report page, live, for a manager who is not at the
 * terminal. A server on 127.0.0.1 only, every page under an unguessable token
 * (`http://127.0.0.1:PORT/TOKEN/`); anything else, the bare address included, is 404.
 * The page listens to server-sent events (`TOKEN/events`): each poll that finds the
 * campaign changed (a call finished, the status moved) sends the new report, which the
 * page puts in place of the old one.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiClient } from '../api/client.js';
import { collectReport } from './collect.js';
import { htmlReport, livePagePolicy, reportBody } from './html.js';
import type { CampaignReport } from './stats.js';

export interface LiveServer {
  url: string;
  close(): Promise<void>;
}

export interface LiveOptions {
  port: number;
  zone: string;
  intervalMs: number;
  now: () => Date;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** A poll that failed (the service down a moment): the page keeps the last report. */
  onError?: (err: unknown) => void;
}

/** Starts the server, reads the campaign once (so a bad id fails here), then polls until `signal` aborts. */
export async function serveLive(api: ApiClient, id: string, o: LiveOptions): Promise<LiveServer & { done: Promise<void> }> {
  const token = randomBytes(24).toString('base64url');
  const read = async (): Promise<CampaignReport> => {
    const { report, hours } = await collectReport(api, id, { transcripts: false, signal: o.signal });
    return { ...report, ...hours(o.zone) };
  };
  let report = await read();
  let page = htmlReport([report], o.now(), o.zone, { live: true });
  let policy = livePagePolicy([report]);
  const clients = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const notFound = () => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found\n');
    };
    // The Host a browser sends for this address: anything else is another site's name for it (DNS rebinding).
    const { port } = server.address() as AddressInfo;
    if (req.method !== 'GET' || (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`)) return notFound();
    if (path === `/${token}/`) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': policy, 'x-content-type-options': 'nosniff' });
      res.end(page);
      return;
    }
    if (path === `/${token}/events`) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    notFound();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const push = (r: CampaignReport) => {
    const data = JSON.stringify({ html: reportBody([r], o.now(), o.zone) });
    for (const c of clients) c.write(`data: ${data}\n\n`);
  };
  const key = (r: CampaignReport) => `${r.status}|${r.calls}|${r.finished_calls}|${r.contacts}`;
  const done = (async () => {
    while (!o.signal?.aborted) {
      try {
        await o.sleep(o.intervalMs, o.signal);
      } catch {
        break;
      }
      try {
        const next = await read();
        if (key(next) !== key(report)) {
          report = next;
          page = htmlReport([report], o.now(), o.zone, { live: true });
          policy = livePagePolicy([report]);
          push(report);
        }
      } catch (err) {
        if (o.signal?.aborted) break;
        o.onError?.(err);
      }
    }
  })();

  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    done,
    close: async () => {
      for (const c of clients) c.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
