import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import {
  canonicalZone, clockTime, clockWithZone, formatDateTime, fromWallTime, LEGACY_ZONES, offsetText, parseTime, systemZone, timeOption,
  toQueryTime, wallDate, zoneAbbreviation, zoneOffsetMinutes, zoneOption,
} from '../../src/util/time.js';

const now = new Date('2024-05-10T12:00:00.000Z');
const iso = (v: string) => parseTime(v, now).toISOString();

describe('parseTime', () => {
  it('reads relative spans back from now', () => {
    expect(iso('90m')).toBe('2024-05-10T10:30:00.000Z');
    expect(iso('24h')).toBe('2024-05-09T12:00:00.000Z');
    expect(iso('7d')).toBe('2024-05-03T12:00:00.000Z');
    expect(iso('30s')).toBe('2024-05-10T11:59:30.000Z');
    expect(iso('2w')).toBe('2024-04-26T12:00:00.000Z');
    expect(iso('1.5h')).toBe('2024-05-10T10:30:00.000Z');
    expect(iso('3 days ago')).toBe('2024-05-07T12:00:00.000Z');
    expect(iso('now')).toBe('2024-05-10T12:00:00.000Z');
  });

  it('reads a date as midnight UTC', () => {
    expect(iso('2024-05-01')).toBe('2024-05-01T00:00:00.000Z');
  });

  it('reads a time without an offset as UTC', () => {
    expect(iso('2024-05-01T10:15')).toBe('2024-05-01T10:15:00.000Z');
    expect(iso('2024-05-01T10:15:30')).toBe('2024-05-01T10:15:30.000Z');
    expect(iso('2024-05-01 10:15:30.25')).toBe('2024-05-01T10:15:30.250Z');
  });

  it('honours Z and offsets', () => {
    expect(iso('2024-05-01T10:15:00Z')).toBe('2024-05-01T10:15:00.000Z');
    expect(iso('2024-05-01T10:15:00+05:30')).toBe('2024-05-01T04:45:00.000Z');
    expect(iso('2024-05-01T10:15:00-0200')).toBe('2024-05-01T12:15:00.000Z');
    expect(iso('2024-05-01T10:15:00+01')).toBe('2024-05-01T09:15:00.000Z');
  });

  it.each(['', 'yesterday', '5x', '-5m', '2024-13-01', '2024-02-30', '2024-05-01T25:00', '2024-05-01T10:61', '2024/05/01', '12345', '2024-05-01T10:00+25:00'])(
    'rejects %j as a usage error',
    (v) => {
      expect(() => parseTime(v, now)).toThrow(InvalidArgumentError);
    },
  );

  it('accepts a leap day only in a leap year', () => {
    expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(() => parseTime('2023-02-29', now)).toThrow(InvalidArgumentError);
  });
});

describe('timeOption', () => {
  it('reads the clock when the flag is parsed', () => {
    let t = now;
    const parse = timeOption(() => t);
    expect(parse('1h').in('UTC').toISOString()).toBe('2024-05-10T11:00:00.000Z');
    t = new Date('2024-06-01T00:00:00Z');
    expect(parse('1h').in('UTC').toISOString()).toBe('2024-05-31T23:00:00.000Z');
  });

  it('sends UTC with Z in queries', () => {
    expect(toQueryTime(parseTime('2024-05-01T10:15:00+05:30', now))).toBe('2024-05-01T04:45:00.000Z');
    expect(toQueryTime(undefined)).toBeUndefined();
  });
});

describe('times typed in a zone', () => {
  const at = (v: string, zone: string) => parseTime(v, now, zone).toISOString();

  it('reads a date as midnight in the zone, and a time without an offset as the zone\'s wall time', () => {
    expect(at('2026-11-26', 'Asia/Kolkata')).toBe('2026-11-25T18:30:00.000Z');
    expect(at('2026-11-26', 'America/New_York')).toBe('2026-11-26T05:00:00.000Z');
    expect(at('2026-07-01', 'America/New_York')).toBe('2026-07-01T04:00:00.000Z');
    expect(at('2026-11-26T15:00', 'Asia/Kolkata')).toBe('2026-11-26T09:30:00.000Z');
    expect(at('2026-11-26 09:30:15', 'Asia/Kathmandu')).toBe('2026-11-26T03:45:15.000Z');
  });

  it('keeps an explicit offset or Z whatever the zone, and spans are spans', () => {
    expect(at('2026-11-26T15:00Z', 'Asia/Kolkata')).toBe('2026-11-26T15:00:00.000Z');
    expect(at('2026-11-26T15:00-05:00', 'Asia/Kolkata')).toBe('2026-11-26T20:00:00.000Z');
    expect(at('90m', 'Asia/Kolkata')).toBe('2024-05-10T10:30:00.000Z');
  });

  it('reads a wall time that does not exist (spring forward) as the instant the clocks jumped, and a repeated one as its first', () => {
    // New York skipped 02:00-03:00 on 2026-03-08 and repeated 01:00-02:00 on 2026-11-01.
    expect(at('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(at('2026-03-08T03:00', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
    expect(at('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(fromWallTime('UTC', Date.UTC(2026, 0, 1))).toBe(Date.UTC(2026, 0, 1));
  });

  it('TypedTime reads the same text in whichever zone the command resolves', () => {
    const typed = timeOption(() => now)('2026-11-26');
    expect(typed.in('UTC').toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(typed.in('Asia/Kolkata').toISOString()).toBe('2026-11-25T18:30:00.000Z');
    expect(() => timeOption(() => now)('2026-11-31')).toThrow(InvalidArgumentError);
  });
});

describe('zone names', () => {
  it('are canonical: legacy ICU names become the current IANA ones, case and links resolved', () => {
    expect(canonicalZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalZone('asia/kolkata')).toBe('Asia/Kolkata');
    expect(canonicalZone(' Europe/Kiev ')).toBe('Europe/Kyiv');
    expect(canonicalZone('Asia/Saigon')).toBe('Asia/Ho_Chi_Minh');
    expect(canonicalZone('US/Eastern')).toBe('America/New_York');
    expect(canonicalZone('Etc/UTC')).toBe('UTC');
    expect(canonicalZone('UTC')).toBe('UTC');
  });

  it('every entry of the legacy table maps to a zone this engine knows, and its target is its own canonical name', () => {
    for (const [legacy, current] of Object.entries(LEGACY_ZONES)) {
      expect(canonicalZone(legacy), legacy).toBe(current);
      expect(canonicalZone(current), current).toBe(current);
    }
  });

  it.each(['', 'Mars/Olympus', 'IST+5', '+05:30', 'GMT+5:30', '5'])('refuses %j', (z) => {
    expect(canonicalZone(z)).toBeUndefined();
    expect(() => zoneOption(z)).toThrow(InvalidArgumentError);
  });

  it('the system zone is TZ when it names a zone, else what Intl says, canonical', () => {
    expect(systemZone({ TZ: 'Asia/Calcutta' })).toBe('Asia/Kolkata');
    expect(systemZone({ TZ: ':America/Chicago' })).toBe('America/Chicago');
    const fallback = systemZone({ TZ: 'not a zone' });
    expect(canonicalZone(fallback)).toBe(fallback);
  });
});

describe('times shown in a zone', () => {
  const t = Date.parse('2026-11-26T09:30:05Z');
  const summer = Date.parse('2026-07-01T12:00:00Z');

  it('offsets, wall clocks and date cells', () => {
    expect(zoneOffsetMinutes('Asia/Kolkata', t)).toBe(330);
    expect(zoneOffsetMinutes('America/New_York', t)).toBe(-300);
    expect(zoneOffsetMinutes('America/New_York', summer)).toBe(-240);
    expect(formatDateTime(t, 'Asia/Kolkata')).toBe('2026-11-26 15:00:05');
    expect(formatDateTime(t, 'UTC', { minutes: true })).toBe('2026-11-26 09:30');
    expect(formatDateTime(Date.parse('2026-11-26T20:00:00Z'), 'Asia/Tokyo')).toBe('2026-11-27 05:00:00');
    expect(clockTime(t, 'America/New_York')).toBe('04:30:05');
    expect(clockTime(undefined, 'UTC')).toBe('--:--:--');
    expect(wallDate(t, 'Asia/Kolkata').toISOString()).toBe('2026-11-26T15:00:05.000Z');
    expect(offsetText('Asia/Kolkata', t)).toBe('+05:30');
    expect(offsetText('America/New_York', t)).toBe('-05:00');
    expect(offsetText('UTC', t)).toBe('Z');
  });

  it('short names: IST, EST/EDT, UTC, and GMT+5:45 where English has none', () => {
    expect(zoneAbbreviation('Asia/Kolkata', t)).toBe('IST');
    expect(zoneAbbreviation('America/New_York', t)).toBe('EST');
    expect(zoneAbbreviation('America/New_York', summer)).toBe('EDT');
    expect(zoneAbbreviation('Europe/London', summer)).toBe('BST');
    expect(zoneAbbreviation('UTC', t)).toBe('UTC');
    expect(zoneAbbreviation('Asia/Kathmandu', t)).toBe('GMT+5:45');
    expect(clockWithZone(Date.parse('2026-11-26T03:30:00Z'), 'Asia/Kolkata')).toBe('09:00 IST');
  });
});
