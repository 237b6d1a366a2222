/**
 * Closing windows first: a wave is filled by the earliest window close, then by row, so a
 * contact with minutes left goes in the next wave instead of waiting for tomorrow (or
 * expiring at the deadline). The forecast says why a wave holds fewer than the wave size.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localMinute } from '../../../src/hours/calling-hours.js';
import type { RunContact } from '../../../src/campaigns/run/journal.js';
import { chooseWave, Planner, simulate } from '../../../src/campaigns/run/plan.js';
import type { RunPolicy } from '../../../src/campaigns/run/policy.js';
import { placedCalls, simWorldForFile, writeContacts } from './sim.js';

// 06:39 UTC: 20:39 in Honolulu (its 09:00-21:00 window closes in 21 minutes), 12:09 in India.
const NOW = Date.parse('2026-01-15T06:39:00Z');
const HONOLULU = '+18085550100';
const indiaNumbers = (n: number) => Array.from({ length: n }, (_, i) => `+9198765${String(60_000 + i)}`);
const waiting = (phones: string[]): RunContact[] => phones.map((p, i) => ({ row: i + 2, phone_number: p, state: 'waiting', attempts: 0, waves: [] }));
const policy = (o: Partial<RunPolicy> = {}): RunPolicy => ({
  windows: { default: '09:00-21:00' }, wave_size: 2, attempts: 1, retry_after_ms: 7_200_000, retry_on: ['no_answer'], wave_length_ms: 6 * 60_000, ...o,
});

describe('filling a wave', () => {
  it('puts the contact whose window closes in 21 minutes in the next wave, ahead of earlier rows', () => {
    expect(localMinute('Pacific/Honolulu', NOW)).toBe(20 * 60 + 39);
    const contacts = waiting([...indiaNumbers(4), HONOLULU]);
    const choice = chooseWave(new Planner(contacts, policy()), contacts, {}, NOW);
    expect(choice.take).toEqual([4, 0]);
  });

  it('keeps row order among contacts whose windows close together', () => {
    const contacts = waiting(indiaNumbers(5));
    expect(chooseWave(new Planner(contacts, policy({ wave_size: 3 })), contacts, {}, NOW).take).toEqual([0, 1, 2]);
  });

  it('with a deadline tonight, the Honolulu contact is dialed, not expired', () => {
    const sim = simulate(waiting([...indiaNumbers(4), HONOLULU]), policy({ deadline: '2026-01-15T12:00:00Z' }), {}, NOW);
    expect(sim.expire).toBe(0);
    expect(sim.waves.map((w) => w.contacts)).toEqual([2, 2, 1]);
  });

  it.each([
    ['the cap', policy({ wave_size: 10, daily_cap: 3, day_zone: 'Asia/Kolkata' }), waiting(indiaNumbers(5)), 'cap'],
    ['windows closing before the wave would end', policy({ wave_size: 10, wave_length_ms: 30 * 60_000 }), waiting([...indiaNumbers(2), HONOLULU]), 'closing'],
    ['the deadline', policy({ wave_size: 10, deadline: '2026-01-15T10:00:00Z' }), waiting([...indiaNumbers(2), '+12125550199']), 'deadline'],
    ['windows not yet open', policy({ wave_size: 10 }), waiting([...indiaNumbers(2), '+12125550199']), 'windows'],
  ])('says a wave is small because of %s', (_label, p, contacts, why) => {
    const choice = chooseWave(new Planner(contacts, p), contacts, {}, NOW);
    expect(choice.small).toBe(why);
  });

  it('says nothing of a full wave, or of the last one', () => {
    const contacts = waiting(indiaNumbers(3));
    const planner = new Planner(contacts, policy());
    expect(chooseWave(planner, contacts, {}, NOW).small).toBeUndefined();
    const last = waiting(indiaNumbers(1));
    expect(chooseWave(new Planner(last, policy()), last, {}, NOW).small).toBeUndefined();
  });
});

// 20:30 in Honolulu: its window closes in half an hour (less by the time the run starts).
const w = simWorldForFile('voicectl-run-closing-', { startAt: '2026-01-15T06:30:00Z', timeScale: 100 });

describe('campaign run with a window about to close', () => {
  it('dials the contact whose window is about to close in the next wave, ahead of eight earlier rows; the forecast says why a wave is small', async () => {
    // In row order it would go in the fifth wave, 24 minutes on: too late, tomorrow.
    const file = writeContacts(w.dir, 'closing.json', [...indiaNumbers(8), HONOLULU].map((p, i) => ({ phone_number: p, name: `C${i}` })));
    const args = ['campaign', 'run', '--name', 'Closing', '--agent', w.agentId, '--contacts', file, '--wave-size', '2'];
    const plan = await w.run([...args, '--dry-run', '--json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).forecast.waves.map((x: { contacts: number }) => x.contacts)).toEqual([2, 2, 2, 2, 1]);
    const capped = await w.run([...args, '--daily-cap', '3', '--dry-run']);
    expect(capped.stdout).toMatch(/^2\s+\S+ \S+ \S+\s+1\s+the daily cap$/m);

    const r = await w.run([...args, '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const j = JSON.parse(readFileSync(join(w.dir, 'closing.run.json'), 'utf8'));
    const first = j.waves.find((x: { state: string }) => x.state === 'done');
    expect(first.contacts.map((i: number) => j.contacts[i].phone_number)).toContain(HONOLULU);
    const call = placedCalls(w.sandbox).find((c) => c.phone === HONOLULU)!;
    expect(localMinute('Pacific/Honolulu', call.start)).toBeLessThan(21 * 60);
  }, 60_000);
});
