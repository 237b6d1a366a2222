/**
 * Hostile servers for the HTTP client: a node:http server on a loopback port that
 * answers however a test says, and the built CLI run against it with a throwaway config.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { baseEnv, runCli, type RunResult } from '../helpers/cli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

export const KEY = 'sk_live_hostile_0123456789abcdef';

/** For tests that read the plain-text error; under --json it is otherwise one JSON object (test/e2e/errors-json.test.ts). */
export const TEXT_ERRORS = { VOICECTL_ERROR_FORMAT: 'text' };

/**
 * Starts hostile servers for a test file, each closed after the test that started it;
 * `closeAfter` takes any other server or folder the test wants gone too.
 */
export function eachHostile(): { start(handler: Parameters<typeof hostile>[0]): Promise<Hostile>; closeAfter(x: { close(): Promise<void> }): void } {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  return {
    async start(handler) {
      const h = await hostile(handler);
      open.push(h);
      return h;
    },
    closeAfter: (x) => { open.push(x); },
  };
}

export interface Hostile {
  url: string;
  /** Request lines seen, in order ("GET /calls?limit=200&offset=0"). */
  seen: string[];
  headers: IncomingMessage['headers'][];
  config: TempDir;
  run(args: string[], env?: Record<string, string | undefined>): Promise<RunResult>;
  close(): Promise<void>;
}

export async function hostile(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Hostile> {
  const seen: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    headers.push(req.headers);
    // A client that gave up leaves the response unwritable; that is the point of these servers.
    res.on('error', () => {});
    handler(req, res);
  });
  const listening = await listenOnLoopback(server);
  const config = tempDir();
  return {
    url: listening.url,
    seen,
    headers,
    config,
    run: (args, env = {}) => runCli(args, { ...baseEnv(config.dir), VOICECTL_BASE_URL: listening.url, VOICECTL_API_KEY: KEY, ...env }),
    async close() {
      await listening.close();
      config.remove();
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export function call(i: number): Record<string, unknown> {
  return { call_id: `call_${i}`, campaign_id: 'c1', agent_name: 'Desk', phone_number: '+919876543210', status: 'completed', outcome: 'ok', duration_seconds: 30, start_time: '2026-01-01T10:00:00Z' };
}

/** `call export --out FILE` against the server: what it left, and whether the file is there after. */
export async function exportToFile(h: Hostile): Promise<RunResult & { fileLeft: boolean }> {
  const out = join(h.config.dir, 'calls.csv');
  const r = await h.run(['call', 'export', '--out', out]);
  return { ...r, fileLeft: existsSync(out) };
}
