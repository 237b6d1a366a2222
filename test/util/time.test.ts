import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import { parseTime, timeOption, toQueryTime } from '../../src/util/time.js';

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
    expect(parse('1h').toISOString()).toBe('2024-05-10T11:00:00.000Z');
    t = new Date('2024-06-01T00:00:00Z');
    expect(parse('1h').toISOString()).toBe('2024-05-31T23:00:00.000Z');
  });

  it('sends UTC with Z in queries', () => {
    expect(toQueryTime(parseTime('2024-05-01T10:15:00+05:30', now))).toBe('2024-05-01T04:45:00.000Z');
    expect(toQueryTime(undefined)).toBeUndefined();
  });
});
