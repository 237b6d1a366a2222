import { describe, expect, it } from 'vitest';
import { formatOffset, offsetSeconds, transcriptText, transcriptTurns } from '../../src/export/transcript.js';
import { wrap } from '../../src/commands/call/wrap.js';

const start = Date.parse('2024-05-01T10:00:00Z');

describe('transcript turns', () => {
  it('counts times from the call start, whatever form the timestamps take', () => {
    expect(offsetSeconds({ timestamp: '2024-05-01T10:00:07Z' }, start)).toBe(7);
    expect(offsetSeconds({ timestamp: '2024-05-01T10:01:05.900' }, start)).toBeCloseTo(65.9);
    expect(offsetSeconds({ timestamp: 12.5 }, start)).toBe(12.5);
    expect(offsetSeconds({ timestamp: '42' }, start)).toBe(42);
    expect(offsetSeconds({ timestamp: '01:30' }, start)).toBe(90);
    expect(offsetSeconds({ timestamp: start / 1000 + 3 }, start)).toBe(3);
    expect(offsetSeconds({ timestamp: start + 4000 }, start)).toBe(4);
    expect(offsetSeconds({ timestamp: 'soon' }, start)).toBeUndefined();
    expect(offsetSeconds({}, start)).toBeUndefined();
  });

  it('formats offsets as mm:ss, and h:mm:ss past an hour', () => {
    expect(formatOffset(7)).toBe('00:07');
    expect(formatOffset(65.9)).toBe('01:05');
    expect(formatOffset(3725)).toBe('1:02:05');
    expect(formatOffset(undefined)).toBe('');
  });

  it('names the speakers', () => {
    const turns = transcriptTurns({ start_time: '2024-05-01T10:00:00Z', transcript: [
      { role: 'agent', text: 'Hi', timestamp: '2024-05-01T10:00:00Z' },
      { role: 'user', text: 'Hello', timestamp: '2024-05-01T10:00:03Z' },
      { role: 'tool', text: 'lookup', timestamp: 'x' },
    ] });
    expect(turns.map((t) => `${t.time}|${t.speaker}|${t.text}`)).toEqual(['00:00|Agent|Hi', '00:03|User|Hello', '|Tool|lookup']);
  });

  it('renders one line per turn for CSV', () => {
    expect(transcriptText({ start_time: '2024-05-01T10:00:00Z', transcript: [{ role: 'agent', text: 'a\nb', timestamp: 2 }] })).toBe('00:02 Agent: a b');
    expect(transcriptText({ start_time: '2024-05-01T10:00:00Z' })).toBe('');
  });
});

describe('wrap', () => {
  it('wraps at word boundaries within the width', () => {
    const lines = wrap('the quick brown fox jumps over the lazy dog', 12);
    expect(lines).toEqual(['the quick', 'brown fox', 'jumps over', 'the lazy dog']);
    expect(lines.every((l) => l.length <= 12)).toBe(true);
  });

  it('cuts words longer than the width and leaves text alone without one', () => {
    expect(wrap('abcdefghij xy', 4)).toEqual(['abcd', 'efgh', 'ij', 'xy']);
    expect(wrap('no   width\nhere', undefined)).toEqual(['no width here']);
  });
});
