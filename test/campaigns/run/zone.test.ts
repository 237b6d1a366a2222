/**
 * Every time of a run a person reads is in the user's zone (--tz, VOICECTL_TZ, the
 * profile's timezone), named: the forecast, the wave table of --dry-run, the confirmation.
 * --json keeps UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.js';
import { simWorld, writeContacts, type SimWorld } from './sim.js';

const tmp = tempDir('voicectl-run-zone-');
let w: SimWorld;
beforeAll(async () => {
  // 18:00 UTC: India's window (09:00-21:00) opens at 03:30 UTC, 22:30 in New York, 09:00 in India.
  w = await simWorld(tmp.dir, { startAt: '2026-01-15T18:00:00Z', timeScale: 1 });
});
afterAll(async () => {
  await w.close();
  tmp.remove();
});

const india = [{ phone_number: '+919876500011', name: 'A' }, { phone_number: '+919876500012', name: 'B' }];
const UTC_TIME = /\d{4}-\d\d-\d\d \d\d:\d\d UTC/;

describe('campaign run times in the user\'s zone', () => {
  it('--dry-run with --tz: the forecast and the wave table in that zone, none in UTC', async () => {
    const file = writeContacts(tmp.dir, 'tz.json', india);
    const r = await w.run(['campaign', 'run', '--name', 'Zone', '--agent', w.agentId, '--contacts', file, '--dry-run', '--tz', 'America/New_York']);
    expect(r.exitCode, r.stderr).toBe(0);
    // The forecast wraps at 80 columns off a terminal: read it with its lines joined.
    const forecast = r.stderr.replace(/\n +/g, ' ');
    expect(forecast).toContain('opens 2026-01-15 22:30 EST (09:00 local), closes 2026-01-16 10:30 EST');
    expect(forecast).toContain('the first at 2026-01-15 22:30 EST');
    expect(r.stdout).toMatch(/^1\s+2026-01-15 22:30 EST\s+2$/m);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(UTC_TIME);
  });

  it('VOICECTL_TZ does the same, and without --yes the refusal names the finish in that zone', async () => {
    const file = writeContacts(tmp.dir, 'env.json', india);
    const r = await w.run(['campaign', 'run', '--name', 'Zone env', '--agent', w.agentId, '--contacts', file], { env: { ...w.env, VOICECTL_TZ: 'Asia/Kolkata' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.replace(/\n +/g, ' ')).toContain('opens 2026-01-16 09:00 IST (09:00 local)');
    expect(r.stderr).toMatch(/finishing about 2026-01-16 09:06 IST/);
    expect(r.stderr).not.toMatch(UTC_TIME);
  });

  it('--json keeps UTC', async () => {
    const file = writeContacts(tmp.dir, 'json.json', india);
    const r = await w.run(['campaign', 'run', '--name', 'Zone json', '--agent', w.agentId, '--contacts', file, '--dry-run', '--json', '--tz', 'America/New_York']);
    expect(r.exitCode, r.stderr).toBe(0);
    const f = JSON.parse(r.stdout).forecast;
    expect(f.waves[0].at).toBe('2026-01-16T03:30:00.000Z');
    expect(f.zones[0].opens).toBe('2026-01-16T03:30:00.000Z');
  });
});
