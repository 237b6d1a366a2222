/**
 * The forecast of `campaign run`, and --dry-run: contacts per zone with their windows
 * (per-country overrides included), this agent's history, the waves and the expected
 * finish; only reads are sent. Without --yes off a terminal nothing is sent at all.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientFor, givenFinishedCampaign } from '../../helpers/given.js';
import { simWorldForFile, threeZoneContacts, writeContacts } from './sim.js';

const w = simWorldForFile('voicectl-run-forecast-', { startAt: '2026-01-15T02:00:00Z', timeScale: 200 });

const writes = () => w.sandbox.requests.filter((q) => q.method !== 'GET').length;

describe('campaign run --dry-run', () => {
  it('prints the forecast and the wave plan, sending nothing but reads', async () => {
    const file = writeContacts(w.dir, 'plan.json', threeZoneContacts(30));
    const before = writes();
    const r = await w.run(['campaign', 'run', '--name', 'Plan', '--agent', w.agentId, '--contacts', file, '--wave-size', '20',
      '--calling-hours', '10:00-19:00', '--calling-hours', 'US=08:00-20:00', '--dry-run', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes()).toBe(before);
    expect(existsSync(join(w.dir, 'plan.run.json'))).toBe(false);
    const plan = JSON.parse(r.stdout);
    expect(plan.policy.windows).toEqual({ default: '10:00-19:00', US: '08:00-20:00' });
    const f = plan.forecast;
    expect(f.contacts).toBe(90);
    const zones = Object.fromEntries(f.zones.map((z: { zone: string }) => [z.zone, z]));
    expect(zones['Asia/Kolkata']).toMatchObject({ contacts: 30, window: '10:00-19:00', opens_local: '10:00' });
    expect(zones['America/New_York']).toMatchObject({ contacts: 30, window: '08:00-20:00', opens_local: '08:00', country: 'US' });
    expect(f.history).toEqual({ calls: 0 });
    expect(f.waves.reduce((n: number, x: { contacts: number }) => n + x.contacts, 0)).toBe(90);
    expect(f.waves.length).toBeGreaterThanOrEqual(5);
    expect(Date.parse(f.expected_finish)).toBeGreaterThan(Date.parse(f.waves.at(-1).at));
    expect(r.stderr).toContain('This agent has no call history');
    expect(r.stderr).toContain('Dry run: nothing was created or launched');
  });

  it('uses the agent\'s past calls: connect rate, talk minutes, and a wave as long as its long calls', async () => {
    await givenFinishedCampaign(clientFor(w.sandbox), { agentId: w.agentId, contacts: 40 });
    const file = writeContacts(w.dir, 'hist.json', threeZoneContacts(10));
    const r = await w.run(['campaign', 'run', '--name', 'Hist', '--agent', w.agentId, '--contacts', file, '--dry-run', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const { forecast: f, policy } = JSON.parse(r.stdout);
    expect(f.history.calls).toBe(40);
    expect(f.history.connect_rate).toBeGreaterThan(0);
    expect(f.history.expected_talk_minutes).toBeGreaterThan(0);
    // The 90th percentile of these calls (at most 240 s) plus ringing, in whole minutes.
    expect(policy.wave_length_ms).toBeGreaterThanOrEqual(2 * 60_000);
    expect(policy.wave_length_ms).toBeLessThanOrEqual(5 * 60_000);
    expect(r.stderr).toMatch(/This agent's last 40 calls: \d+% connected/);
  });

  it('off a terminal without --yes, refuses (exit 2) stating the forecast, and sends nothing', async () => {
    const file = writeContacts(w.dir, 'ask.json', threeZoneContacts(5));
    const before = writes();
    const r = await w.run(['campaign', 'run', '--name', 'Ask', '--agent', w.agentId, '--contacts', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/This run dials up to 15 contacts in \d+ waves, finishing about .*: simulated calls in the sandbox, no balance used\. Pass --yes/);
    expect(writes()).toBe(before);
    expect(existsSync(join(w.dir, 'ask.run.json'))).toBe(false);
  });
});

describe('campaign run flags', () => {
  it.each([
    [['--calling-hours', '9-5'], '--calling-hours "9-5" is not a window of hours'],
    [['--retry-on', 'busy', '--attempts', '2'], '--retry-on "busy" is not a status'],
    [['--retry-after', '2h'], 'pass --attempts 2 or more as well'],
    [['--deadline', 'tomorrow'], '--deadline "tomorrow" is not a time'],
    [['--wave-size', '0'], '--wave-size'],
  ])('%j is a usage error before any request', async (flags, message) => {
    const file = writeContacts(w.dir, 'flags.json', threeZoneContacts(2));
    const before = w.sandbox.requests.length;
    const r = await w.run(['campaign', 'run', '--name', 'F', '--agent', w.agentId, '--contacts', file, ...flags, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(w.sandbox.requests.length).toBe(before);
  });
});

describe('the forecast fits the reader\'s width', () => {
  /** A three-zone run whose forecast has long lines: windows per country, a cap, retries, a deadline, a long name. */
  const args = (file: string) => ['campaign', 'run', '--name', 'Quarterly renewal reminders for the western region', '--agent', w.agentId, '--contacts', file,
    '--wave-size', '7', '--daily-cap', '25', '--attempts', '3', '--retry-after', '3h', '--retry-on', 'no_answer,failed', '--deadline', '36h',
    '--calling-hours', '10:00-19:00', '--calling-hours', 'US=08:00-20:00', '--calling-hours', 'GB=09:30-18:30', '--tz', 'America/Los_Angeles', '--dry-run'];
  /** The forecast's text with its line breaks undone, to check that wrapping lost nothing. */
  const unwrapped = (text: string) => text.replace(/\n +/g, ' ');

  it('off a terminal every line of a three-zone forecast is at most 80 columns, and nothing is lost', async () => {
    const file = writeContacts(w.dir, 'wide.json', threeZoneContacts(30));
    const r = await w.run(args(file));
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = [...r.stderr.split('\n'), ...r.stdout.split('\n')];
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const text = unwrapped(r.stderr);
    expect(text).toMatch(/Policy: waves of up to 7; each expected to last \d+ min; at most 25 a day \(America\/Los_Angeles days\); up to 3 attempts, 180 min apart, on no_answer, failed; nothing released after /);
    // The UK's mobiles are shared with the Crown Dependencies: their line names the zones, the longest line of all.
    for (const zone of ['Asia/Kolkata', 'America/New_York', 'one of 4 zones \\(Europe/Guernsey, Europe/Isle_of_Man …\\)']) expect(text).toMatch(new RegExp(`30  ${zone}  window [0-9:-]+: (open now|opens)`));
    // Lines were long enough to need wrapping: some line goes on below it.
    expect(r.stderr).toMatch(/\n {4,}\S/);
    expect(r.stdout).toContain('fewer because');
  });

  it('at a narrower terminal, at its width', async () => {
    const file = writeContacts(w.dir, 'narrow.json', threeZoneContacts(30));
    const r = await w.run(args(file), { tty: { stdout: true, stderr: true, columns: 60 } });
    expect(r.exitCode, r.stderr).toBe(0);
    const forecast = r.stderr.split('\n').filter((l) => !l.includes('Dry run'));
    for (const line of forecast) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(unwrapped(r.stderr)).toContain('Forecast for "Quarterly renewal reminders for the western region": 90 contacts to dial');
  });
});
