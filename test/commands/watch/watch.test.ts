import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeCampaign, type FakeOptions, fakeServer, type FakeServer, kind } from '../../watch/fake-campaign.js';
import type { Env } from '../../../src/context.js';
import { fakeClock, run } from '../../helpers/run.js';
import { finalScreen, stripAnsi } from '../../helpers/screen.js';
import { execa } from 'execa';
import { BIN, harness, type Harness } from '../../helpers/cli.js';
import { allCalls, clientFor, ok } from '../../helpers/given.js';
import { needs } from '../../helpers/requires.js';
import { launchChromium } from '../../helpers/browser.js';

describe('against a campaign that advances one step per read', () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(opts: FakeOptions): Promise<FakeServer> {
    server = await fakeServer(new FakeCampaign(opts));
    return server;
  }

  /** watch on a clock that its sleeps move forward, with no jitter: many polls take milliseconds. */
  async function watch(argv: string[], opts: { env?: Env; tty?: { columns: number; rows: number }; interruptAtSleep?: number } = {}) {
    const clock = fakeClock({ interruptAtSleep: opts.interruptAtSleep });
    const tty = opts.tty && { stdout: true, stderr: true, ...opts.tty };
    const r = await run(argv, { env: opts.env, tty, random: () => 0.5, now: clock.now, sleep: clock.sleep, signal: clock.signal });
    return { ...r, sleeps: clock.sleeps };
  }

  function env(s: FakeServer) {
    return { VOICECTL_BASE_URL: s.url, VOICECTL_API_KEY: 'sk_test' };
  }

  function expected(contacts: number) {
    const counts = { completed: 0, no_answer: 0, failed: 0 };
    for (let i = 0; i < contacts; i++) counts[kind(i)]++;
    return counts;
  }

  describe('watch --json', () => {
    it('prints NDJSON: progress, each finished call once, and a completed summary matching the campaign', async () => {
      const s = await start({ contacts: 230, dialPerStep: 60 });
      const r = await watch(['watch', s.campaign.id, '--json'], { env: env(s) });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
      const calls = events.filter((e) => e.type === 'call');
      expect(calls.map((c) => c.call_id).sort()).toEqual(s.campaign.allCallIds().sort());
      expect(calls.every((c) => c.end_time && c.phone_number && c.contact)).toBe(true);
      expect(events[0]).toMatchObject({ type: 'progress', campaign_id: s.campaign.id, name: 'Spring renewals', status: 'running', total: 230 });
      const done = events.at(-1)!;
      expect(done.type).toBe('completed');
      expect(done.summary.contacts_by_status).toEqual({ pending: 0, initiated: 0, ...expected(230) });
      expect(done.summary.calls).toBe(230);
      expect(done.summary.connect_rate).toBeCloseTo(expected(230).completed / 230);
      expect(events.filter((e) => e.type === 'completed')).toHaveLength(1);
      // The interval is the default 2 s.
      expect(r.sleeps.every((ms) => ms === 2000)).toBe(true);
    });

    it('says a draft has not been launched, and waits for the launch', async () => {
      const s = await start({ contacts: 20, draftReads: 3 });
      const r = await watch(['campaign', 'watch', s.campaign.id, '--json', '--interval', '1'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      expect(r.stderr.match(/is a draft: it has not been launched/g)).toHaveLength(1);
      expect(r.stderr).toContain(`voicectl campaign launch ${s.campaign.id}`);
      const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(events[0]).toMatchObject({ type: 'progress', status: 'draft' });
      expect(events.filter((e) => e.type === 'call')).toHaveLength(20);
      expect(r.sleeps.slice(0, 3)).toEqual([1000, 1000, 1000]);
    });
  });

  describe('watch with fields missing', () => {
    it('follows a campaign without contacts_by_status to completion by its status', async () => {
      const s = await start({ contacts: 45, dialPerStep: 20, omitCounts: true });
      const r = await watch(['watch', s.campaign.id, '--json'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(events.filter((e) => e.type === 'call')).toHaveLength(45);
      expect(events.at(-1).summary).toMatchObject({ total_contacts: 45, calls: 45, contacts_by_status: {}, connected: 37 });
    });
  });

  describe('watch off a terminal', () => {
    it('prints one line per change and the final summary', async () => {
      const s = await start({ contacts: 40, dialPerStep: 15 });
      const r = await watch(['campaigns', 'watch', s.campaign.id], { env: env(s) });
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines.filter((l) => l.startsWith('call  '))).toHaveLength(40);
      expect(lines.find((l) => l.startsWith('call  call_00000'))).toMatch(/^call {2}call_00000 {2}2025-03-01 10:\d\d:\d\d UTC {2}\+919870000000 {2}requirements_gathered {2}1m 00s {2}Call 0 summary/);
      expect(lines.filter((l) => l.startsWith('progress  ')).length).toBeGreaterThan(2);
      expect(r.stdout).toContain('Campaign "Spring renewals" completed: 40 contacts, 40 finished calls');
      expect(r.stdout).toMatch(/Connect rate {6}80\.0% \(32 of 40\)/);
      expect(r.stdout).not.toContain('\x1b[');
    });
  });

  describe('watch in the user\'s zone', () => {
    it('--tz: each call\'s line has its time there, named; --json keeps the service\'s UTC times', async () => {
      const s = await start({ contacts: 3, dialPerStep: 3 });
      const r = await watch(['watch', s.campaign.id, '--tz', 'Asia/Calcutta'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n').find((l) => l.startsWith('call  call_00000'))).toMatch(/^call {2}call_00000 {2}2025-03-01 15:\d\d:\d\d IST {2}/);
      const s2 = await start({ contacts: 3, dialPerStep: 3 });
      const json = await watch(['watch', s2.campaign.id, '--json', '--tz', 'Asia/Kolkata'], { env: env(s2) });
      const call = json.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'call');
      expect(call.end_time).toMatch(/^2025-03-01T10:\d\d:\d\d(\.\d+)?Z$/);
    });

    it('on a terminal, the list of calls names the zone', async () => {
      const s = await start({ contacts: 3, dialPerStep: 3 });
      const r = await watch(['watch', s.campaign.id, '--tz', 'America/New_York'], { env: env(s), tty: { columns: 100, rows: 30 } });
      expect(r.exitCode).toBe(0);
      const text = finalScreen(r.stdout).map(stripAnsi).join('\n');
      expect(text).toContain('Latest finished calls (times America/New_York)');
      expect(text).toMatch(/\n05:\d\d:\d\d {2}\+91987/);
    });
  });

  describe('watch on a terminal', () => {
    it('redraws in place, ends with the summary on screen and the cursor shown', async () => {
      const s = await start({ contacts: 120, dialPerStep: 30 });
      const r = await watch(['watch', s.campaign.id], { env: env(s), tty: { columns: 72, rows: 30 } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.startsWith('\x1b[?25l')).toBe(true);
      expect(r.stdout.lastIndexOf('\x1b[?25h')).toBeGreaterThan(r.stdout.lastIndexOf('\x1b[?25l'));
      expect(r.stdout).toMatch(/\x1b\[\d+A/);
      const screen = finalScreen(r.stdout).map(stripAnsi);
      const text = screen.join('\n');
      expect(text).toContain('Campaign Spring renewals  completed');
      expect(text).toContain('120/120 finished');
      expect(text).toContain('Latest finished calls');
      expect(text).toContain('Campaign "Spring renewals" completed: 120 contacts, 120 finished calls');
      expect(text).toMatch(/Connect rate {6}80\.0%/);
      // Drawn once: a redraw that lost count of its lines would leave a second header.
      expect(screen.filter((l) => l.startsWith('Campaign Spring renewals'))).toHaveLength(1);
      expect(Math.max(...screen.map((l) => [...l].length))).toBeLessThanOrEqual(72);
      expect(r.stderr).toBe('');
    });

    it('restores the cursor on Ctrl-C and exits 130', async () => {
      const s = await start({ contacts: 50, dialPerStep: 5 });
      const r = await watch(['watch', s.campaign.id], { env: env(s), tty: { columns: 80, rows: 24 }, interruptAtSleep: 3 });
      expect(r.exitCode).toBe(130);
      expect(r.stdout.endsWith('\x1b[?25h')).toBe(true);
      expect(r.stderr).toContain('Interrupted');
    });
  });

  describe('watch exit codes', () => {
    it('--fail-if exits 1 and names the line that was crossed', async () => {
      const s = await start({ contacts: 100, dialPerStep: 50 });
      const r = await watch(['watch', s.campaign.id, '--fail-if', 'failed>5%,no_answer>=50', '--fail-if', 'requirements_gathered<10'], { env: env(s) });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('crossed --fail-if: failed>5%: failed contacts = 10 (10.0% of 100 contacts)');
      expect(r.stderr).not.toContain('no_answer>=50:');
      expect(r.stdout).toMatch(/FAIL {2}--fail-if failed>5%/);
      expect(r.stdout).toMatch(/ok {4}--fail-if no_answer>=50/);
      expect(r.stdout).toMatch(/ok {4}--fail-if requirements_gathered<10: calls with outcome requirements_gathered = 60/);
    });

    it('--fail-if that holds exits 0, and --json reports the checks', async () => {
      const s = await start({ contacts: 100, dialPerStep: 50 });
      const r = await watch(['watch', s.campaign.id, '--json', '--fail-if', 'failed>10%,completed<50%'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      const done = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect(done.fail_if).toEqual([
        { condition: 'failed>10%', name: 'failed', count: 10, percent: 10, crossed: false },
        { condition: 'completed<50%', name: 'completed', count: 80, percent: 80, crossed: false },
      ]);
    });

    it('a bad --fail-if is exit 2 before any request', async () => {
      const s = await start({ contacts: 5 });
      const r = await watch(['watch', s.campaign.id, '--fail-if', 'failed>>5'], { env: env(s) });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('--fail-if: cannot read "failed>>5"');
      expect(s.requests).toHaveLength(0);
    });

    it('a bad --interval is exit 2', async () => {
      const r = await watch(['watch', 'x', '--interval', '0']);
      expect(r.exitCode).toBe(2);
    });

    it('--timeout ends the watch with exit 1 and says how far it got', async () => {
      const s = await start({ contacts: 10, dialPerStep: 1 });
      const r = await watch(['watch', s.campaign.id, '--timeout', '7', '--interval', '2'], { env: env(s) });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/error: timed out after 7s: campaign "Spring renewals" is still running \(\d+ of 10 contacts finished\)/);
      expect(r.sleeps).toEqual([2000, 2000, 2000, 1000]);
    });

    it('--timeout also cuts short a poll that hangs', async () => {
      const s = await start({ contacts: 10 });
      s.failNext(1, 0);
      const r = await watch(['watch', s.campaign.id, '--timeout', '0.2'], { env: env(s) });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('error: timed out after 0.2s: no poll succeeded.');
    });

    it('a campaign that does not exist is exit 4', async () => {
      const s = await start({ contacts: 5 });
      const r = await watch(['watch', 'no-such-campaign'], { env: env(s) });
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain('no campaign with id no-such-campaign');
      expect(s.requests).toHaveLength(1);
    });

    it('a refused key is exit 3, not retried', async () => {
      const s = await start({ contacts: 5 });
      const r = await watch(['watch', s.campaign.id], { env: { ...env(s), VOICECTL_API_KEY: 'wrong' } });
      expect(r.exitCode).toBe(3);
      expect(s.requests).toHaveLength(1);
    });
  });

  describe('watch through poll failures', () => {
    it('shows a failed poll as a warning, backs off, and recovers', async () => {
      const s = await start({ contacts: 60, dialPerStep: 20 });
      s.failNext(3, 500, /^\/campaigns\//);
      const r = await watch(['watch', s.campaign.id, '--json'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      expect(r.stderr.match(/warning: poll failed/g)).toHaveLength(3);
      expect(r.stderr).toContain('GET /campaigns/0b6f9f43-5a0e-4c53-9d7e-1f1f7f0c0a01 answered HTTP 500: the database is having a moment');
      expect(r.stderr).toContain('(3 times in a row)');
      expect(r.stderr).toContain('Polling recovered.');
      // Backoff doubles: 2 s, 4 s, 8 s (random() is 0.5: no jitter), then the interval again.
      expect(r.sleeps.slice(0, 4)).toEqual([2000, 4000, 8000, 2000]);
      const calls = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'call');
      expect(calls).toHaveLength(60);
    });

    it('a poll that fails half-way through the calls loses none of them', async () => {
      // 600 calls dialed at once: the first poll reads several pages, and its third fails.
      const s = await start({ contacts: 600, callSteps: () => 0 });
      s.failNext(1, 500, /^\/calls$/, 2);
      const r = await watch(['watch', s.campaign.id, '--json'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      expect(r.stderr.match(/warning: poll failed/g)).toHaveLength(1);
      const calls = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'call');
      expect(calls.map((c) => c.call_id).sort()).toEqual(s.campaign.allCallIds().sort());
    });

    it('rides out server errors the client retries (503) without a warning', async () => {
      const s = await start({ contacts: 60, dialPerStep: 20 });
      s.failNext(2, 503, /^\/calls$/);
      const r = await watch(['watch', s.campaign.id, '--json'], { env: env(s) });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      const calls = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'call');
      expect(calls).toHaveLength(60);
    });

    it('shows the warning inside the live view on a terminal', async () => {
      const s = await start({ contacts: 30, dialPerStep: 10 });
      s.failNext(1, 500, /^\/campaigns\//);
      const r = await watch(['watch', s.campaign.id], { env: env(s), tty: { columns: 100, rows: 30 } });
      expect(r.exitCode).toBe(0);
      expect(stripAnsi(r.stdout)).toContain('⚠ poll failed: GET /campaigns/');
      expect(r.stderr).toBe('');
    });
  });
});

describe('against the sandbox', () => {
  /**
   * `watch` end to end against the sandbox: the built binary in JSON and plain modes, and
   * the live view in process with fake terminal streams (real time, the sandbox's fast clock).
   */
  let h: Harness;
  let agentId = '';

  beforeAll(async () => {
    h = await harness({ timeScale: 600, seed: 11 });
    const agent = await api('POST', '/agents', {
      name: 'Renewals desk', voice_name: 'Priya', greeting: 'Namaste!', call_purpose: 'Renewals',
      prompt: 'Ask whether the customer wants to renew.', tools: ['schedule_callback'],
    });
    agentId = agent.id;
  });
  afterAll(async () => h.close());

  const api = (method: string, path: string, body?: unknown) => ok(h.api, method, path, body);

  async function campaign(contacts: number, launch = true): Promise<string> {
    const c = await api('POST', '/campaigns/json', {
      name: `Renewals ${contacts}`,
      agent_id: agentId,
      contacts: Array.from({ length: contacts }, (_, i) => ({ phone_number: `+9198${String(7000000 + i).padStart(8, '0')}`, name: `C${i}`, extra: { i } })),
    });
    if (launch) await api('POST', `/campaigns/${c.id}/launch`);
    return c.id;
  }

  /** The campaign's calls as the server lists them, by call_id (a listing may repeat an item). */
  describe('watch against the sandbox', () => {
    it('--json: every finished call exactly once, and a summary equal to the campaign', async () => {
      const id = await campaign(150);
      const r = await h.run(['watch', id, '--json', '--interval', '0.1']);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      const calls = events.filter((e) => e.type === 'call');
      const server = await allCalls(h.api, `campaign_id=${id}`);
      expect(calls.map((c) => c.call_id).sort()).toEqual(server.map((c) => c.call_id).sort());
      const done = events.at(-1);
      expect(done.type).toBe('completed');
      const final = await api('GET', `/campaigns/${id}`);
      expect(done.summary.contacts_by_status).toEqual(final.contacts_by_status);
      expect(done.summary.total_contacts).toBe(150);
      const outcomes: Record<string, number> = {};
      for (const c of server) {
        const label = c.outcome ?? c.end_reason ?? c.status;
        outcomes[label] = (outcomes[label] ?? 0) + 1;
      }
      expect(done.summary.outcomes).toEqual(outcomes);
      expect(done.summary.connected).toBe(final.contacts_by_status.completed);
    });

    it('waits for a draft to be launched, then follows it to completion', async () => {
      const id = await campaign(20, false);
      const child = execa(process.execPath, [BIN, 'watch', id, '--interval', '0.1'], { reject: false, extendEnv: false, env: h.env });
      // Launch once the watcher has seen the draft.
      while (!h.sandbox.requests.some((q) => q.path === `/campaigns/${id}` && q.method === 'GET')) await new Promise((r) => setTimeout(r, 20));
      await api('POST', `/campaigns/${id}/launch`);
      const r = await child;
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toContain('is a draft: it has not been launched');
      expect(r.stdout.split('\n').filter((l) => l.startsWith('call  '))).toHaveLength(20);
      expect(r.stdout).toContain('Campaign "Renewals 20" completed: 20 contacts, 20 finished calls');
    });

    it('--fail-if decides the exit code from the finished campaign', async () => {
      const id = await campaign(60);
      const first = await h.run(['watch', id, '--json', '--interval', '0.1']);
      expect(first.exitCode).toBe(0);
      const counts = (await api('GET', `/campaigns/${id}`)).contacts_by_status;
      const atLine = await h.run(['watch', id, '--fail-if', `no_answer>=${counts.no_answer}`]);
      expect(atLine.exitCode).toBe(1);
      expect(atLine.stderr).toContain(`crossed --fail-if: no_answer>=${counts.no_answer}`);
      const below = await h.run(['watch', id, '--fail-if', `no_answer>${counts.no_answer},completed<1%`]);
      expect(below.exitCode).toBe(0);
      const bad = await h.run(['watch', id, '--fail-if', 'no_answer>>1']);
      expect(bad.exitCode).toBe(2);
    });

    it('--timeout is exit 1 with a message', async () => {
      const id = await campaign(5, false);
      const r = await h.run(['watch', id, '--timeout', '0.3', '--interval', '0.1']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('timed out after 0.3s: campaign "Renewals 5" is still draft (0 of 5 contacts finished)');
    });

    it('a campaign that does not exist is exit 4', async () => {
      const r = await h.run(['watch', '7d7c1c55-0000-4000-8000-000000000000']);
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain('no campaign with id 7d7c1c55-0000-4000-8000-000000000000');
    });

    it('on a terminal: redraws to completion, leaves the summary on screen and the cursor shown', async () => {
      const id = await campaign(80);
      const r = await run(['watch', id, '--interval', '0.05'], {
        env: { VOICECTL_BASE_URL: h.sandbox.url, VOICECTL_API_KEY: h.sandbox.apiKey },
        tty: { stdout: true, stderr: true, columns: 90, rows: 30 },
        realTime: true,
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.startsWith('\x1b[?25l')).toBe(true);
      expect(r.stdout.endsWith('\x1b[?25h')).toBe(true);
      const text = finalScreen(r.stdout).map(stripAnsi).join('\n');
      expect(text).toContain('Campaign Renewals 80  completed');
      expect(text).toContain('80/80 finished');
      expect(text).toContain('Campaign "Renewals 80" completed: 80 contacts, 80 finished calls');
      expect(text).toMatch(/Connect rate {6}\d+\.\d% \(\d+ of 80\)/);
      expect(text).toMatch(/Average duration {2}\d+m \d\ds per connected call/);
    });
  });
});

describe('--serve', () => {
  /**
   * `watch ID --serve`: the live report page on 127.0.0.1 under a token. Opened in headless
   * Chromium before the campaign is launched, it shows a call within 2 seconds of the
   * service having it finished; any address without the token is 404; Ctrl-C stops it.
   */
  let h: Harness;

  /** The sandbox's JSON answer through the factory's client; a refusal fails the test. */
  async function api(method: string, path: string, body?: unknown): Promise<any> {
    const res = await clientFor(h.sandbox)(method, path, body);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  beforeAll(async () => {
    h = await harness({ timeScale: 60, seed: 5 });
  });
  afterAll(async () => h?.close());

  describe('voicectl watch --serve', () => {
    /** The page's address, once `watch --serve` prints it (rejects if it exits first). */
    const servedUrl = (child: ReturnType<typeof execa>) => new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /^(http:\/\/127\.0\.0\.1:\d+\/[\w-]{20,}\/)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      void child.then((r) => reject(new Error(`watch --serve exited ${r.exitCode}: ${r.stderr}`)));
    });

    it('sends a Content-Security-Policy that allows the page\'s own script (by hash) and stream, and nothing else', async () => {
      const agent = await api('POST', '/agents', { name: 'Policy desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: [] });
      const campaign = await api('POST', '/campaigns/json', { name: 'Policy', agent_id: agent.id, contacts: [{ phone_number: '+919570000001', name: 'Asha' }] });
      const child = execa(process.execPath, [BIN, 'watch', campaign.id, '--serve'], { env: h.env, extendEnv: false, reject: false });
      try {
        const url = await servedUrl(child);
        const served = await fetch(url);
        const policy = served.headers.get('content-security-policy') ?? '';
        expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
        const html = await served.text();
        // The page's one script is the one the hash allows; it loads nothing from elsewhere.
        const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
        expect(scripts).toHaveLength(1);
        expect(policy).toContain(`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`);
        expect(html).not.toMatch(/<script\s+src|<link\s|<iframe|<form/i);
        expect(html).toContain("new EventSource('events')");
      } finally {
        child.kill('SIGKILL');
      }
    }, 60_000);

    it('serves the live page under a token, shows a finished call within 2 s, 404 without the token, stops on Ctrl-C', async (ctx) => {
      needs(ctx, 'chromium');
      const agent = await api('POST', '/agents', { name: 'Live desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: [] });
      const campaign = await api('POST', '/campaigns/json', {
        name: 'Live', agent_id: agent.id,
        contacts: Array.from({ length: 4 }, (_, i) => ({ phone_number: `+9195${String(7000 + i).padStart(8, '0')}`, name: `Live ${i}` })),
      });
      const child = execa(process.execPath, [BIN, 'watch', campaign.id, '--serve'], { env: h.env, extendEnv: false, reject: false });
      try {
        const url = await servedUrl(child);
        const { origin, pathname } = new URL(url);
        expect((await fetch(`${origin}/`)).status).toBe(404);
        expect((await fetch(`${origin}/events`)).status).toBe(404);
        expect((await fetch(`${origin}/${'x'.repeat(32)}/`)).status).toBe(404);
        const served = await fetch(`${origin}${pathname}`);
        expect(served.status).toBe(200);
        // A policy that forbids all the page does not use: its one script by hash, no frames, forms or other origins.
        const policy = served.headers.get('content-security-policy') ?? '';
        expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);

        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(String(e)));
          // Anything the page does that the header's policy forbids shows here (and the live update below would not come).
          page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) errors.push(m.text()); });
          await page.goto(url);
          expect(await page.locator('tr.call').count()).toBe(0);
          await api('POST', `/campaigns/${campaign.id}/launch`);
          let finished: any;
          while (!finished) {
            finished = (await api('GET', `/calls?campaign_id=${campaign.id}`)).calls.find((c: any) => c.end_time);
            if (!finished) await new Promise((r) => setTimeout(r, 50));
          }
          await page.locator(`tr.call[data-call="${finished.call_id}"]`).waitFor({ timeout: 2000 });
          expect(errors).toEqual([]);
        } finally {
          await browser.close();
        }
        child.kill('SIGINT');
        const r = await child;
        expect(r.exitCode).toBe(130);
        await expect(fetch(url)).rejects.toThrow();
      } finally {
        child.kill('SIGKILL');
      }
    }, 60_000);
  });
});
