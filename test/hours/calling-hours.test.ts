import { describe, expect, it } from 'vitest';
import {
  checkCallingHours, DEFAULT_WINDOW, formatWindow, insideAll, localTime, nextOpening, parseWindow,
} from '../../src/hours/calling-hours.js';
import { zonesForNumber } from '../../src/hours/phone-zones.js';
import { PREFIXES, ZONES } from '../../src/hours/phone-zones-data.js';

const INDIA = ['+919876543210', '+919988776655', '+919422012345'];
const NEW_YORK = '+12125550123';
const LOS_ANGELES = '+13105550123';
const at = (iso: string) => new Date(iso).getTime();

describe('zones of a number (libphonenumber\'s time-zone map and rules)', () => {
  it('India is one zone; US numbers get their area code\'s zone', () => {
    expect(zonesForNumber('+919876543210')).toEqual(['Asia/Kolkata']);
    expect(zonesForNumber(NEW_YORK)).toEqual(['America/New_York']);
    expect(zonesForNumber(LOS_ANGELES)).toEqual(['America/Los_Angeles']);
    expect(zonesForNumber('+442079460958')).toEqual(['Europe/London']);
  });

  it('a mobile in a country whose mobiles have no area gets every zone of the country', () => {
    // Australian mobiles (04..) are not geographic: libphonenumber answers with the country's zones.
    const au = zonesForNumber('+61412345678');
    expect(au).toContain('Australia/Perth');
    expect(au).toContain('Australia/Sydney');
    // A Sydney landline is geographic.
    expect(zonesForNumber('+61292345678')).toEqual(['Australia/Sydney']);
  });

  it('Brazilian and Mexican mobiles carry their area (geographic mobile countries)', () => {
    expect(zonesForNumber('+5511987654321')).toEqual(['America/Sao_Paulo']);
    expect(zonesForNumber('+5592987654321')).toEqual(['America/Manaus']);
  });

  it('an invalid or unparseable number has no zone', () => {
    expect(zonesForNumber('+91123')).toEqual([]);
    expect(zonesForNumber('not a number')).toEqual([]);
  });

  it('every zone in the data is one this Node.js knows', () => {
    for (const z of ZONES) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: z }), z).not.toThrow();
    expect(PREFIXES.split(',').length).toBeGreaterThan(3000);
  });
});

describe('parseWindow', () => {
  it('reads HH:MM-HH:MM and short forms', () => {
    expect(parseWindow('10:00-19:00')).toEqual({ start: 600, end: 1140 });
    expect(parseWindow('9-21')).toEqual({ start: 540, end: 1260 });
    expect(parseWindow('09:30–20:00')).toEqual({ start: 570, end: 1200 });
    expect(formatWindow(parseWindow('8-24')!)).toBe('08:00-24:00');
  });

  it('refuses windows that are not one: end before start (9-5 means 17:00), bad minutes, nonsense', () => {
    for (const bad of ['9-5', '10:00-10:00', '10:75-12:00', '25:00-26:00', 'morning', '']) expect(parseWindow(bad), bad).toBeUndefined();
  });
});

describe('checkCallingHours', () => {
  it('refuses India at 22:30 IST and allows it at 10:00 IST', () => {
    const late = checkCallingHours(INDIA, DEFAULT_WINDOW, at('2026-01-15T17:00:00Z'));
    expect(late.inside).toBe(0);
    expect(late.outside).toEqual([{ zones: ['Asia/Kolkata'], count: 3, localNow: '22:30', localTimes: ['22:30'], opensAt: at('2026-01-16T03:30:00Z') }]);
    expect(late.opensForAll).toBe(at('2026-01-16T03:30:00Z'));

    const morning = checkCallingHours(INDIA, DEFAULT_WINDOW, at('2026-01-15T04:30:00Z'));
    expect(morning).toMatchObject({ inside: 3, outside: [], unknown: 0, opensForAll: at('2026-01-15T04:30:00Z') });
  });

  it('the window end is exclusive: 21:00 sharp is outside, 20:59 inside', () => {
    expect(checkCallingHours(INDIA, DEFAULT_WINDOW, at('2026-01-15T15:29:00Z')).inside).toBe(3);
    expect(checkCallingHours(INDIA, DEFAULT_WINDOW, at('2026-01-15T15:30:00Z')).inside).toBe(0);
  });

  it('a mixed India/US list reports both zones, and when the window opens for all', () => {
    // 03:00Z: 08:30 in India, 22:00 in New York (EST).
    const r = checkCallingHours([...INDIA, NEW_YORK], DEFAULT_WINDOW, at('2026-01-15T03:00:00Z'));
    expect(r.outside.map((g) => [g.zones, g.count, g.localNow])).toEqual([
      [['Asia/Kolkata'], 3, '08:30'],
      [['America/New_York'], 1, '22:00'],
    ]);
    // India opens 03:30Z, New York 14:00Z: both are inside from 14:00Z until India closes at 15:30Z.
    expect(r.opensForAll).toBe(at('2026-01-15T14:00:00Z'));
  });

  it('a mixed list also names the zones open now, with their local times', () => {
    // 17:00Z: 22:30 in India (closed), 12:00 in New York (open).
    const r = checkCallingHours([...INDIA, NEW_YORK], DEFAULT_WINDOW, at('2026-01-15T17:00:00Z'));
    expect(r.outside.map((g) => [g.zones, g.count, g.localNow])).toEqual([[['Asia/Kolkata'], 3, '22:30']]);
    expect(r.insideGroups).toEqual([{ zones: ['America/New_York'], count: 1, localNow: '12:00', localTimes: ['12:00'] }]);
    expect(r.inside).toBe(1);
  });

  it('zones too far apart for one window have no common opening', () => {
    // 10:00-17:00 is 04:30-11:30Z in India and 20:00-03:00Z in Honolulu: never both.
    const r = checkCallingHours(['+919876543210', '+18085550123'], parseWindow('10:00-17:00')!, at('2026-01-15T03:00:00Z'));
    expect(zonesForNumber('+18085550123')).toEqual(['Pacific/Honolulu']);
    expect(r.opensForAll).toBeUndefined();
  });

  it('a number with several zones is inside only when inside in all of them (widest span)', () => {
    const au = zonesForNumber('+61412345678');
    // 00:00Z in January: 11:00 in Sydney (AEDT), 08:00 in Perth.
    const t = at('2026-01-15T00:00:00Z');
    expect(localTime('Australia/Sydney', t)).toBe('11:00');
    expect(insideAll(['Australia/Sydney'], DEFAULT_WINDOW, t)).toBe(true);
    expect(insideAll(au, DEFAULT_WINDOW, t)).toBe(false);
    const opens = nextOpening(au, DEFAULT_WINDOW, t)!;
    for (const z of au) expect(insideAll([z], DEFAULT_WINDOW, opens), z).toBe(true);
    expect(insideAll(au, DEFAULT_WINDOW, opens - 60_000)).toBe(false);
  });

  it('a number of unknown zone is counted as unknown, never inside', () => {
    const r = checkCallingHours(['+91123', ...INDIA], DEFAULT_WINDOW, at('2026-01-15T04:30:00Z'));
    expect(r).toMatchObject({ total: 4, inside: 3, unknown: 1 });
    expect(r.opensForAll).toBeUndefined();
  });

  it('follows daylight saving: New York 09:00 is 14:00Z in January and 13:00Z in July', () => {
    const w = parseWindow('09:00-21:00')!;
    expect(nextOpening(['America/New_York'], w, at('2026-01-15T05:00:00Z'))).toBe(at('2026-01-15T14:00:00Z'));
    expect(nextOpening(['America/New_York'], w, at('2026-07-15T05:00:00Z'))).toBe(at('2026-07-15T13:00:00Z'));
  });
});

describe('the shortcut for one-zone countries answers as libphonenumber\'s rule does', () => {
  it('over every country\'s example mobile number and variants of its last digits', async () => {
    const { zonesByLibraryRule } = await import('../../src/hours/phone-zones.js');
    const { getExampleNumber } = await import('libphonenumber-js/max');
    const examples = (await import('libphonenumber-js/examples.mobile.json', { with: { type: 'json' } })).default as Record<string, string>;
    let compared = 0;
    for (const country of Object.keys(examples)) {
      const example = getExampleNumber(country as never, examples as never);
      if (!example) continue;
      const base = example.number as string;
      for (let d = 0; d < 10; d++) {
        for (const n of [base, `${base.slice(0, -1)}${d}`, `${base.slice(0, -3)}${d}${d}${d}`, `${base.slice(0, 4)}${d}${base.slice(5)}`]) {
          expect(zonesForNumber(n), n).toEqual(zonesByLibraryRule(n));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });
});

describe('nextOpening skips ahead without missing the first open minute', () => {
  it('equals a minute-by-minute search over zones, windows and times (DST dates included)', () => {
    const bruteForce = (zones: string[], w: { start: number; end: number }, ms: number) => {
      if (insideAll(zones, w, ms)) return ms;
      for (let t = Math.ceil(ms / 60_000) * 60_000; t <= ms + 2 * 86_400_000; t += 60_000) if (insideAll(zones, w, t)) return t;
      return undefined;
    };
    const sets = [['Asia/Kolkata', 'America/New_York'], ['Australia/Lord_Howe', 'Australia/Perth'], ['America/St_Johns'], ['Europe/London', 'Asia/Kathmandu']];
    const windows = ['09:00-21:00', '10:00-17:00', '08:15-08:45'].map((x) => parseWindow(x)!);
    const times = ['2026-03-08T05:17:00Z', '2026-04-05T14:59:30Z', '2026-10-04T15:00:00Z', '2026-11-01T03:00:00Z', '2026-03-29T00:30:00Z'].map(at);
    for (const zones of sets) for (const w of windows) for (const t of times) {
      const expected = bruteForce(zones, w, t);
      if (expected !== undefined) expect(nextOpening(zones, w, t), `${zones} ${formatWindow(w)} ${new Date(t).toISOString()}`).toBe(expected);
    }
  });
});
