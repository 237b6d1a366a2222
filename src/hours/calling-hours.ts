/**
 * Calling hours: a daily window of local time (09:00-21:00 unless set), each contact's
 * local time from the zones of its number (phone-zones.ts), and when the window opens
 * for everyone. A number with several possible zones is inside only when it is inside
 * in every one of them (the widest span); a number with no known zone is never inside.
 * Pure functions of the numbers and an instant: the caller passes the context's clock.
 */
import { zonesForNumber } from './phone-zones.js';
import { zoneOffsetMinutes } from '../util/time.js';

export interface HoursWindow {
  /** Minutes after local midnight; `end` is exclusive and may be 1440 (24:00). */
  start: number;
  end: number;
}

export const DEFAULT_WINDOW: HoursWindow = { start: 9 * 60, end: 21 * 60 };
export const WINDOW_HELP = 'HH:MM-HH:MM in 24-hour local time, start before end, for example 09:00-21:00 or 10:00-19:00';

/** "10:00-19:00" (also 9-21, 9:30–20:00); undefined when the text is not a window. */
export function parseWindow(text: string): HoursWindow | undefined {
  const m = /^\s*(\d{1,2})(?::(\d{2}))?\s*(?:-|–|—|to)\s*(\d{1,2})(?::(\d{2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const start = Number(m[1]) * 60 + Number(m[2] ?? 0);
  const end = Number(m[3]) * 60 + Number(m[4] ?? 0);
  if (Number(m[2] ?? 0) > 59 || Number(m[4] ?? 0) > 59 || start >= 1440 || end > 1440 || start >= end) return undefined;
  return { start, end };
}

export function formatWindow(w: HoursWindow): string {
  return `${hhmm(w.start)}-${hhmm(w.end)}`;
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Start before end, in 24-hour time: "9-5" is refused rather than read as a night window. */
function isInside(w: HoursWindow, localMinute: number): boolean {
  return localMinute >= w.start && localMinute < w.end;
}

/** The local time of day in `zone` at `ms`, in minutes after midnight. */
export function localMinute(zone: string, ms: number): number {
  const minute = Math.floor(ms / 60_000) + zoneOffsetMinutes(zone, ms);
  return ((minute % 1440) + 1440) % 1440;
}

export function localTime(zone: string, ms: number): string {
  return hhmm(localMinute(zone, ms));
}

export function insideAll(zones: string[], w: HoursWindow, ms: number): boolean {
  return zones.length > 0 && zones.every((z) => isInside(w, localMinute(z, ms)));
}

/** How far ahead to look for an opening before saying there is none (a week and a day). */
const HORIZON_MS = 8 * 86_400_000;

/**
 * The first minute from `ms` on at which every zone is inside the window, or undefined
 * when there is none within eight days (zones too far apart for the window).
 */
export function nextOpening(zones: string[], w: HoursWindow, ms: number): number | undefined {
  if (zones.length === 0) return undefined;
  if (insideAll(zones, w, ms)) return ms;
  const first = Math.ceil(ms / 60_000) * 60_000;
  for (let t = first; t <= ms + HORIZON_MS;) {
    let jump = 0;
    for (const z of zones) {
      const m = localMinute(z, t);
      if (isInside(w, m)) continue;
      // This zone cannot be inside before its clock reaches the start; an hour less
      // allows for a daylight-saving jump on the way.
      jump = Math.max(1, ((w.start - m + 1440) % 1440) - 60);
      break;
    }
    if (jump === 0) return t;
    t += jump * 60_000;
  }
  return undefined;
}

export interface ZoneGroup {
  /** The zones a number may be in (one for most numbers); empty when unknown. */
  zones: string[];
  count: number;
  /** Local time now, when there is one zone. */
  localNow?: string;
  /** Local time now in each of the zones, in their order. */
  localTimes: string[];
  /** When the window opens for these numbers (undefined: unknown zone, or never for all their zones). */
  opensAt?: number;
}

export interface HoursCheck {
  window: HoursWindow;
  total: number;
  inside: number;
  /** Numbers outside the window now, by zone set, most numerous first. */
  outside: ZoneGroup[];
  /** Numbers inside the window now, by zone set, most numerous first (a refusal names them too). */
  insideGroups: ZoneGroup[];
  /** Numbers whose zone the data does not give. */
  unknown: number;
  /** When the window opens for every number at once; undefined when there is no such time. */
  opensForAll?: number;
}

/** Where each number stands at `ms`. Numbers are grouped by zone set, so each set is worked out once. */
export function checkCallingHours(numbers: Iterable<string>, w: HoursWindow, ms: number): HoursCheck {
  const groups = new Map<string, { zones: string[]; count: number }>();
  let total = 0;
  for (const n of numbers) {
    total++;
    const zones = zonesForNumber(n);
    const key = zones.join(' ');
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { zones, count: 1 });
  }
  let inside = 0;
  let unknown = 0;
  const outside: ZoneGroup[] = [];
  const insideGroups: ZoneGroup[] = [];
  for (const g of groups.values()) {
    if (g.zones.length === 0) {
      unknown += g.count;
      continue;
    }
    const group: ZoneGroup = { zones: g.zones, count: g.count, localTimes: g.zones.map((z) => localTime(z, ms)) };
    if (g.zones.length === 1) group.localNow = group.localTimes[0];
    if (insideAll(g.zones, w, ms)) {
      inside += g.count;
      insideGroups.push(group);
      continue;
    }
    group.opensAt = nextOpening(g.zones, w, ms);
    outside.push(group);
  }
  outside.sort((a, b) => b.count - a.count);
  insideGroups.sort((a, b) => b.count - a.count);
  const result: HoursCheck = { window: w, total, inside, outside, insideGroups, unknown };
  if (unknown === 0 && outside.length > 0) {
    const all = [...new Set([...groups.values()].flatMap((g) => g.zones))];
    result.opensForAll = nextOpening(all, w, ms);
  } else if (unknown === 0) {
    result.opensForAll = ms;
  }
  return result;
}

/** "Asia/Kolkata", or "one of America/Chicago, America/Denver or …" for a number with several. */
export function zoneLabel(zones: string[]): string {
  if (zones.length === 0) return 'unknown zone';
  if (zones.length === 1) return zones[0]!;
  if (zones.length <= 3) return `one of ${zones.slice(0, -1).join(', ')} or ${zones.at(-1)}`;
  return `one of ${zones.length} zones (${zones.slice(0, 2).join(', ')} …)`;
}
