/**
 * --deadline is read like every time typed on the command line: without an offset, in the
 * user's zone. A policy file may be run from any zone, so its deadline must name one.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { parseDeadline } from '../../../src/campaigns/run/policy.js';
import { parsePolicyFile } from '../../../src/campaigns/run/policy-file.js';

const NOW = Date.parse('2026-03-01T06:00:00Z');
const span = (v: string) => (/^\d+h$/.test(v) ? Number(v.slice(0, -1)) * 3_600_000 : undefined);

describe('parseDeadline', () => {
  it.each([
    ['2026-03-01T18:00', 'Asia/Kolkata', '2026-03-01T12:30:00.000Z'],
    ['2026-03-01 18:00', 'America/New_York', '2026-03-01T23:00:00.000Z'],
    ['2026-03-01T18:00', 'UTC', '2026-03-01T18:00:00.000Z'],
    ['2026-03-01T18:00Z', 'Asia/Kolkata', '2026-03-01T18:00:00.000Z'],
    ['2026-03-01T18:00+05:30', 'America/New_York', '2026-03-01T12:30:00.000Z'],
    ['36h', 'Asia/Kolkata', '2026-03-02T18:00:00.000Z'],
  ])('%s in %s is %s', (text, zone, iso) => {
    expect(parseDeadline(text, NOW, span, zone)).toBe(iso);
  });

  it('refuses a time that has passed in the user zone, though it lies ahead in UTC', () => {
    // 10:00 in Kolkata is 04:30 UTC, before NOW (06:00 UTC).
    expect(() => parseDeadline('2026-03-01T10:00', NOW, span, 'Asia/Kolkata')).toThrow(/has already passed/);
    expect(parseDeadline('2026-03-01T10:00', NOW, span, 'UTC')).toBe('2026-03-01T10:00:00.000Z');
  });

  it('names the zone it read the time in when the text is not a time', () => {
    const err = (() => { try { parseDeadline('tomorrow', NOW, span, 'Asia/Kolkata'); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain('"tomorrow" is not a time');
    expect(JSON.stringify(err)).not.toContain('UTC when no offset');
  });
});

describe('deadline in a policy file', () => {
  const opts = { span, now: NOW, dir: '/tmp' };
  it('must name its zone, since the file may be run from anywhere', () => {
    expect(() => parsePolicyFile('run.yaml', 'deadline: "2026-03-01T18:00"\n', opts)).toThrow(/names no zone/);
  });
  it.each(['"2026-03-01T18:00Z"', '"2026-03-01T18:00+05:30"', '36h'])('takes %s', (value) => {
    expect(parsePolicyFile('run.yaml', `deadline: ${value}\n`, opts).deadline).toBe(value.replace(/"/g, ''));
  });
});
