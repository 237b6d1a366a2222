/**
 * For the login and config tests: a tiny GET /agents on port 0 that answers by key (good,
 * no scope, anything else 401 echoing the key, as a careless server might: behaviour the
 * emulator must not have). Commands run through helpers/run.ts.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from '../helpers/loopback.js';
import { tempDir as makeTempDir, type TempDir } from '../helpers/temp.js';

export const GOOD_KEY = 'sk_test_good_7Kq9';
export const NO_SCOPE_KEY = 'sk_test_noscope_4Zx2';
export const BAD_KEY = 'sk_test_bad_0Pw1';

export function tempDir(prefix = 'voicectl-cfg-'): TempDir {
  return makeTempDir(prefix);
}

/** Resolves once `text` has appeared on stderr (a prompt was shown). */
export async function waitFor(read: () => string, text: string, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!read().includes(text)) {
    if (Date.now() > until) throw new Error(`"${text}" never appeared; stderr was:\n${read()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface AgentsServer {
  url: string;
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** GET /agents: 200 for GOOD_KEY, 403 for NO_SCOPE_KEY, 401 (echoing the key, as a careless server might) otherwise. */
export async function agentsServer(): Promise<AgentsServer> {
  const requests: AgentsServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const key = req.headers['x-api-key'];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!req.url?.startsWith('/agents')) return send(404, { error: 'Not found', status_code: 404 });
    if (key === GOOD_KEY) return send(200, { agents: [], total: 0, limit: 1, offset: 0 });
    if (key === NO_SCOPE_KEY) return send(403, { error: 'This key lacks the agents:read scope', status_code: 403 });
    return send(401, { error: `Invalid API key ${String(key)}`, status_code: 401 });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, requests, close };
}
