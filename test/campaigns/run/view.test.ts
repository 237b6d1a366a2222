/**
 * What a person at a terminal sees while a run waits: one status line redrawn in place,
 * with the waves so far, contacts by state, and the next opening in its zone's local time
 * and in the user's zone (--tz; UTC here unless given). Off a terminal the same run prints
 * one plain line per event, stamped in the user's zone.
 */
import { describe, expect, it } from 'vitest';
import { simWorldForFile, writeContacts } from './sim.js';

// 18:00 UTC: 23:30 in India, whose window opens at 03:30 UTC.
const w = simWorldForFile('voicectl-run-view-', { startAt: '2026-01-15T18:00:00Z', timeScale: 2000 });

const india = [{ phone_number: '+919876500001', name: 'A' }, { phone_number: '+919876500002', name: 'B' }];

describe('campaign run, waiting for a window', () => {
  it('redraws a status line on a terminal with the next opening in local time and the user\'s (UTC)', async () => {
    const file = writeContacts(w.dir, 'tty.json', india);
    const running = w.start(['campaign', 'run', '--name', 'View', '--agent', w.agentId, '--contacts', file, '--yes'], { tty: { stdout: true, stderr: true, columns: 120 } });
    // Drawn, then erased and drawn again in place.
    await running.waitForOutput('\r\x1b[K0 waves · 2 waiting · next: Asia/Kolkata at 09:00 local (2026-01-16 03:30 UTC)', 'stderr');
    expect(await running.interrupt()).toBe(130);
    expect(running.stderr()).toContain('Paused: no further wave is released; no call is in flight.');
  });

  it('gives the opening in the user\'s zone (--tz), not UTC, on the status line', async () => {
    const file = writeContacts(w.dir, 'tty-tz.json', india);
    const running = w.start(['campaign', 'run', '--name', 'View NY', '--agent', w.agentId, '--contacts', file, '--yes', '--tz', 'America/New_York'], { tty: { stdout: true, stderr: true, columns: 160 } });
    await running.waitForOutput('next: Asia/Kolkata at 09:00 local (2026-01-15 22:30 EST)', 'stderr');
    expect(await running.interrupt()).toBe(130);
    expect(running.stderr()).not.toMatch(/\d\d:\d\d UTC/);
  });

  it('prints one plain line per event elsewhere', async () => {
    const file = writeContacts(w.dir, 'log.json', india);
    const running = w.start(['campaign', 'run', '--name', 'Log', '--agent', w.agentId, '--contacts', file, '--yes']);
    await running.waitForOutput('No contact is inside its calling window; the next wave can go at 2026-01-16 03:30 UTC.', 'stderr');
    expect(await running.interrupt()).toBe(130);
    expect(running.stderr()).not.toContain('\x1b[K');
    expect(running.stderr()).toMatch(/^2026-01-1\d \d\d:\d\d UTC {2}No contact is inside/m);
  });
});
