import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import {
  canonicalZone, clockTime, clockWithZone, formatDateTime, fromWallTime, LEGACY_ZONES, offsetText, parseTime, systemZone, timeOption,
  toQueryTime, wallDate, zoneAbbreviation, zoneOffsetMinutes, zoneOption,
} from '../../src/util/time.js';

const now = new Date('2024-05-10T12:00:00.000Z');
const iso = (v: string) => parseTime(v, now).toISOString();

describe('parseTime', () => {
  it.each([
    // Relative spans, back from now.
    ['90m', '2024-05-10T10:30:00.000Z'], ['24h', '2024-05-09T12:00:00.000Z'], ['7d', '2024-05-03T12:00:00.000Z'], ['30s', '2024-05-10T11:59:30.000Z'],
    ['2w', '2024-04-26T12:00:00.000Z'], ['1.5h', '2024-05-10T10:30:00.000Z'], ['3 days ago', '2024-05-07T12:00:00.000Z'], ['now', '2024-05-10T12:00:00.000Z'],
    // A date is midnight UTC, and a time without an offset is UTC.
    ['2024-05-01', '2024-05-01T00:00:00.000Z'], ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2024-05-01T10:15', '2024-05-01T10:15:00.000Z'], ['2024-05-01T10:15:30', '2024-05-01T10:15:30.000Z'], ['2024-05-01 10:15:30.25', '2024-05-01T10:15:30.250Z'],
    // Z and offsets are honoured.
    ['2024-05-01T10:15:00Z', '2024-05-01T10:15:00.000Z'], ['2024-05-01T10:15:00+05:30', '2024-05-01T04:45:00.000Z'],
    ['2024-05-01T10:15:00-0200', '2024-05-01T12:15:00.000Z'], ['2024-05-01T10:15:00+01', '2024-05-01T09:15:00.000Z'],
  ])('reads %j as %s', (v, want) => {
    expect(iso(v)).toBe(want);
  });

  it.each(['', 'yesterday', '5x', '-5m', '2024-13-01', '2024-02-30', '2023-02-29', '2024-05-01T25:00', '2024-05-01T10:61', '2024/05/01', '12345', '2024-05-01T10:00+25:00'])(
    'rejects %j as a usage error',
    (v) => {
      expect(() => parseTime(v, now)).toThrow(InvalidArgumentError);
    },
  );

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
  it.each([
    // A date is midnight in the zone, a time without an offset the zone's wall time.
    ['2026-11-26', 'Asia/Kolkata', '2026-11-25T18:30:00.000Z'], ['2026-11-26', 'America/New_York', '2026-11-26T05:00:00.000Z'],
    ['2026-07-01', 'America/New_York', '2026-07-01T04:00:00.000Z'], ['2026-11-26T15:00', 'Asia/Kolkata', '2026-11-26T09:30:00.000Z'],
    ['2026-11-26 09:30:15', 'Asia/Kathmandu', '2026-11-26T03:45:15.000Z'],
    // An explicit offset or Z is kept whatever the zone, and spans are spans.
    ['2026-11-26T15:00Z', 'Asia/Kolkata', '2026-11-26T15:00:00.000Z'], ['2026-11-26T15:00-05:00', 'Asia/Kolkata', '2026-11-26T20:00:00.000Z'],
    ['90m', 'Asia/Kolkata', '2024-05-10T10:30:00.000Z'],
    // New York skipped 02:00-03:00 on 2026-03-08 and repeated 01:00-02:00 on 2026-11-01: a wall time
    // that does not exist is the instant the clocks jumped, and a repeated one is its first.
    ['2026-03-08T02:30', 'America/New_York', '2026-03-08T07:30:00.000Z'], ['2026-03-08T03:00', 'America/New_York', '2026-03-08T07:00:00.000Z'],
    ['2026-11-01T01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'],
  ])('reads %j in %s as %s', (v, zone, want) => {
    expect(parseTime(v, now, zone).toISOString()).toBe(want);
  });

  it('a wall time in UTC is that instant', () => {
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
  it.each([
    ['Asia/Calcutta', 'Asia/Kolkata'], ['Asia/Kolkata', 'Asia/Kolkata'], ['asia/kolkata', 'Asia/Kolkata'], [' Europe/Kiev ', 'Europe/Kyiv'],
    ['Asia/Saigon', 'Asia/Ho_Chi_Minh'], ['US/Eastern', 'America/New_York'], ['Etc/UTC', 'UTC'], ['UTC', 'UTC'],
  ])('are canonical: %j is %s (legacy ICU names become the current IANA ones, case and links resolved)', (name, zone) => {
    expect(canonicalZone(name)).toBe(zone);
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
