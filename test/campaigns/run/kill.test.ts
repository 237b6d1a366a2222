/**
 * A run killed outright (SIGKILL: no clean-up) at each kind of step, then resumed: every
 * contact is dialed exactly once, and no wave is created or launched twice, counted from
 * the sandbox's request log and call records. A proxy in front of the sandbox can hold a
 * request back, so a kill can land after the journal marked a step pending and before the
 * service heard of it; the sandbox's latency lets one land after the service acted and
 * before the answer arrived. A journal that is corrupt, of another
 * version, or of another account is refused (exit 2) before any request.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxVariant } from '../../../src/sandbox/index.js';
import { clientFor, givenAgent } from '../../helpers/given.js';
import { run } from '../../helpers/run.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { placedCalls, simClock, writeContacts } from './sim.js';

const CHILD = fileURLToPath(new URL('./child.cjs', import.meta.url));

/** 15 numbers in New York and 15 in the United Kingdom: at 15:00 UTC both windows are open. */
function twoZones(): Array<{ phone_number: string; name: string }> {
  const out = [];
  for (let i = 0; i < 15; i++) {
    out.push({ phone_number: `+1212555${String(2000 + i)}`, name: `NY ${i}` });
    out.push({ phone_number: `+4479111${String(20_000 + i)}`, name: `UK ${i}` });
  }
  return out;
}

let sandbox: Sandbox;
let tmp: TempDir;
let agentId: string;
let env: Record<string, string>;
let variant: SandboxVariant | undefined;
let proxy: Server;
/** The request the proxy in front of the sandbox keeps to itself, never forwarding it: the nth POST to a path. */
let hold: { path: RegExp; n: number } | undefined;
let holding = false;

/** Forwards every request to the sandbox, except the one `hold` names: that one never arrives. */
async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (hold && req.method === 'POST' && hold.path.test(req.url!)) {
    if (--hold.n === 0) {
      holding = true;
      return;
    }
  }
  const answer = await fetch(`${sandbox.url}${req.url}`, {
    method: req.method,
    headers: { 'x-api-key': String(req.headers['x-api-key'] ?? ''), ...(chunks.length ? { 'content-type': 'application/json' } : {}) },
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
}

beforeEach(async () => {
  // Every answer is 80 ms late, so a kill can land after a request arrived and before its answer.
  sandbox = await startSandbox({ port: 0, timeScale: 1200, seed: 3, startAt: '2026-01-15T15:00:00Z', latencyMs: 80, variant });
  hold = undefined;
  holding = false;
  proxy = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  tmp = tempDir('voicectl-run-kill-');
  const agent = await givenAgent(clientFor(sandbox), { name: 'Runner' });
  agentId = agent.id ?? agent.data.id;
  env = {
    PATH: process.env.PATH ?? '', HOME: tmp.dir, FORCE_COLOR: '0', CI: 'true', VOICECTL_CONFIG_DIR: join(tmp.dir, 'config'),
    VOICECTL_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, VOICECTL_API_KEY: sandbox.apiKey,
  };
});
afterEach(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await sandbox.close();
  tmp.remove();
});

function clockEnv(): Record<string, string> {
  const clock = sandbox.world.clock.anchors();
  return { SIM_START: String(clock.simStart), SIM_REAL_START: String(clock.realStart), SIM_SCALE: String(clock.scale) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

function journalOf(path: string): any {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const posts = (path: RegExp) => sandbox.requests.filter((q) => q.method === 'POST' && path.test(q.path)).length;

const CREATE = /^\/campaigns\/json$/;
const LAUNCH = /\/launch$/;

/** Where the kill lands: what the proxy holds back (if anything), and when the moment has come. */
const KILL_POINTS: Array<[string, { path: RegExp; n: number } | undefined, (journal: string) => boolean]> = [
  ['the journal marked wave 2\'s create pending, before the service got it', { path: CREATE, n: 2 }, (j) => holding && journalOf(j)?.waves?.[1]?.state === 'creating'],
  ['the service created wave 2, before its answer was recorded', undefined, (j) => posts(CREATE) >= 2 && journalOf(j)?.waves?.[1]?.state === 'creating'],
  ['wave 2 was created and recorded, its launch marked pending, before the service got it', { path: LAUNCH, n: 2 }, (j) => holding && journalOf(j)?.waves?.[1]?.state === 'launching'],
  ['the service launched wave 2, before its answer was recorded', undefined, (j) => posts(LAUNCH) >= 2 && journalOf(j)?.waves?.[1]?.state === 'launching'],
  ['wave 2 was launched, the run waiting for its calls', undefined, (j) => journalOf(j)?.waves?.[1]?.state === 'launched'],
];

describe.each([
  ['the sandbox', undefined],
  ['a service answering creates as {data: …} and listing campaigns as a bare array', { wrapCreated: true, listEnvelope: 'bare' as const }],
] as Array<[string, SandboxVariant | undefined]>)('a killed campaign run, resumed, against %s', (_label, v) => {
  beforeAll(() => {
    variant = v;
  });
  afterAll(() => {
    variant = undefined;
  });
  it.each(KILL_POINTS)('killed once %s: every contact dialed once, no wave created or launched twice', async (_label, held, ready) => {
    hold = held && { ...held };
    const file = writeContacts(tmp.dir, 'list.json', twoZones());
    const journal = join(tmp.dir, 'list.run.json');
    const child = execa(process.execPath, [CHILD, 'campaign', 'run', '--name', 'Kill', '--agent', agentId, '--contacts', file, '--wave-size', '10', '--yes'], {
      env: { ...env, ...clockEnv() }, extendEnv: false, reject: false,
    });
    let ended = false;
    void child.then(() => { ended = true; });
    await until(() => ready(journal) || ended, 'the kill point');
    expect(ended, `the run ended before the kill point: ${(await Promise.race([child, Promise.resolve(undefined)]))?.stderr ?? ''}`).toBe(false);
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    hold = undefined;

    const r = await run(['campaign', 'run', '--resume', journal, '--yes', '--json'], { env, ...simClock(sandbox) });
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.state).toBe('finished');
    const calls = placedCalls(sandbox);
    expect(calls.map((c) => c.phone).sort()).toEqual(twoZones().map((c) => c.phone_number).sort());
    const launchedWaves = summary.waves.filter((x: { state: string }) => x.state === 'done');
    expect(launchedWaves).toHaveLength(3);
    expect(posts(CREATE), 'campaigns created').toBe(summary.waves.length);
    expect(posts(LAUNCH), 'launches').toBe(3);
    expect(new Set(calls.map((c) => c.campaign)).size).toBe(3);
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp')), 'temporary journal files left').toEqual([]);
  }, 60_000);
});

describe('a journal that cannot be resumed', () => {
  async function refused(content: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; stderr: string; requests: number }> {
    const path = join(tmp.dir, 'bad.run.json');
    writeFileSync(path, content);
    const before = sandbox.requests.length;
    const r = await run(['campaign', 'run', '--resume', path, '--yes'], { env: { ...env, ...extraEnv }, ...simClock(sandbox) });
    return { code: r.exitCode, stderr: r.stderr, requests: sandbox.requests.length - before };
  }

  async function realJournal(): Promise<string> {
    const file = writeContacts(tmp.dir, 'one.json', [{ phone_number: '+12125552000', name: 'One' }]);
    const r = await run(['campaign', 'run', '--name', 'One', '--agent', agentId, '--contacts', file, '--yes'], { env, ...simClock(sandbox) });
    expect(r.exitCode, r.stderr).toBe(0);
    return readFileSync(join(tmp.dir, 'one.run.json'), 'utf8');
  }

  it('is refused, exit 2, before any request, when it is not JSON', async () => {
    const r = await refused('{"format": "voicectl-campaign-run", "vers');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot be used as a campaign-run journal: it is not valid JSON');
    expect(r.requests).toBe(0);
  });

  it('is refused when it is of another version, or malformed', async () => {
    const j = JSON.parse(await realJournal());
    const newer = await refused(JSON.stringify({ ...j, version: 3 }));
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain('of version 3; this voicectl reads versions 1 and 2');
    expect(newer.requests).toBe(0);
    const broken = await refused(JSON.stringify({ ...j, waves: [{ n: 1, state: 'launched', contacts: [5] }] }));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('wave 1 is malformed');
    expect(broken.requests).toBe(0);
    const night = await refused(JSON.stringify({ ...j, state: 'paused', policy: { ...j.policy, windows: { default: '21:00-09:00' } } }));
    expect(night.code).toBe(2);
    expect(night.stderr).toContain('its window for every contact ("21:00-09:00") is not HH:MM-HH:MM with the start before the end');
    expect(night.stderr).not.toContain('Cannot read properties');
    expect(night.requests).toBe(0);
  }, 30_000);

  it('is refused when it belongs to another account or service', async () => {
    const text = await realJournal();
    const otherKey = await refused(text, { VOICECTL_API_KEY: 'sk_sandbox_someone_else' });
    expect(otherKey.code).toBe(2);
    expect(otherKey.stderr).toContain('belongs to a run made with another API key');
    expect(otherKey.requests).toBe(0);
    const otherService = await refused(text, { VOICECTL_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(otherService.code).toBe(2);
    expect(otherService.stderr).toContain(`belongs to a run against ${env.VOICECTL_BASE_URL}, not http://127.0.0.1:9/v1`);
    expect(otherService.requests).toBe(0);
  }, 30_000);

  it('opening a journal removes the temporary file a killed run left beside it', async () => {
    await realJournal();
    const stale = `.one.run.json.4194301.${createHash('sha256').update(hostname()).digest('hex').slice(0, 4)}beef.tmp`;
    writeFileSync(join(tmp.dir, stale), '{"half": ');
    const r = await run(['campaign', 'run', 'status', join(tmp.dir, 'one.run.json'), '--json'], { env, ...simClock(sandbox) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).state).toBe('finished');
    expect(existsSync(join(tmp.dir, stale))).toBe(false);
  }, 30_000);

  it('a second run on the same list is told to resume, not started', async () => {
    await realJournal();
    const file = join(tmp.dir, 'one.json');
    expect(existsSync(join(tmp.dir, 'one.run.json'))).toBe(true);
    const before = sandbox.requests.length;
    const r = await run(['campaign', 'run', '--name', 'One', '--agent', agentId, '--contacts', file, '--yes'], { env, ...simClock(sandbox) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('A run journal already exists');
    expect(sandbox.requests.length).toBe(before);
  }, 30_000);

  it('a wave set to "abandoned" by hand gives its contacts back to a new wave', async () => {
    const j = JSON.parse(await realJournal());
    j.state = 'paused';
    j.waves[0].state = 'abandoned';
    j.contacts[0].state = 'in_wave';
    j.contacts[0].attempts = 0;
    const path = join(tmp.dir, 'edited.run.json');
    writeFileSync(path, JSON.stringify(j));
    const r = await run(['campaign', 'run', '--resume', path, '--yes', '--json'], { env, ...simClock(sandbox) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 1 });
    expect(placedCalls(sandbox).filter((c) => c.phone === '+12125552000')).toHaveLength(2);
  }, 30_000);
});

describe('a run killed after its create was sent, against a service that does not list campaigns', () => {
  beforeAll(() => {
    variant = { noCampaignList: true };
  });
  afterAll(() => {
    variant = undefined;
  });

  it('killed between the create and its answer, resumed at once: waits until the create could no longer land, names the possible orphan draft, and dials every contact exactly once', async () => {
    const file = writeContacts(tmp.dir, 'list.json', twoZones());
    const journal = join(tmp.dir, 'list.run.json');
    // A request deadline of an hour: the resume waits two minutes, the shorter.
    const slow = { ...env, VOICECTL_TIMEOUT: '3600' };
    // The resume's code loaded first, so that it follows the kill at once on the fast clock.
    await run(['campaign', 'run', '--resume', join(tmp.dir, 'none.run.json'), '--yes'], { env });
    const child = execa(process.execPath, [CHILD, 'campaign', 'run', '--name', 'Unlisted', '--agent', agentId, '--contacts', file, '--wave-size', '10', '--yes'], {
      env: { ...slow, ...clockEnv() }, extendEnv: false, reject: false,
    });
    await until(() => posts(CREATE) >= 2 && journalOf(journal)?.waves?.[1]?.state === 'creating', 'the second create');
    child.kill('SIGKILL');
    await child;
    const pending = journalOf(journal).waves[1];
    expect(pending.sent_at, 'the pending create is stamped').toBeTypeOf('string');
    const r = await run(['campaign', 'run', '--resume', journal, '--yes', '--json'], { env: slow, ...simClock(sandbox) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Wave 2: the answer to its create \(sent .*\) was lost; waiting 2m 00s, until it can no longer land, before asking the service\./);
    const orphanName = `Unlisted (wave 2, run ${journalOf(journal).run_id})`;
    expect(r.stderr).toContain(`"${orphanName}" may exist as a draft; never launch it.`);
    const summary = JSON.parse(r.stdout);
    expect(summary.orphans).toEqual([{ wave: 2, name: orphanName, note: `"${orphanName}" may exist as a draft; never launch it.` }]);
    expect(summary.contacts).toEqual({ done: 30 });
    const calls = placedCalls(sandbox);
    expect(calls.map((c) => c.phone).sort()).toEqual(twoZones().map((c) => c.phone_number).sort());
    // The orphan is a draft on the service, never launched; the run's other waves each launched once.
    const j = journalOf(journal);
    expect(j.waves[1]).toMatchObject({ state: 'abandoned', orphan: true });
    // Nothing was sent for the wave's contacts before two minutes had passed (shorter than the request's deadline).
    expect(Date.parse(j.waves[2].sent_at) - Date.parse(pending.sent_at)).toBeGreaterThanOrEqual(120_000);
    expect(posts(LAUNCH)).toBe(j.waves.filter((x: { state: string }) => x.state === 'done').length);
    const status = await run(['campaign', 'run', 'status', journal], { env, ...simClock(sandbox) });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Wave 2: "${orphanName}" may exist as a draft; never launch it.`);
    // Contacts by state, by last outcome, and by attempts.
    expect(status.stdout).toContain('Contacts: 30 done');
    expect(status.stdout).toMatch(/^Last outcome: \d+ \w+/m);
    expect(status.stdout).toContain('Attempts: 30 dialed once');
  }, 60_000);
});
