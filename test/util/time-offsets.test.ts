import { describe, expect, it } from 'vitest';
import { zoneOffsetMinutes } from '../../src/util/time.js';

// zoneOffsetMinutes answers a whole UTC day from its two ends when they agree. This compares it
// with asking Intl at the start of every quarter hour, the way it read offsets before.
const formatters = new Map<string, Intl.DateTimeFormat>();
function askIntl(zone: string, ms: number): number {
  const at = Math.floor(ms / 900_000) * 900_000;
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  return Math.round((Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - at) / 60_000);
}

/** A seeded generator, so a failure names a moment that can be asked again. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('zoneOffsetMinutes equals asking Intl', () => {
  it('at 40 seeded moments from 1990 to 2040 in every zone the runtime knows', () => {
    const rand = seeded(20261128);
    const from = Date.UTC(1990, 0, 1);
    const span = Date.UTC(2040, 0, 1) - from;
    const wrong: string[] = [];
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      for (let i = 0; i < 40; i++) {
        const ms = from + Math.floor(rand() * span);
        const fast = zoneOffsetMinutes(zone, ms);
        const slow = askIntl(zone, ms);
        if (fast !== slow) wrong.push(`${zone} ${new Date(ms).toISOString()}: ${fast} vs ${slow}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('at every quarter hour of the days around 2026 and 2027 changes, in zones that change oddly', () => {
    // Half-hour DST (Lord Howe), southern changes (Santiago, Sydney), changes at midnight
    // (Havana, Asuncion), the common ones, and zones that never change.
    const zones = ['America/New_York', 'America/Los_Angeles', 'Europe/London', 'Europe/Berlin', 'Australia/Lord_Howe', 'Australia/Sydney',
      'America/Santiago', 'America/Havana', 'America/Asuncion', 'Asia/Tehran', 'Africa/Cairo', 'Asia/Kolkata', 'Asia/Dubai', 'Pacific/Chatham'];
    const wrong: string[] = [];
    for (const zone of zones) {
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2028, 0, 1); day += 86_400_000) {
        // Only days whose ends differ, plus their neighbours, are read per quarter hour.
        if (askIntl(zone, day) === askIntl(zone, day + 86_400_000)) continue;
        for (let ms = day - 86_400_000; ms < day + 2 * 86_400_000; ms += 900_000) {
          const fast = zoneOffsetMinutes(zone, ms + 7 * 60_000);
          const slow = askIntl(zone, ms + 7 * 60_000);
          if (fast !== slow) wrong.push(`${zone} ${new Date(ms).toISOString()}: ${fast} vs ${slow}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
