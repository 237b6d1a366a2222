/**
 * --daily-cap counts the days of the run's day zone (the user's, kept in the journal),
 * not UTC days: once a day's cap is used, the next batch goes at the start of the next
 * day in that zone, across a change of the clocks too, in the forecast and in the run.
 * New York's clocks go forward on 2026-03-08; India's never change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localMinute } from '../../../src/hours/calling-hours.js';
import type { RunContact } from '../../../src/campaigns/run/journal.js';
import { nextCapDay, simulate } from '../../../src/campaigns/run/plan.js';
import type { RunPolicy } from '../../../src/campaigns/run/policy.js';
import { wallClock } from '../../../src/util/time.js';
import { simWorldForFile, writeContacts } from './sim.js';

const india = (n: number) => Array.from({ length: n }, (_, i) => ({ phone_number: `+9198765${String(50_000 + i)}`, name: `India ${i}` }));
const newYork = (n: number) => Array.from({ length: n }, (_, i) => ({ phone_number: `+1212555${String(5000 + i)}`, name: `New York ${i}` }));
const waiting = (list: Array<{ phone_number: string }>): RunContact[] => list.map((c, i) => ({ row: i + 2, phone_number: c.phone_number, state: 'waiting', attempts: 0, waves: [] }));
const policy = (dayZone: string): RunPolicy => ({
  windows: { default: '09:00-21:00' }, wave_size: 500, daily_cap: 2, day_zone: dayZone, attempts: 1, retry_after_ms: 7_200_000, retry_on: ['no_answer'], wave_length_ms: 6 * 60_000,
});
const iso = (ms: number) => new Date(ms).toISOString();

// From New York: each day's batch at 00:00 in New York (05:00 UTC, 04:00 UTC once the clocks go forward).
const NEW_YORK_DAYS = ['2026-03-07T05:00:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'];
// From India: at 00:00 in India (18:30 UTC the day before), when New York is open (13:30 or 14:30 there).
const INDIA_DAYS = ['2026-03-06T18:30:00.000Z', '2026-03-07T18:30:00.000Z', '2026-03-08T18:30:00.000Z'];

describe('the day a daily cap counts', () => {
  it.each([
    ['America/New_York', '2026-03-06T05:30:00Z', '2026-03-07T05:00:00.000Z'],
    ['America/New_York', '2026-03-07T04:59:00Z', '2026-03-07T05:00:00.000Z'], // 23:59 the evening before
    ['America/New_York', '2026-03-08T06:00:00Z', '2026-03-09T04:00:00.000Z'], // a 23-hour day
    ['America/New_York', '2026-11-01T05:00:00Z', '2026-11-02T05:00:00.000Z'], // a 25-hour day
    ['Asia/Kolkata', '2026-03-06T18:00:00Z', '2026-03-06T18:30:00.000Z'],
    ['Asia/Kolkata', '2026-03-06T18:30:00Z', '2026-03-07T18:30:00.000Z'],
    ['UTC', '2026-03-06T18:00:00Z', '2026-03-07T00:00:00.000Z'],
  ])('in %s, after %s, begins at %s', (zone, at, next) => {
    expect(iso(nextCapDay(Date.parse(at), zone))).toBe(next);
  });

  it('from New York: a batch at the start of each New York day, across the change of the clocks', () => {
    const start = Date.parse('2026-03-06T05:30:00Z');
    const sim = simulate(waiting(india(8)), policy('America/New_York'), {}, start);
    expect(sim.waves.map((w) => [iso(w.at), w.contacts])).toEqual([[iso(start), 2], ...NEW_YORK_DAYS.map((d) => [d, 2])]);
  });

  it('from India: a batch at the start of each Indian day, New York\'s afternoon included', () => {
    const start = Date.parse('2026-03-06T18:00:00Z');
    const sim = simulate(waiting(newYork(8)), policy('Asia/Kolkata'), {}, start);
    expect(sim.waves.map((w) => [iso(w.at), w.contacts])).toEqual([[iso(start), 2], ...INDIA_DAYS.map((d) => [d, 2])]);
  });
});

/** Each wave's launch, and the journal's days. */
function launches(path: string): { at: number[]; days: Record<string, number> } {
  const j = JSON.parse(readFileSync(path, 'utf8'));
  return { at: j.waves.filter((x: { state: string }) => x.state === 'done').map((x: { launched_at: string }) => Date.parse(x.launched_at)), days: j.days };
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * A run of `list` capped at two a day, from `zone`: the forecast puts every batch after the
 * first at 00:00 of the next day there, and the run releases it then (soon after: the
 * clock runs fast) and counts the days there. The sandbox's clock runs from its start, so
 * the first day is read from the run rather than fixed.
 */
async function cappedRun(w: ReturnType<typeof simWorldForFile>, zone: string, list: Array<{ phone_number: string }>): Promise<number[]> {
  const file = writeContacts(w.dir, 'capped.json', list);
  const args = ['campaign', 'run', '--name', 'Capped', '--agent', w.agentId, '--contacts', file, '--daily-cap', '2', '--tz', zone];
  const plan = await w.run([...args, '--dry-run', '--json']);
  expect(plan.exitCode, plan.stderr).toBe(0);
  const waves = JSON.parse(plan.stdout).forecast.waves as Array<{ at: string; contacts: number }>;
  expect(waves.map((x) => x.contacts)).toEqual(list.map(() => 2).slice(0, list.length / 2));
  let date = wallClock(Date.parse(waves[0]!.at), zone).date;
  for (const x of waves.slice(1)) {
    date = dayAfter(date);
    expect(wallClock(Date.parse(x.at), zone), `forecast wave at ${x.at}`).toEqual({ date, time: '00:00:00' });
  }

  const r = await w.run([...args, '--yes', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).contacts).toEqual({ done: list.length });
  const done = launches(join(w.dir, 'capped.run.json'));
  const first = wallClock(done.at[0]!, zone).date;
  const dates = [first];
  while (dates.length < list.length / 2) dates.push(dayAfter(dates.at(-1)!));
  expect(done.days).toEqual(Object.fromEntries(dates.map((d) => [d, 2])));
  done.at.slice(1).forEach((at, i) => {
    const local = wallClock(at, zone);
    expect(local.date, `wave ${i + 2} at ${iso(at)}`).toBe(dates[i + 1]);
    // Within three hours (the clock runs 40,000 times fast, and a loaded machine is slow to
    // launch): the UTC day's start would be 05:30 in India, 19:00 the evening before in New York.
    expect(local.time < '03:00:00', `wave ${i + 2} at ${iso(at)} is ${local.time} in ${zone}, not at the start of the day`).toBe(true);
  });
  return done.at;
}

describe('a capped run from New York on the sandbox\'s clock', () => {
  // 00:10 on 5 March in New York (10:40 in India); the clocks go forward on 8 March.
  const w = simWorldForFile('voicectl-run-cap-ny-', { startAt: '2026-03-05T05:10:00Z', timeScale: 40_000 });
  it('releases each day\'s batch at the start of that New York day, in the forecast and the run, across the change of the clocks', async () => {
    const at = await cappedRun(w, 'America/New_York', india(10));
    // Midnight in New York is 05:00 UTC before the change and 04:00 UTC after: the run crossed it.
    expect(new Set(at.slice(1).map((t) => new Date(t).getUTCHours()))).toEqual(new Set([4, 5]));
  }, 60_000);
});

describe('a capped run from India on the sandbox\'s clock', () => {
  // 18:30 in India; New York opens at 14:00 UTC (19:30 in India), the same Indian day.
  const w = simWorldForFile('voicectl-run-cap-in-', { startAt: '2026-03-06T13:00:00Z', timeScale: 40_000 });
  it('releases each day\'s batch at the start of that Indian day (New York\'s afternoon), in the forecast and the run', async () => {
    const at = await cappedRun(w, 'Asia/Kolkata', newYork(8));
    for (const t of at.slice(1)) expect(localMinute('America/New_York', t)).toBeGreaterThanOrEqual(13 * 60);
  }, 60_000);
});
