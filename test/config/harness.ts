/**
 * Runs voicectl in process with fake streams and a temp config dir, and serves a tiny
 * GET /agents on port 0 that answers by key (good, no scope, anything else 401).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { PassThrough } from 'node:stream';
import { Context, type Env } from '../../src/context.js';
import { run } from '../../src/main.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { tempDir as makeTempDir, type TempDir } from '../helpers/temp.js';

export const GOOD_KEY = 'sk_test_good_7Kq9';
export const NO_SCOPE_KEY = 'sk_test_noscope_4Zx2';
export const BAD_KEY = 'sk_test_bad_0Pw1';

export function tempDir(prefix = 'voicectl-cfg-'): TempDir {
  return makeTempDir(prefix);
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Env;
  stdin?: string;
  /** Pretend a person is at a terminal (stdin and stdout are TTYs). */
  tty?: boolean;
  /** Called once the command is running, to answer prompts by writing to stdin. */
  answer?: (io: { stdin: PassThrough; stderr: () => string }) => Promise<void>;
}

/** One run of the CLI in process; sleeps are instant so retries cost nothing. */
export async function runCli(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  const stdout = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => { out += c.toString(); });
  stderr.on('data', (c: Buffer) => { err += c.toString(); });
  // Like process.stderr, which pipe() never ends: inquirer ends its output after each
  // prompt, and a second prompt must still be able to write.
  stderr.end = ((..._args: unknown[]) => stderr) as typeof stderr.end;
  if (options.tty) {
    stdin.isTTY = true;
    stdout.isTTY = true;
    stdout.columns = 100;
  }
  if (options.stdin !== undefined) stdin.end(options.stdin);
  else if (!options.answer) stdin.end();
  const ctx = new Context({
    io: { stdin, stdout, stderr },
    env: { FORCE_COLOR: '0', ...options.env },
    sleep: async () => {},
  });
  const running = run(argv, ctx);
  if (options.answer) await options.answer({ stdin, stderr: () => err });
  const code = await running;
  return { code, stdout: out, stderr: err };
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
