/**
 * Calling hours before dialing, in process against the sandbox with the context's clock
 * set by the test: refused at 22:30 in India, allowed at 10:00, both zones of a mixed
 * India/US list reported, and --wait-for-calling-hours waiting on that clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientFor, ok } from '../helpers/given.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

let sandbox: Sandbox;
let agentId = '';
const cfg = tempDir('voicectl-hours-');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 5 });
  agentId = (await api('POST', '/agents', { name: 'Hours', voice_name: 'Ananya', greeting: 'Hi', call_purpose: 'x', prompt: 'y', tools: [] })).id;
});
afterAll(async () => {
  await sandbox.close();
  cfg.remove();
});

const api = (method: string, path: string, body?: unknown) => ok<{ id: string }>(clientFor(sandbox), method, path, body);

const INDIA = ['+919876543210', '+919988776655', '+919422012345'];
const NEW_YORK = '+12125550123';

async function draft(name: string, numbers: string[]): Promise<string> {
  return (await api('POST', '/campaigns/json', { name, agent_id: agentId, contacts: numbers.map((phone_number) => ({ phone_number })) })).id;
}

const env = () => ({ VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_CONFIG_DIR: cfg.dir });
const at = (iso: string) => () => new Date(iso);
const launches = (id: string) => sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/campaigns/${id}/launch`);

describe('campaign launch checks calling hours on the injected clock', () => {
  it('refuses at 22:30 in India (exit 2), says how many, where, and when the window opens', async () => {
    const id = await draft('Late', INDIA);
    const r = await run(['campaign', 'launch', id, '--yes'], { env: env(), now: at('2026-01-15T17:00:00Z') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('3 contacts of 3 are outside calling hours (09:00-21:00 local time), so nothing was launched');
    expect(r.stderr).toContain('3 contacts in Asia/Kolkata (22:30 IST there now); opens 09:00 IST (2026-01-16 03:30 UTC, in 10h 30m)');
    expect(r.stderr).toContain('--wait-for-calling-hours');
    expect(launches(id)).toHaveLength(0);
  });

  it('says when the window opens in the contacts\' local time and in the user\'s zone (--tz, VOICECTL_TZ)', async () => {
    const id = await draft('Late, seen from New York', INDIA);
    const r = await run(['campaign', 'launch', id, '--yes', '--tz', 'America/New_York'], { env: env(), now: at('2026-01-15T17:00:00Z') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('3 contacts in Asia/Kolkata (22:30 IST there now); opens 09:00 IST (2026-01-15 22:30 EST, in 10h 30m)');
    expect(r.stderr).toContain('The window is open for all of them from 2026-01-15 22:30 EST (in 10h 30m).');
    expect(r.stderr).toContain('Pass --wait-for-calling-hours to launch at 2026-01-15 22:30 EST (in 10h 30m)');
    const same = await run(['campaign', 'launch', id, '--yes'], { env: { ...env(), VOICECTL_TZ: 'Asia/Calcutta' }, now: at('2026-01-15T17:00:00Z') });
    expect(same.stderr).toContain('3 contacts in Asia/Kolkata (22:30 IST there now); opens 2026-01-16 09:00 IST (in 10h 30m)');
    expect(launches(id)).toHaveLength(0);
  });

  it('allows the same campaign at 10:00 in India', async () => {
    const id = await draft('Morning', INDIA);
    const r = await run(['campaign', 'launch', id, '--yes'], { env: env(), now: at('2026-01-15T04:30:00Z') });
    expect(r.stderr).toContain('All 3 contacts are within calling hours');
    expect(r.exitCode).toBe(0);
    expect(launches(id)).toHaveLength(1);
  });

  it('a mixed India/US list reports both zones and the common opening', async () => {
    const id = await draft('Mixed', [...INDIA, NEW_YORK]);
    // 08:30 in India, 22:00 in New York.
    const r = await run(['campaign', 'launch', id, '--yes'], { env: env(), now: at('2026-01-15T03:00:00Z') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('4 contacts of 4 are outside calling hours');
    expect(r.stderr).toContain('3 contacts in Asia/Kolkata (08:30 IST there now)');
    expect(r.stderr).toContain('1 contact in America/New_York (22:00 EST there now)');
    expect(r.stderr).toContain('The window is open for all of them from 2026-01-15 14:00 UTC');
    expect(launches(id)).toHaveLength(0);
  });

  it('a refusal for a mixed India/US list names every zone: those closed, and those open now, with their local times', async () => {
    const id = await draft('Mixed, half open', [...INDIA, NEW_YORK]);
    // 22:30 in India (closed), 12:00 in New York (open).
    const r = await run(['campaign', 'launch', id, '--yes'], { env: env(), now: at('2026-01-15T17:00:00Z') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('3 contacts of 4 are outside calling hours (09:00-21:00 local time), so nothing was launched:');
    expect(r.stderr).toContain('  closed  3 contacts in Asia/Kolkata (22:30 IST there now); opens 09:00 IST (2026-01-16 03:30 UTC, in 10h 30m)');
    expect(r.stderr).toContain('  open    1 contact in America/New_York (12:00 EST there now)');
    expect(r.stderr).toContain('The window is open for all of them from 2026-01-16 14:00 UTC');
    expect(launches(id)).toHaveLength(0);
  });

  it('--calling-hours narrows the window, and --ignore-calling-hours overrides', async () => {
    const id = await draft('Narrow', INDIA);
    // 09:30 in India: inside 09:00-21:00, outside 10:00-19:00.
    const now = at('2026-01-15T04:00:00Z');
    const narrow = await run(['campaign', 'launch', id, '--yes', '--calling-hours', '10:00-19:00'], { env: env(), now });
    expect(narrow.exitCode).toBe(2);
    expect(narrow.stderr).toContain('(10:00-19:00 local time)');
    const bad = await run(['campaign', 'launch', id, '--yes', '--calling-hours', '9-5'], { env: env(), now });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('is not a window of hours');
    expect(launches(id)).toHaveLength(0);
    const forced = await run(['campaign', 'launch', id, '--yes', '--ignore-calling-hours'], { env: env(), now: at('2026-01-15T17:00:00Z') });
    expect(forced.exitCode).toBe(0);
    expect(launches(id)).toHaveLength(1);
  });

  it('the profile\'s calling_hours applies when no flag is given', async () => {
    const set = await run(['config', 'set', 'calling_hours', '10:00-19:00'], { env: env() });
    expect(set.exitCode).toBe(0);
    try {
      const id = await draft('Profile window', INDIA);
      const r = await run(['campaign', 'launch', id, '--yes'], { env: env(), now: at('2026-01-15T04:00:00Z') });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('(10:00-19:00 local time)');
    } finally {
      await run(['config', 'unset', 'calling_hours'], { env: env() });
    }
  });

  it('--wait-for-calling-hours waits on the clock (a line a minute off a terminal), then launches', async () => {
    const id = await draft('Patient', INDIA);
    let clock = new Date('2026-01-16T03:27:30Z').getTime();
    let launchedAt: number | undefined;
    const r = await run(['campaign', 'launch', id, '--yes', '--wait-for-calling-hours'], {
      env: env(),
      now: () => new Date(clock),
      sleep: async (ms) => {
        clock += ms;
        if (launches(id).length > 0) launchedAt ??= clock;
      },
    });
    expect(r.exitCode).toBe(0);
    expect(launches(id)).toHaveLength(1);
    expect(launchedAt).toBeUndefined();
    expect(clock).toBe(new Date('2026-01-16T03:30:00Z').getTime());
    const waiting = r.stderr.split('\n').filter((l) => l.startsWith('Waiting for calling hours'));
    expect(waiting).toEqual([
      'Waiting for calling hours: 3m left (opens 03:30 UTC).',
      'Waiting for calling hours: 2m left (opens 03:30 UTC).',
      'Waiting for calling hours: 1m left (opens 03:30 UTC).',
    ]);
    expect(r.stderr).toContain('Calling hours are open for every contact.');
  });

  it('the wait says when the window opens in the user\'s zone', async () => {
    const id = await draft('Patient in Kolkata', INDIA);
    let clock = new Date('2026-01-16T03:29:30Z').getTime();
    const r = await run(['campaign', 'launch', id, '--yes', '--wait-for-calling-hours', '--tz', 'Asia/Kolkata'], {
      env: env(), now: () => new Date(clock), sleep: async (ms) => { clock += ms; },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Waiting for calling hours: 1m left (opens 09:00 IST).');
  });

  it('on a terminal the wait is a countdown redrawn in place', async () => {
    const id = await draft('Countdown', INDIA);
    let clock = new Date('2026-01-16T03:29:57Z').getTime();
    const r = await run(['campaign', 'launch', id, '--yes', '--wait-for-calling-hours'], {
      env: env(),
      tty: { stdout: false, stderr: true },
      now: () => new Date(clock),
      sleep: async (ms) => { clock += ms; },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('\r\x1b[KWaiting for calling hours: 0:00:03 left (opens 03:30 UTC). Ctrl-C stops.');
    expect(r.stderr).toContain('\r\x1b[KWaiting for calling hours: 0:00:01 left');
    expect(launches(id)).toHaveLength(1);
  });

  it('create --launch outside the window creates nothing', async () => {
    const before = sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/campaigns/json').length;
    const r = await run(['campaign', 'create', '--name', 'Night', '--agent', agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--yes'], {
      env: env(), now: at('2026-01-15T17:00:00Z'),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('so nothing was created or launched');
    expect(sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/campaigns/json').length).toBe(before);
  });

  it('create --launch --dry-run checks --calling-hours as the launch does: same message, exit 2, nothing sent', async () => {
    const posts = () => sandbox.requests.filter((q) => q.method === 'POST').length;
    const before = posts();
    const base = ['campaign', 'create', '--name', 'Hours', '--agent', agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--yes'];
    for (const flags of [['--calling-hours', '9-5'], ['--calling-hours', '25:00-26:00'], ['--ignore-calling-hours', '--wait-for-calling-hours']]) {
      const real = await run([...base, ...flags], { env: env(), now: at('2026-01-15T04:30:00Z') });
      const dry = await run([...base, ...flags, '--dry-run'], { env: env(), now: at('2026-01-15T04:30:00Z') });
      expect(real.exitCode).toBe(2);
      expect(dry.exitCode).toBe(2);
      expect(dry.stderr).toBe(real.stderr);
      expect(dry.stdout).toBe('');
    }
    expect(posts()).toBe(before);
  });

  it('redial --launch --dry-run checks --calling-hours as the launch does', async () => {
    const id = await draft('Redial hours', INDIA);
    const args = ['campaign', 'redial', id, '--launch', '--yes', '--calling-hours', '9-5'];
    const real = await run(args, { env: env(), now: at('2026-01-15T04:30:00Z') });
    const dry = await run([...args, '--dry-run'], { env: env(), now: at('2026-01-15T04:30:00Z') });
    expect(real.exitCode).toBe(2);
    expect(dry.exitCode).toBe(2);
    expect(dry.stderr).toBe(real.stderr);
    expect(dry.stderr).toContain('--calling-hours "9-5" is not a window of hours.');
  });
});
