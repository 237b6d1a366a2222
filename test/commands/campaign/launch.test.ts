/**
 * `voicectl campaign launch`: the confirmation a person at a terminal sees (answered
 * through the context's stdin), calling hours on the context's clock, and the built
 * binary from create to completion against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { ALL_SCOPES } from '../../../src/sandbox/records.js';
import { tempDir } from '../../helpers/temp.js';
import { campaignDone, clientFor, givenAgent, givenCampaign } from '../../helpers/given.js';
import { run } from '../../helpers/run.js';
import { harness, type Harness } from '../../helpers/cli.js';

/**
 * A sandbox with one agent, in process: drafts of the numbers given, the environment that
 * points voicectl at it, and the launches it received.
 */
function launchWorld(seed: number) {
  const cfg = tempDir('voicectl-launch-');
  const w = {
    sandbox: undefined as unknown as Sandbox,
    agentId: '',
    env: () => ({ VOICECTL_BASE_URL: w.sandbox.url, VOICECTL_API_KEY: w.sandbox.apiKey, VOICECTL_CONFIG_DIR: cfg.dir }),
    draft: async (name: string, numbers: string[]): Promise<string> =>
      (await givenCampaign(clientFor(w.sandbox), w.agentId, numbers.map((phone_number) => ({ phone_number })), undefined, name)).id,
    launches: (id: string) => w.sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/campaigns/${id}/launch`),
  };
  beforeAll(async () => {
    w.sandbox = await startSandbox({ port: 0, timeScale: 600, seed });
    w.agentId = (await givenAgent(clientFor(w.sandbox), { name: 'Launch desk', voice_name: 'Ananya', greeting: 'Hi', call_purpose: 'x', prompt: 'y', tools: [] })).id;
  });
  afterAll(async () => {
    await w.sandbox.close();
    cfg.remove();
  });
  return w;
}

describe('on a terminal', () => {
  const w = launchWorld(3);
  const { env } = w;
  const launched = w.launches;
  const draft = (name: string) => w.draft(name, ['+919876543210', '+919988776655', '+442079460958']);

  /** What a person reads: inquirer's colours, cursor moves and line wrapping removed. */
  function plain(s: string): string {
    // eslint-disable-next-line no-control-regex
    return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s+/g, ' ');
  }

  /** A new draft launched at a terminal, a person answering its question. */
  async function launchAnswering(name: string, answer: string) {
    const id = await draft(name);
    const r = await run(['campaign', 'launch', id, '--ignore-calling-hours'], { env: env(), tty: true, answers: [[`Launch "${name}"`, answer]] });
    return { id, r };
  }

  describe('campaign launch on a terminal', () => {
    it('asks with the campaign\'s name and how many contacts will be dialed; yes launches', async () => {
      const { id, r } = await launchAnswering('Diwali follow-up', 'y');
      // The sandbox's own key on this machine: its calls are simulated, and it says so.
      expect(plain(r.stderr)).toContain(`Launch "Diwali follow-up" (${id})? It dials 3 contacts: simulated calls in the sandbox, no balance used.`);
      expect(r.stderr).not.toContain('account balance');
      expect(r.exitCode).toBe(0);
      expect(launched(id)).toHaveLength(1);
    });

    it('warns of real calls on the balance when the key is not one the sandbox made, even on this machine', async () => {
      // A tunnel to the real service on localhost looks like this: a loopback address, an account's key.
      const key = 'sk_live_0123456789abcdef0123456789abcdef';
      const own = await startSandbox({ port: 0, timeScale: 600, seed: 3, keys: [{ key, org: 'org_real', scopes: [...ALL_SCOPES] }] });
      expect(own.apiKey).toBe(key);
      try {
        const agentId = (await givenAgent(clientFor(own), { name: 'Desk', voice_name: 'Ananya', greeting: 'Hi', call_purpose: 'x', prompt: 'y', tools: [] })).id;
        const id = (await givenCampaign(clientFor(own), agentId, [{ phone_number: '+919876543210' }], undefined, 'Tunnel')).id;
        const r = await run(['campaign', 'launch', id, '--ignore-calling-hours'], {
          env: { ...env(), VOICECTL_BASE_URL: own.url, VOICECTL_API_KEY: key }, tty: true, answers: [['Launch "Tunnel"', 'n']],
        });
        expect(plain(r.stderr)).toContain('It dials 1 contact: real calls that use the account balance.');
        expect(r.exitCode).toBe(1);
      } finally {
        await own.close();
      }
    });

    it('no launches nothing', async () => {
      const { id, r } = await launchAnswering('Not today', 'n');
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('Cancelled: nothing was launched.');
      expect(launched(id)).toHaveLength(0);
    });

    it('--no-input on a terminal still needs --yes', async () => {
      const id = await draft('No input');
      const r = await run(['campaign', 'launch', id, '--ignore-calling-hours', '--no-input'], { env: env(), tty: true });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('Pass --yes to confirm (--no-input is set)');
      expect(launched(id)).toHaveLength(0);
    });

    it('create --launch asks before creating anything; no leaves nothing behind', async () => {
      const before = w.sandbox.requests.filter((q) => q.method === 'POST').length;
      const r = await run(['campaign', 'create', '--name', 'Asked first', '--agent', w.agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--ignore-calling-hours'], {
        env: env(),
        tty: true,
        answers: [['Launch "Asked first"', 'n']],
      });
      expect(plain(r.stderr)).toContain('It dials 25 contacts');
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('Cancelled: nothing was created or launched.');
      expect(w.sandbox.requests.filter((q) => q.method === 'POST').length).toBe(before);
    });

    it('get draws a bar per status on a terminal', async () => {
      const id = await draft('Bars');
      const r = await run(['campaign', 'get', id], { env: env(), tty: true });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^\s+pending\s+3\s+100%\s+█{30}$/m);
      expect(r.stdout).toMatch(/^\s+completed\s+0\s+0%\s+░{30}$/m);
    });

    it('create --dry-run shows a summary table on a terminal and sends nothing', async () => {
      const before = w.sandbox.requests.length;
      const r = await run(['campaign', 'create', '--name', 'Preview', '--agent', w.agentId, '--csv', 'fixtures/contacts/phone-reasons.csv', '--default-country', 'IN', '--skip-invalid', '--dry-run'], { env: env(), tty: true });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`Would create campaign "Preview" for agent ${w.agentId}:`);
      expect(r.stdout).toMatch(/^ROW\s+NUMBER\s+NAME\s+EXTRA$/m);
      expect(r.stdout).toMatch(/^14\s+\+919876543210\s+Valid One\s+\{"note":"this row is fine"\}$/m);
      expect(r.stderr).toContain('Dry run: nothing was sent.');
      expect(w.sandbox.requests.length).toBe(before);
    });
  });
});

describe('calling hours', () => {
  /**
   * Calling hours before dialing, in process against the sandbox with the context's clock
   * set by the test: refused at 22:30 in India, allowed at 10:00, both zones of a mixed
   * India/US list reported, and --wait-for-calling-hours waiting on that clock.
   */
  const w = launchWorld(5);
  const { draft, env, launches } = w;

  const INDIA = ['+919876543210', '+919988776655', '+919422012345'];
  const NEW_YORK = '+12125550123';

  const at = (iso: string) => () => new Date(iso);

  /** A new draft of these numbers, launched with --yes at `iso` (the context's clock): refused (exit 2) with these lines, and nothing launched. */
  async function refusedAt(iso: string, name: string, numbers: string[], says: string[]): Promise<void> {
    const id = await draft(name, numbers);
    const r = await run(['campaign', 'launch', id, '--yes'], { env: env(), now: at(iso) });
    expect(r.exitCode).toBe(2);
    for (const line of says) expect(r.stderr).toContain(line);
    expect(launches(id)).toHaveLength(0);
  }

  describe('campaign launch checks calling hours on the injected clock', () => {
    it('refuses at 22:30 in India (exit 2), says how many, where, and when the window opens', async () => {
      await refusedAt('2026-01-15T17:00:00Z', 'Late', INDIA, [
        '3 contacts of 3 are outside calling hours (09:00-21:00 local time), so nothing was launched',
        '3 contacts in Asia/Kolkata (22:30 IST there now); opens 09:00 IST (2026-01-16 03:30 UTC, in 10h 30m)',
        '--wait-for-calling-hours',
      ]);
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

    it.each([
      {
        title: 'a mixed India/US list reports both zones and the common opening',
        at: '2026-01-15T03:00:00Z', // 08:30 in India, 22:00 in New York
        name: 'Mixed',
        says: [
          '4 contacts of 4 are outside calling hours',
          '3 contacts in Asia/Kolkata (08:30 IST there now)',
          '1 contact in America/New_York (22:00 EST there now)',
          'The window is open for all of them from 2026-01-15 14:00 UTC',
        ],
      },
      {
        title: 'a refusal for a mixed India/US list names every zone: those closed, and those open now, with their local times',
        at: '2026-01-15T17:00:00Z', // 22:30 in India (closed), 12:00 in New York (open)
        name: 'Mixed, half open',
        says: [
          '3 contacts of 4 are outside calling hours (09:00-21:00 local time), so nothing was launched:',
          '  closed  3 contacts in Asia/Kolkata (22:30 IST there now); opens 09:00 IST (2026-01-16 03:30 UTC, in 10h 30m)',
          '  open    1 contact in America/New_York (12:00 EST there now)',
          'The window is open for all of them from 2026-01-16 14:00 UTC',
        ],
      },
    ])('$title', ({ at: iso, name, says }) => refusedAt(iso, name, [...INDIA, NEW_YORK], says));

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
        'Waiting for calling hours: 2m 30s left (opens 03:30 UTC).',
        'Waiting for calling hours: 2m 00s left (opens 03:30 UTC).',
        'Waiting for calling hours: 1m 00s left (opens 03:30 UTC).',
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
      expect(r.stderr).toContain('Waiting for calling hours: 30s left (opens 09:00 IST).');
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
      expect(r.stderr).toContain('\r\x1b[KWaiting for calling hours: 0:03 left (opens 03:30 UTC). Ctrl-C stops.');
      expect(r.stderr).toContain('\r\x1b[KWaiting for calling hours: 0:01 left');
      expect(launches(id)).toHaveLength(1);
    });

    it('create --launch outside the window creates nothing', async () => {
      const before = w.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/campaigns/json').length;
      const r = await run(['campaign', 'create', '--name', 'Night', '--agent', w.agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--yes'], {
        env: env(), now: at('2026-01-15T17:00:00Z'),
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('so nothing was created or launched');
      expect(w.sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/campaigns/json').length).toBe(before);
    });

    it('create --launch --dry-run checks --calling-hours as the launch does: same message, exit 2, nothing sent', async () => {
      const posts = () => w.sandbox.requests.filter((q) => q.method === 'POST').length;
      const before = posts();
      const base = ['campaign', 'create', '--name', 'Hours', '--agent', w.agentId, '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--yes'];
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
});

describe('the built binary, from create to completion', () => {
  /**
   * `campaign create --csv` then `launch`, end to end against the sandbox until the
   * campaign completes, and the reads around it: get, contacts, list.
   */
  const NO_DISPATCH = 'sk_test_no_dispatch';
  let h: Harness;
  let id = '';

  beforeAll(async () => {
    h = await harness({
      keys: [{ key: NO_DISPATCH, org: 'org_sandbox', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:read'] }],
    });
    const r = await h.run(['agent', 'create', '--name', 'Launcher', '--voice', 'Ananya', '--greeting', 'Hello!', '--call-purpose', 'Leads', '--prompt', 'Qualify.', '--json']);
    expect(r.exitCode).toBe(0);
  });
  afterAll(async () => h.close());

  const launches = () => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/launch'));

  describe('create --csv, then launch, to completion', () => {
    it('creates the campaign as a draft', async () => {
      const r = await h.run(['campaign', 'create', '--name', 'Leads end to end', '--agent', 'Launcher', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--json']);
      expect(r.exitCode).toBe(0);
      const created = JSON.parse(r.stdout) as { id: string; status: string };
      id = created.id;
      expect(created.status).toBe('draft');
    });

    it('shows a draft\'s counts as a table', async () => {
      const r = await h.run(['campaign', 'get', id]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^status\s+draft$/m);
      expect(r.stdout).toMatch(/^\s+pending\s+25\s+100%$/m);
      expect(r.stdout).toMatch(/^\s+total\s+25$/m);
      expect(r.stderr).toContain(`voicectl campaign launch ${id}`);
    });

    it('will not launch without --yes when no one can confirm, and names the flag', async () => {
      const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--no-input']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('Launching "Leads end to end"');
      expect(r.stderr).toContain('dials 25 contacts');
      expect(r.stderr).toContain('Pass --yes to confirm (--no-input is set)');
      expect(launches()).toHaveLength(0);
    });

    it('a key without calls:dispatch is exit 3 and the message names the scope', async () => {
      const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes'], { env: { VOICECTL_API_KEY: NO_DISPATCH } });
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toContain('lacks the "calls:dispatch" scope');
      const c = await h.run(['campaign', 'get', id, '--json']);
      expect(JSON.parse(c.stdout)).toMatchObject({ status: 'draft' });
    });

    it('launches with --yes and prints the next step', async () => {
      const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes', '--no-input']);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain(`Launched "Leads end to end" (${id}): dialing 25 contacts.`);
      expect(r.stderr).toContain(`voicectl watch ${id}`);
      expect(r.stdout).toMatch(/^status\s+running$/m);
      expect(launches().filter((l) => l.headers['x-api-key'] === h.sandbox.apiKey)).toHaveLength(1);
    });

    it('refuses to launch it again, before sending anything', async () => {
      const before = launches().length;
      const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/cannot be launched: only a draft can be, and it (is already running|has already run to completion)/);
      expect(launches().length).toBe(before);
    });

    it('runs to completion: every contact called, with a call id', async () => {
      const c = await campaignDone(h.api, id);
      const counts = c.contacts_by_status as Record<string, number>;
      expect((counts.completed ?? 0) + (counts.no_answer ?? 0) + (counts.failed ?? 0)).toBe(25);
      const r = await h.run(['campaign', 'contacts', id, '--json']);
      expect(r.exitCode).toBe(0);
      const contacts = JSON.parse(r.stdout) as Array<{ phone_number: string; status: string; call_id?: string; extra: Record<string, string> }>;
      expect(contacts).toHaveLength(25);
      expect(contacts.every((x) => typeof x.call_id === 'string' && ['completed', 'no_answer', 'failed'].includes(x.status))).toBe(true);
      expect(contacts[0]).toMatchObject({ phone_number: '+919876543210', extra: { customer_id: '000147' } });
    });

    it('shows the finished counts, with the next step', async () => {
      const r = await h.run(['campaign', 'get', id]);
      expect(r.stdout).toMatch(/^status\s+completed$/m);
      expect(r.stdout).toMatch(/^\s+completed\s+\d+\s+\d+%$/m);
      expect(r.stderr).toContain(`voicectl call export --campaign ${id}`);
      const csv = await h.run(['campaign', 'get', id, '-o', 'csv']);
      const [head, row] = csv.stdout.trim().split('\n');
      expect(head).toBe('id,name,status,agent_id,contacts,pending,initiated,completed,no_answer,failed');
      expect(row).toMatch(new RegExp(`^${id},Leads end to end,completed,[0-9a-f-]+,25,0,0,\\d+,\\d+,\\d+$`));
    });

    it('lists the contacts with their call ids, filtered by status, as CSV', async () => {
      const all = JSON.parse((await h.run(['campaign', 'contacts', id, '--json'])).stdout) as Array<{ status: string; call_id: string; phone_number: string }>;
      const noAnswer = all.filter((c) => c.status === 'no_answer');
      const r = await h.run(['campaign', 'contacts', id, '--status', 'no_answer', '-o', 'csv']);
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe('phone_number,name,status,call_id,extra');
      expect(lines).toHaveLength(noAnswer.length + 1);
      for (const c of noAnswer) expect(r.stdout).toContain(`${c.phone_number},`);
      expect(lines.slice(1).every((l) => l.includes(',no_answer,call_'))).toBe(true);
      const table = await h.run(['campaign', 'contacts', id]);
      expect(table.stdout).toMatch(/^NUMBER\s+NAME\s+STATUS\s+CALL ID\s+EXTRA/m);
      expect(table.stdout).toContain('Priya Sharma');
    });

    it('a completed campaign cannot be launched', async () => {
      const r = await h.run(['campaign', 'launch', id, '--ignore-calling-hours', '--yes']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('it has already run to completion');
    });
  });

  describe('campaign list and get', () => {
    it('lists campaigns, filtered by status, as a table, JSON and CSV', async () => {
      const draft = await h.run(['campaign', 'create', '--name', 'Still a draft', '--agent', 'Launcher', '--csv', 'fixtures/contacts/indian-formats.csv', '--default-country', 'IN', '--json']);
      const draftId = (JSON.parse(draft.stdout) as { id: string }).id;
      const table = await h.run(['campaign', 'list']);
      expect(table.exitCode).toBe(0);
      expect(table.stdout).toMatch(/^ID\s+NAME\s+STATUS\s+CONTACTS\s+PROGRESS\s+AGENT/m);
      expect(table.stdout).toMatch(new RegExp(`^${id}\\s+Leads end to end\\s+completed\\s+25\\s+25/25 done`, 'm'));
      const json = JSON.parse((await h.run(['campaigns', 'list', '--status', 'draft', '--json'])).stdout) as Array<{ id: string; status: string }>;
      expect(json.map((c) => c.id)).toContain(draftId);
      expect(json.every((c) => c.status === 'draft')).toBe(true);
      const csv = await h.run(['campaign', 'list', '--all', '-o', 'csv']);
      expect(csv.stdout.split('\n')[0]).toBe('id,name,status,agent_id,contacts,pending,initiated,completed,no_answer,failed');
      expect(csv.stdout).toContain(`${draftId},Still a draft,draft,`);
      const limited = JSON.parse((await h.run(['campaign', 'list', '--limit', '1', '--json'])).stdout) as unknown[];
      expect(limited).toHaveLength(1);
    });

    it('an unknown id is exit 4 with words, not a stack', async () => {
      const r = await h.run(['campaign', 'get', '00000000-0000-4000-8000-000000000000']);
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain('no campaign with id 00000000-0000-4000-8000-000000000000');
    });
  });

  describe('create --launch', () => {
    it('under --no-input without --yes creates nothing', async () => {
      const before = h.sandbox.requests.filter((r) => r.method === 'POST').length;
      const r = await h.run(['campaign', 'create', '--name', 'Auto', '--agent', 'Launcher', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--ignore-calling-hours']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('--yes');
      expect(h.sandbox.requests.filter((r) => r.method === 'POST').length).toBe(before);
    });

    it('with --yes creates, launches and points at watch', async () => {
      const r = await h.run(['campaign', 'create', '--name', 'Auto', '--agent', 'Launcher', '--csv', 'fixtures/leads.csv', '--default-country', 'IN', '--launch', '--ignore-calling-hours', '--yes', '--json']);
      expect(r.exitCode).toBe(0);
      const c = JSON.parse(r.stdout) as { id: string; status: string };
      expect(c.status).toBe('running');
      expect(r.stderr).toContain(`voicectl watch ${c.id}`);
      expect(launches().at(-1)!.path).toBe(`/campaigns/${c.id}/launch`);
    });
  });
});
