/**
 * `campaign run` against the sandbox under an injected clock: a 300-contact India/US/UK
 * list goes out in waves as each zone's window opens, and every call the sandbox placed
 * started and ended inside its contact's window.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localMinuteOf, placedCalls, simWorldForFile, threeZoneContacts, writeContacts } from './sim.js';

// 07:00 UTC: India open (until 15:30 UTC), London from 09:00 UTC, New York from 14:00 UTC.
// Every real millisecond is three simulated seconds here, so the gaps are wide enough that
// a slow machine cannot carry the clock past an opening before the run reaches it (the
// wait before New York is 7 simulated hours, 8 real seconds), and no wave is near a
// window's close.
const w = simWorldForFile('voicectl-run-', { startAt: '2026-01-15T07:00:00Z', timeScale: 3000 });

describe('campaign run', () => {
  it('releases a three-zone list in waves, each contact dialed once and only inside its window', async () => {
    const file = writeContacts(w.dir, 'three.json', threeZoneContacts(100));
    const r = await w.run(['campaign', 'run', '--name', 'Sun', '--agent', w.agentId, '--contacts', file, '--wave-size', '60', '--yes', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const calls = placedCalls(w.sandbox);
    expect(calls).toHaveLength(300);
    expect(new Set(calls.map((c) => c.phone)).size).toBe(300);
    for (const c of calls) {
      const start = localMinuteOf(c.phone, c.start);
      const end = localMinuteOf(c.phone, c.end!);
      expect(start, `${c.phone} started at local minute ${start}`).toBeGreaterThanOrEqual(9 * 60);
      expect(end, `${c.phone} ended at local minute ${end}`).toBeLessThan(21 * 60);
      expect(end).toBeGreaterThanOrEqual(start);
    }
    const summary = JSON.parse(r.stdout);
    expect(summary.state).toBe('finished');
    // A wave whose window closed between its create and its launch stays an undialed draft ("abandoned").
    const launched = summary.waves.filter((x: { state: string }) => x.state === 'done');
    expect(launched.length).toBeGreaterThanOrEqual(3);
    expect(new Set(calls.map((c) => c.campaign)).size).toBe(launched.length);
    expect(summary.contacts).toEqual({ done: 300 });
    const journal = JSON.parse(readFileSync(join(w.dir, 'three.run.json'), 'utf8'));
    expect(journal.waves.every((x: { state: string }) => x.state === 'done' || x.state === 'abandoned')).toBe(true);
    // The zones open hours apart: the run waits between them.
    expect(r.stderr).toContain('No contact is inside its calling window');
  }, 60_000);

  it('a per-country window is obeyed by the calls placed', async () => {
    const file = writeContacts(w.dir, 'us.json', threeZoneContacts(10).filter((c) => c.phone_number.startsWith('+1')));
    const earlier = new Set(placedCalls(w.sandbox).map((c) => c.campaign));
    const r = await w.run(['campaign', 'run', '--name', 'US', '--agent', w.agentId, '--contacts', file, '--calling-hours', 'US=12:00-13:00', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const calls = placedCalls(w.sandbox).filter((c) => !earlier.has(c.campaign));
    expect(calls).toHaveLength(10);
    for (const c of calls) {
      expect(localMinuteOf(c.phone, c.start)).toBeGreaterThanOrEqual(12 * 60);
      expect(localMinuteOf(c.phone, c.end!)).toBeLessThan(13 * 60);
    }
  }, 60_000);
});
