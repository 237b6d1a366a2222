/**
 * A run killed outright (SIGKILL: no clean-up) at each kind of step, then resumed: every
 * contact is dialed exactly once, and no wave is created or launched twice, counted from
 * the sandbox's request log and call records. A journal that is corrupt, of another
 * version, or of another account is refused (exit 2) before any request.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, givenAgent } from '../../helpers/given.js';
import { runInProcess } from '../../helpers/run.js';
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

beforeEach(async () => {
  // Every answer is 150 ms late, so a kill can land after a request arrived and before its answer.
  sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 3, startAt: '2026-01-15T15:00:00Z', latencyMs: 150 });
  tmp = tempDir('voicectl-run-kill-');
  agentId = (await givenAgent(clientFor(sandbox), { name: 'Runner' })).id;
  env = { PATH: process.env.PATH ?? '', HOME: tmp.dir, FORCE_COLOR: '0', CI: 'true', VOICECTL_CONFIG_DIR: join(tmp.dir, 'config'), VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey };
});
afterEach(async () => {
  await sandbox.close();
  tmp.remove();
});

function clockEnv(): Record<string, string> {
  const clock = sandbox.world.clock as unknown as { simStart: number; realStart: number; scale: number };
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

const KILL_POINTS: Array<[string, (journal: string) => boolean]> = [
  ['the journal marked wave 2 pending, its create sent', (j) => posts(/^\/campaigns\/json$/) >= 2 && journalOf(j)?.waves?.[1]?.state === 'creating'],
  ['wave 2 was created and recorded', (j) => journalOf(j)?.waves?.[1]?.state === 'created'],
  ['wave 2\'s launch was sent, its answer not recorded', (j) => posts(/\/launch$/) >= 2 && journalOf(j)?.waves?.[1]?.state === 'launching'],
  ['wave 2 was launched, the run waiting for its calls', (j) => journalOf(j)?.waves?.[1]?.state === 'launched'],
];

describe('a killed campaign run, resumed', () => {
  it.each(KILL_POINTS)('after %s: every contact dialed once, no wave created or launched twice', async (_label, ready) => {
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

    const r = await runInProcess(['campaign', 'run', '--resume', journal, '--yes', '--json'], { env, ...simClock(sandbox) });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.state).toBe('finished');
    const calls = placedCalls(sandbox);
    expect(calls.map((c) => c.phone).sort()).toEqual(twoZones().map((c) => c.phone_number).sort());
    const launchedWaves = summary.waves.filter((x: { state: string }) => x.state === 'done');
    expect(launchedWaves).toHaveLength(3);
    expect(posts(/^\/campaigns\/json$/), 'campaigns created').toBe(summary.waves.length);
    expect(posts(/\/launch$/), 'launches').toBe(3);
    expect(new Set(calls.map((c) => c.campaign)).size).toBe(3);
  }, 60_000);
});

describe('a journal that cannot be resumed', () => {
  async function refused(content: string, extraEnv: Record<string, string> = {}): Promise<{ code: number; stderr: string; requests: number }> {
    const path = join(tmp.dir, 'bad.run.json');
    writeFileSync(path, content);
    const before = sandbox.requests.length;
    const r = await runInProcess(['campaign', 'run', '--resume', path, '--yes'], { env: { ...env, ...extraEnv }, ...simClock(sandbox) });
    return { code: r.code, stderr: r.stderr, requests: sandbox.requests.length - before };
  }

  async function realJournal(): Promise<string> {
    const file = writeContacts(tmp.dir, 'one.json', [{ phone_number: '+12125552000', name: 'One' }]);
    const r = await runInProcess(['campaign', 'run', '--name', 'One', '--agent', agentId, '--contacts', file, '--yes'], { env, ...simClock(sandbox) });
    expect(r.code, r.stderr).toBe(0);
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
    const newer = await refused(JSON.stringify({ ...j, version: 2 }));
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain('of version 2; this voicectl reads version 1');
    expect(newer.requests).toBe(0);
    const broken = await refused(JSON.stringify({ ...j, waves: [{ n: 1, state: 'launched', contacts: [5] }] }));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('wave 1 is malformed');
    expect(broken.requests).toBe(0);
  }, 30_000);

  it('is refused when it belongs to another account or service', async () => {
    const text = await realJournal();
    const otherKey = await refused(text, { VOICECTL_API_KEY: 'sk_sandbox_someone_else' });
    expect(otherKey.code).toBe(2);
    expect(otherKey.stderr).toContain('belongs to a run made with another API key');
    expect(otherKey.requests).toBe(0);
    const otherService = await refused(text, { VOICECTL_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(otherService.code).toBe(2);
    expect(otherService.stderr).toContain(`belongs to a run against ${sandbox.url}`);
    expect(otherService.requests).toBe(0);
  }, 30_000);

  it('a second run on the same list is told to resume, not started', async () => {
    await realJournal();
    const file = join(tmp.dir, 'one.json');
    expect(existsSync(join(tmp.dir, 'one.run.json'))).toBe(true);
    const before = sandbox.requests.length;
    const r = await runInProcess(['campaign', 'run', '--name', 'One', '--agent', agentId, '--contacts', file, '--yes'], { env, ...simClock(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('A run journal already exists');
    expect(sandbox.requests.length).toBe(before);
  }, 30_000);

  it('a wave set to "abandoned" by hand (as the message for a service that cannot list campaigns says) gives its contacts back to a new wave', async () => {
    const j = JSON.parse(await realJournal());
    j.state = 'paused';
    j.waves[0].state = 'abandoned';
    j.contacts[0].state = 'in_wave';
    j.contacts[0].attempts = 0;
    const path = join(tmp.dir, 'edited.run.json');
    writeFileSync(path, JSON.stringify(j));
    const r = await runInProcess(['campaign', 'run', '--resume', path, '--yes', '--json'], { env, ...simClock(sandbox) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).contacts).toEqual({ done: 1 });
    expect(placedCalls(sandbox).filter((c) => c.phone === '+12125552000')).toHaveLength(2);
  }, 30_000);
});
