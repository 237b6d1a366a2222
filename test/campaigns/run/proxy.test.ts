/**
 * `campaign run` through a proxy in front of the sandbox that does what the sandbox does
 * not: refuses a launch the way a daily dispatch cap might (429), cuts a connection after
 * the service acted (no answer: the run cannot know what happened), and holds a launch so
 * that its calls run past the calling window.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localMinute } from '../../../src/hours/calling-hours.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, givenAgent } from '../../helpers/given.js';
import { run } from '../../helpers/run.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { placedCalls, simClock, writeContacts } from './sim.js';

type Action = 'forward' | 'refuse-cap' | 'drop-after' | { holdMs: number };

let sandbox: Sandbox;
let proxy: Server;
let proxyUrl: string;
let tmp: TempDir;
let agentId: string;
let decide: (method: string, path: string, n: number) => Action = () => 'forward';
const seen = new Map<string, number>();

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const key = `${req.method} ${/\/launch$/.test(req.url!) ? 'launch' : req.url}`;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  const action = decide(req.method!, req.url!, n);
  if (action === 'refuse-cap') {
    res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'daily dispatch cap reached for this key', status_code: 429 }));
    return;
  }
  if (typeof action === 'object') await new Promise((r) => setTimeout(r, action.holdMs));
  const answer = await fetch(`${sandbox.url}${req.url}`, {
    method: req.method,
    headers: { 'x-api-key': String(req.headers['x-api-key'] ?? ''), ...(chunks.length ? { 'content-type': 'application/json' } : {}) },
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  const body = await answer.text();
  if (action === 'drop-after') {
    res.socket?.destroy();
    return;
  }
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
}

async function setUp(timeScale: number): Promise<void> {
  sandbox = await startSandbox({ port: 0, timeScale, seed: 9, startAt: '2026-01-15T15:00:00Z' });
  agentId = (await givenAgent(clientFor(sandbox), { name: 'Runner' })).id;
  proxy = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeEach(() => {
  tmp = tempDir('voicectl-run-proxy-');
  seen.clear();
  decide = () => 'forward';
});
afterEach(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await sandbox.close();
  tmp.remove();
});

const env = () => ({ VOICECTL_BASE_URL: proxyUrl, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_CONFIG_DIR: join(tmp.dir, 'config'), VOICECTL_TIMEOUT: '5' });
const runThrough = (args: string[], extra: Record<string, string> = {}) => run(args, { env: { ...env(), ...extra }, ...simClock(sandbox) });
const sandboxPosts = (re: RegExp) => sandbox.requests.filter((q) => q.method === 'POST' && re.test(q.path)).length;

function list(n: number): Array<{ phone_number: string; name: string }> {
  return Array.from({ length: n }, (_, i) => ({ phone_number: `+1212555${String(3000 + i)}`, name: `NY ${i}` }));
}

function journal(): any {
  return JSON.parse(readFileSync(join(tmp.dir, 'list.run.json'), 'utf8'));
}

describe('campaign run against a service that refuses or goes quiet', () => {
  it('a launch refused like a daily dispatch cap pauses the run, the wave an undialed draft, until --resume', async () => {
    await setUp(600);
    decide = (method, path, n) => (method === 'POST' && path.endsWith('/launch') && n === 2 ? 'refuse-cap' : 'forward');
    const file = writeContacts(tmp.dir, 'list.json', list(30));
    const r = await runThrough(['campaign', 'run', '--name', 'Cap', '--agent', agentId, '--contacts', file, '--wave-size', '10', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Paused: the service refused to launch wave 2 (429: daily dispatch cap reached for this key), which looks like the key\'s daily dispatch cap. Nothing of wave 2 was dialed.');
    expect(r.stderr).toContain('Resume when the cap resets');
    const j = journal();
    expect(j.state).toBe('paused');
    expect(j.waves.map((w: { state: string }) => w.state)).toEqual(['done', 'created']);
    expect(placedCalls(sandbox)).toHaveLength(10);

    const again = await runThrough(['campaign', 'run', '--resume', join(tmp.dir, 'list.run.json'), '--yes', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).contacts).toEqual({ done: 30 });
    expect(sandboxPosts(/^\/campaigns\/json$/)).toBe(3);
    expect(sandboxPosts(/\/launch$/)).toBe(3);
    expect(placedCalls(sandbox)).toHaveLength(30);
  }, 60_000);

  it.each([
    ['create', (method: string, path: string, n: number) => (method === 'POST' && path === '/campaigns/json' && n === 2 ? 'drop-after' : 'forward') as Action],
    ['launch', (method: string, path: string, n: number) => (method === 'POST' && path.endsWith('/launch') && n === 2 ? 'drop-after' : 'forward') as Action],
  ])('a %s that got no answer does not stop the run: it waits until the request could no longer land, asks the service, and goes on', async (step, rule) => {
    await setUp(600);
    decide = rule;
    const file = writeContacts(tmp.dir, 'list.json', list(30));
    // A request deadline of 100 s: an answer lost at once leaves most of it to wait out.
    const r = await runThrough(['campaign', 'run', '--name', 'Quiet', '--agent', agentId, '--contacts', file, '--wave-size', '10', '--yes', '--json'], { VOICECTL_TIMEOUT: '100' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Wave 2: the request to ${step} "Quiet (wave 2, run`);
    expect(r.stderr).toMatch(new RegExp(`Wave 2: the answer to its ${step} \\(sent .*\\) was lost; waiting (\\d+m )?\\d+s, until it can no longer land`));
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 30 });
    // The service made it before the answer was lost: found (a create, by its name) or read (a launch), never sent twice.
    expect(sandboxPosts(/^\/campaigns\/json$/)).toBe(3);
    expect(sandboxPosts(/\/launch$/)).toBe(3);
    expect(placedCalls(sandbox).map((c) => c.phone).sort()).toEqual(list(30).map((c) => c.phone_number).sort());
  }, 60_000);

  it('reports calls still running when the calling window closes', async () => {
    // A slow clock (60x): the window is set to close eight minutes from now in New York.
    await setUp(60);
    const nowNy = localMinute('America/New_York', sandbox.world.clock.now());
    const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const window = `US=${hhmm(nowNy - 60)}-${hhmm(nowNy + 8)}`;
    // The launch is held five and a half simulated minutes: the calls start late and run past the close.
    decide = (method, path) => (method === 'POST' && path.endsWith('/launch') ? { holdMs: 5500 } : 'forward');
    const file = writeContacts(tmp.dir, 'list.json', list(12));
    const r = await runThrough(['campaign', 'run', '--name', 'Late', '--agent', agentId, '--contacts', file, '--calling-hours', window, '--deadline', '30m', '--yes'], { VOICECTL_TIMEOUT: '30' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Wave 1: \d+ calls? still running after the calling window closed in America\/New_York; the service finishes them \(the API has no cancel\)\./);
  }, 60_000);
});
