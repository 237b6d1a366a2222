/** The one spelling of each small thing a person reads (src/io/text.ts). */
import { describe, expect, it } from 'vitest';
import { bytes, clock, duration, grouped, oneLine, plural, shellQuote, singleQuote, truncate, wrap } from '../../src/text/text.js';
import { rng } from '../helpers/rng.js';

describe('grouped', () => {
  it('writes every number as toLocaleString(\'en-US\') does', () => {
    const random = rng(11);
    const numbers = [0, -0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, -2.25, 0.0001, NaN, Infinity, -Infinity];
    for (let i = 0; i < 5000; i++) {
      const magnitude = 10 ** Math.floor(random() * 16);
      numbers.push(Math.floor((random() - 0.3) * magnitude));
    }
    for (const n of numbers) expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('plural', () => {
  it('counts with the noun, thousands separated', () => {
    expect(plural(0, 'contact')).toBe('0 contacts');
    expect(plural(1, 'contact')).toBe('1 contact');
    expect(plural(12_000, 'contact')).toBe('12,000 contacts');
    expect(plural(2, 'reply', 'replies')).toBe('2 replies');
  });
});

describe('oneLine', () => {
  it('collapses runs of whitespace, line breaks and tabs to one space and trims', () => {
    expect(oneLine('  a\r\n\tb   c \n')).toBe('a b c');
  });

  it('cuts to max with an ellipsis, the ellipsis counted', () => {
    expect(oneLine('abcdefgh', 5)).toBe('abcd…');
    expect(oneLine('abcde', 5)).toBe('abcde');
  });

  it('leaves other control characters for JSON; truncate shows them for a terminal', () => {
    expect(oneLine('a\x1b[2Jb')).toBe('a\x1b[2Jb');
    expect(truncate(oneLine('a\x1b[2Jb'), 20)).toBe('a\\x1b[2Jb');
  });
});

describe('truncate', () => {
  it('one terminal line: breaks become spaces, escapes count towards the width', () => {
    expect(truncate('a\nb', undefined)).toBe('a b');
    expect(truncate('\x07abc', 4)).toBe('\\x0…');
    expect(truncate('short', 10)).toBe('short');
  });
});

describe('duration', () => {
  it('seconds, then minutes with two-digit seconds, then hours with two-digit minutes', () => {
    expect(duration(0)).toBe('0s');
    expect(duration(45.4)).toBe('45s');
    expect(duration(125)).toBe('2m 05s');
    expect(duration(4500)).toBe('1h 15m');
    expect(duration(36_000 + 1800 + 59)).toBe('10h 30m');
  });

  it('reads numeric strings; unknown is empty or what `missing` says; negative is 0s', () => {
    expect(duration('75')).toBe('1m 15s');
    expect(duration(undefined)).toBe('');
    expect(duration(null, { missing: '-' })).toBe('-');
    expect(duration('abc', { missing: '-' })).toBe('-');
    expect(duration(-5)).toBe('0s');
  });

  it('with tenths: a short wait keeps a decimal', () => {
    expect(duration(0.5, { tenths: true })).toBe('0.5s');
    expect(duration(8, { tenths: true })).toBe('8s');
    expect(duration(120, { tenths: true })).toBe('2m 00s');
  });
});

describe('clock', () => {
  it('m:ss under an hour, h:mm:ss beyond', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(6.4)).toBe('0:06');
    expect(clock(725)).toBe('12:05');
    expect(clock(3725)).toBe('1:02:05');
    expect(clock(-3)).toBe('0:00');
  });
});

describe('bytes', () => {
  it('B, KB, MB with one decimal, GB with two', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.5 KB');
    expect(bytes(12 * 1024 * 1024)).toBe('12.0 MB');
    expect(bytes(1.25 * 1024 ** 3)).toBe('1.25 GB');
  });
});

describe('shell quoting', () => {
  it('a safe word as is, anything else single-quoted', () => {
    expect(shellQuote('contacts.csv')).toBe('contacts.csv');
    expect(shellQuote('my file.csv')).toBe(`'my file.csv'`);
    expect(shellQuote('')).toBe(`''`);
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
  });

  it('singleQuote quotes even a safe word', () => {
    expect(singleQuote('list')).toBe(`'list'`);
  });
});

describe('wrap', () => {
  it('leaves a short line alone and breaks a long one at spaces, the rest indented under it', () => {
    expect(wrap('  Policy: short.', 80)).toEqual(['  Policy: short.']);
    const lines = wrap('  Policy: waves of up to 7; each expected to last 5 min; at most 25 a day (America/Los_Angeles days).', 40);
    expect(lines).toEqual(['  Policy: waves of up to 7; each', '    expected to last 5 min; at most 25 a', '    day (America/Los_Angeles days).']);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
  });

  it('keeps a word longer than the width whole, on a line of its own', () => {
    expect(wrap('see https://example.com/a/very/long/path/indeed now', 20)).toEqual(['see', '  https://example.com/a/very/long/path/indeed', '  now']);
  });
});
