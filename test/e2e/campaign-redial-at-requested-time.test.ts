/**
 * `campaign redial --outcome callback_scheduled --at-requested-time` end to end: a
 * campaign run to completion in the sandbox with an agent that schedules callbacks, then
 * a campaign run of its callbacks, each held until the time the customer asked for. The
 * built voicectl runs on the sandbox's simulated clock (test/campaigns/run/child.cjs), so
 * a callback asked for "tomorrow at 4 pm" comes round in seconds: before that time it is
 * not dialed (the run holds it, and after Ctrl-C the journal still holds it), after it is.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localMinute } from '../../src/hours/calling-hours.js';
import { requestedTime } from '../../src/reports/requested-time.js';
import { harness, type Harness } from '../helpers/cli.js';
import { finishedCampaign } from '../helpers/finished-campaign.js';
import { tempDir } from '../helpers/temp.js';

const CHILD = fileURLToPath(new URL('../campaigns/run/child.cjs', import.meta.url));
const tmp = tempDir('voicectl-callbacks-');
let h: Harness;
let id = '';
/** The callbacks asked for "tomorrow at 4 pm", with that time; the other callbacks' numbers (left out with --exclude). */
let fourPm: Array<{ phone: string; at: number }> = [];
let exclude = '';

beforeAll(async () => {
  // 09:30 in India: the calls end that morning, so "tomorrow at 4 pm" is the next day, about 30 simulated hours on.
  h = await harness({ timeScale: 6000, seed: 31, startAt: '2026-01-15T04:00:00Z' });
  const c = await finishedCampaign(h.sandbox, { name: 'Callbacks', contacts: 80, first: 5000 });
  id = c.id;
  const callbacks = c.calls.filter((x) => x.end_time && x.outcome === 'callback_scheduled');
  fourPm = callbacks.filter((x) => /tomorrow at 4 pm/.test(x.summary))
    .map((x) => ({ phone: x.phone_number, at: requestedTime(x.summary, Date.parse(x.end_time), 'Asia/Kolkata').at! }));
  exclude = join(tmp.dir, 'others.txt');
  writeFileSync(exclude, `${callbacks.filter((x) => !/tomorrow at 4 pm/.test(x.summary)).map((x) => x.phone_number).join('\n')}\n`);
}, 90_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

/** The built voicectl on the sandbox's clock. */
function child(args: string[]) {
  const clock = h.sandbox.world.clock.anchors();
  return execa(process.execPath, [CHILD, ...args], {
    reject: false, extendEnv: false, cwd: tmp.dir,
    env: { ...h.env, SIM_START: String(clock.simStart), SIM_REAL_START: String(clock.realStart), SIM_SCALE: String(clock.scale) },
  });
}

/** Calls the sandbox placed to these numbers outside the original campaign. */
function redialed(): Array<{ phone: string; start: number }> {
  const org = h.sandbox.world.org('org_sandbox');
  const phones = new Set(fourPm.map((c) => c.phone));
  return Object.values(org.calls).filter((c) => c.campaign_id !== id && phones.has(c.phone_number)).map((c) => ({ phone: c.phone_number, start: Date.parse(c.start_time) }));
}

const redial = ['campaign', 'redial', '', '--outcome', 'callback_scheduled', '--at-requested-time', '--calling-hours', '10:00-19:00'];
const args = (...more: string[]) => [...redial.map((a) => a || id), '--exclude', exclude, ...more];

describe('voicectl campaign redial --at-requested-time', () => {
  it('the sandbox gave some callbacks for "tomorrow at 4 pm"', () => {
    expect(fourPm.length).toBeGreaterThan(0);
    // 16:00 in India on the 16th, inside 10:00-19:00.
    for (const c of fourPm) expect(new Date(c.at).toISOString()).toBe('2026-01-16T10:30:00.000Z');
  });

  it('--dry-run --json: each held until its requested time, the wave at that time; nothing created, no journal', async () => {
    const before = h.sandbox.requests.filter((q) => q.method !== 'GET').length;
    const r = await child(args('--dry-run', '--json'));
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.held.map((c: { phone_number: string }) => c.phone_number).sort()).toEqual(fourPm.map((c) => c.phone).sort());
    for (const c of plan.held) expect(c).toMatchObject({ not_before: '2026-01-16T10:30:00.000Z', zone: 'Asia/Kolkata', requested_as: expect.stringContaining('tomorrow at 4 pm') });
    expect(plan.forecast.waves).toEqual([{ n: 1, at: '2026-01-16T10:30:00.000Z', contacts: fourPm.length }]);
    expect(plan.policy.windows).toEqual({ default: '10:00-19:00' });
    expect(h.sandbox.requests.filter((q) => q.method !== 'GET').length).toBe(before);
    expect(existsSync(join(tmp.dir, `campaign-${id}.callbacks.run.json`))).toBe(false);
    // The forecast wraps at 80 columns off a terminal: its lines joined.
    expect(r.stderr.replace(/\n +/g, ' ')).toContain('voicectl must keep running (or be resumed) to release each wave at its time, and a released wave cannot be stopped');
  });

  it('--dry-run shows the waves and the held contacts in the user\'s zone', async () => {
    const r = await child(args('--dry-run', '--tz', 'Asia/Kolkata'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^1\s+2026-01-16 16:00 IST\s+\d+$/m);
    expect(r.stdout).toContain('2026-01-16 16:00 IST');
    expect(r.stdout).toContain('tomorrow at 4 pm');
    expect(r.stderr).toContain('Dry run: nothing was created or launched');
  });

  it('holds a "tomorrow at 4 pm" callback until then: not dialed before (Ctrl-C leaves it held), dialed after, inside the window', async () => {
    const journal = join(tmp.dir, 'callbacks.run.json');
    const running = child(args('--yes', '--journal', journal));
    let err = '';
    running.stderr!.on('data', (b: Buffer) => { err += b.toString(); });
    const deadline = Date.now() + 30_000;
    while (!/Holding \d+ contacts? until the time they asked to be called/.test(err)) {
      if (Date.now() > deadline || running.exitCode !== null) throw new Error(`the run did not hold the callbacks:\n${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(err).toContain('the next wave can go at 2026-01-16 10:30 UTC');
    expect(err).toContain('voicectl releases each wave itself when its time comes');
    running.kill('SIGINT');
    const stopped = await running;
    expect(stopped.exitCode).toBe(130);
    expect(redialed()).toEqual([]);
    const paused = JSON.parse(readFileSync(journal, 'utf8'));
    expect(paused.state).toBe('paused');
    expect(paused.version).toBe(2);
    expect(paused.waves).toEqual([]);

    const status = await child(['campaign', 'run', 'status', journal, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'paused', next_wave_at: '2026-01-16T10:30:00.000Z' });

    const resumed = await child(['campaign', 'run', '--resume', journal, '--yes', '--json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const calls = redialed();
    expect(calls.map((c) => c.phone).sort()).toEqual(fourPm.map((c) => c.phone).sort());
    for (const c of calls) {
      expect(c.start).toBeGreaterThanOrEqual(Date.parse('2026-01-16T10:30:00Z'));
      const m = localMinute('Asia/Kolkata', c.start);
      expect(m).toBeGreaterThanOrEqual(10 * 60);
      expect(m).toBeLessThan(19 * 60);
    }
    const summary = JSON.parse(resumed.stdout);
    expect(summary.state).toBe('finished');
    for (const w of summary.waves) expect(Date.parse(w.launched_at)).toBeGreaterThanOrEqual(Date.parse('2026-01-16T10:30:00Z'));
  }, 90_000);

  it('with no callback left to hold, starts no run and writes no journal', async () => {
    const all = join(tmp.dir, 'all.txt');
    writeFileSync(all, `${readFileSync(exclude, 'utf8')}${fourPm.map((c) => c.phone).join('\n')}\n`);
    const r = await h.run(['campaign', 'redial', id, '--outcome', 'callback_scheduled', '--at-requested-time', '--exclude', all, '--yes', '--journal', join(tmp.dir, 'none.run.json')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('no run was started, nothing was sent');
    expect(existsSync(join(tmp.dir, 'none.run.json'))).toBe(false);
  });

  it('refuses --split with --at-requested-time, and --journal without it (exit 2)', async () => {
    const split = await h.run(args('--split'));
    expect(split.exitCode).toBe(2);
    expect(split.stderr).toContain('so it does not take --split');
    const journal = await h.run(['campaign', 'redial', id, '--journal', 'x.json']);
    expect(journal.exitCode).toBe(2);
    expect(journal.stderr).toContain('--journal goes with --at-requested-time');
  });
});
