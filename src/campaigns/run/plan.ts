/**
 * Which contacts a wave may hold at an instant, and when the next one may be released.
 * Pure functions of the journal's contacts, the policy and a time: the run calls them
 * with its clock, the forecast with a simulated one.
 *
 * A contact may be dialed at `t` when its window is open at `t` and still open at the
 * end of the wave (`t + wave length`): the service dials a wave's contacts at once and
 * a call must not run past the window. Windows are shorter than a day and waves shorter
 * than a window, so open at both ends means open throughout.
 */
import { insideAll, localMinute, nextOpening, type HoursWindow } from '../../hours/calling-hours.js';
import type { RunContact } from './journal.js';
import { windowFor, type RunPolicy } from './policy.js';
import { placeOf } from '../../hours/phone-zones.js';
import { fromWallTime, wallClock } from '../../util/time.js';

export interface Group {
  key: string;
  zones: string[];
  window: HoursWindow;
  country?: string;
  members: number[];
}

/** The calendar day (YYYY-MM-DD) the daily cap counts `ms` in: the day in `zone`, the run's (UTC when absent). */
export function capDay(ms: number, zone = 'UTC'): string {
  return zone === 'UTC' ? new Date(ms).toISOString().slice(0, 10) : wallClock(ms, zone).date;
}

/**
 * When the next day the daily cap counts begins after `ms`: midnight in `zone` (UTC when
 * absent). A day of a zone that changes its clocks is 23 or 25 hours long; where midnight
 * itself is skipped, the day begins when the clocks jump over it.
 */
export function nextCapDay(ms: number, zone = 'UTC'): number {
  const [y, m, d] = capDay(ms, zone).split('-').map(Number) as [number, number, number];
  return zone === 'UTC' ? Date.UTC(y, m - 1, d + 1) : fromWallTime(zone, Date.UTC(y, m - 1, d + 1));
}

/** Contacts grouped by (zones, window): each group's window is worked out once. */
export class Planner {
  readonly groups = new Map<string, Group>();
  /** Group of each contact (by index); undefined for a number with no zone. */
  private readonly groupOf: Array<Group | undefined>;

  constructor(private readonly contacts: RunContact[], readonly policy: RunPolicy) {
    this.groupOf = contacts.map((c, i) => {
      const place = placeOf(c.phone_number);
      // The contact's own zone (a callback's, from its extra fields) over the number's.
      const zones = c.zone ? [c.zone] : place.zones;
      if (zones.length === 0) return undefined;
      const window = windowFor(policy, place.country);
      const key = `${zones.join(' ')}|${window.start}-${window.end}`;
      let g = this.groups.get(key);
      if (!g) {
        g = { key, zones, window, members: [], ...(place.country ? { country: place.country } : {}) };
        this.groups.set(key, g);
      }
      g.members.push(i);
      return g;
    });
  }

  group(i: number): Group | undefined {
    return this.groupOf[i];
  }

  openFor(g: Group, t: number): boolean {
    return insideAll(g.zones, g.window, t) && insideAll(g.zones, g.window, t + this.policy.wave_length_ms);
  }

  /** The first instant from `t` on at which a wave may hold the group's contacts; undefined: none within eight days. */
  nextOpen(g: Group, t: number): number | undefined {
    let at = t;
    for (let i = 0; i < 10; i++) {
      const o = nextOpening(g.zones, g.window, at);
      if (o === undefined) return undefined;
      if (this.openFor(g, o)) return o;
      // Open now but closing before the wave would end: look past the close.
      at = o + this.policy.wave_length_ms;
    }
    return undefined;
  }

  /** When a wave may first hold one of the group's waiting contacts, from `t` on: its window, and the time a contact is held until. */
  nextFor(g: Group, t: number): number | undefined {
    let from = Infinity;
    for (const i of g.members) {
      const c = this.contacts[i]!;
      if (c.state === 'waiting') from = Math.min(from, Math.max(t, notBefore(c)));
    }
    return from === Infinity ? undefined : this.nextOpen(g, from);
  }

  /** When the group's window closes after `t` (its first closed minute), for the forecast. */
  closesAfter(g: Group, t: number): number {
    let close = Infinity;
    for (const z of g.zones) {
      const m = localMinute(z, t);
      close = Math.min(close, t - (t % 60_000) + (g.window.end - m) * 60_000);
    }
    return close;
  }

  /**
   * Waiting contacts a wave may hold at `t`, those whose window closes first first (then
   * in source order): a contact with minutes left goes in this wave, not tomorrow's.
   */
  eligible(t: number): number[] {
    const closes = new Map<Group, number | undefined>();
    const out: Array<{ i: number; close: number }> = [];
    for (let i = 0; i < this.contacts.length; i++) {
      const c = this.contacts[i]!;
      if (c.state !== 'waiting' || notBefore(c) > t) continue;
      const g = this.groupOf[i];
      if (!g) continue;
      let close = closes.get(g);
      if (!closes.has(g)) {
        close = this.openFor(g, t) ? this.closesAfter(g, t) : undefined;
        closes.set(g, close);
      }
      if (close !== undefined) out.push({ i, close });
    }
    // A stable sort: equal closes keep the source order.
    return out.sort((a, b) => a.close - b.close).map((x) => x.i);
  }

  /** Whether a waiting contact's window is open at `t` but closes before a wave released then would end. */
  closingBeforeWaveEnds(t: number, skip: Set<number>): boolean {
    const closing = new Map<Group, boolean>();
    for (let i = 0; i < this.contacts.length; i++) {
      const g = this.groupOf[i];
      if (!g || skip.has(i) || this.contacts[i]!.state !== 'waiting' || notBefore(this.contacts[i]!) > t) continue;
      let yes = closing.get(g);
      if (yes === undefined) closing.set(g, (yes = insideAll(g.zones, g.window, t) && !this.openFor(g, t)));
      if (yes) return true;
    }
    return false;
  }

  /** The earliest instant after `t` at which some waiting contact becomes eligible; undefined: none ever. */
  nextEligible(t: number): number | undefined {
    const cache = new Map<string, number | undefined>();
    let best: number | undefined;
    for (let i = 0; i < this.contacts.length; i++) {
      const c = this.contacts[i]!;
      if (c.state !== 'waiting') continue;
      const g = this.groupOf[i];
      if (!g) continue;
      const from = Math.max(t, notBefore(c));
      const key = `${g.key}@${from}`;
      let at: number | undefined;
      if (cache.has(key)) at = cache.get(key);
      else {
        at = this.nextOpen(g, from);
        cache.set(key, at);
      }
      if (at !== undefined && (best === undefined || at < best)) best = at;
    }
    return best;
  }
}

/**
 * The earliest instant a waiting contact may be dialed, whatever its window: its retry
 * time, and a callback's requested time; 0 when neither holds it back.
 */
export function notBefore(c: RunContact): number {
  const retry = c.next_at !== undefined ? Date.parse(c.next_at) : 0;
  const asked = c.not_before !== undefined ? Date.parse(c.not_before) : 0;
  return Math.max(retry || 0, asked || 0);
}

/**
 * Why a wave holds fewer contacts than the wave size while others still wait: the daily
 * cap; others' windows, open now, close before the wave would end; no other window opens
 * before the deadline; or the others wait for their windows to open.
 */
export type SmallBecause = 'cap' | 'closing' | 'deadline' | 'windows';

export interface WaveChoice {
  /** Contacts for a wave now (empty: none may be released now). */
  take: number[];
  /** With a wave smaller than the wave size while others wait: why. */
  small?: SmallBecause;
  /** Why none: the cap, the deadline, or nothing open. */
  blocked?: 'cap' | 'deadline' | 'closed' | 'finished';
  /** When to look again (undefined: never: the run is over). */
  nextAt?: number;
  /** Waiting contacts held back until a time they asked for (none: absent). */
  held?: number;
}

/** The next step of the schedule at `t`: a wave to release, or when to look again. */
export function chooseWave(planner: Planner, contacts: RunContact[], days: Record<string, number>, t: number): WaveChoice {
  const policy = planner.policy;
  const waiting = contacts.some((c) => c.state === 'waiting');
  if (!waiting) return { take: [], blocked: 'finished' };
  const deadline = policy.deadline ? Date.parse(policy.deadline) : Infinity;
  if (t >= deadline) return { take: [], blocked: 'deadline' };
  const capLeft = policy.daily_cap === undefined ? Infinity : Math.max(0, policy.daily_cap - (days[capDay(t, policy.day_zone)] ?? 0));
  if (capLeft <= 0) {
    const next = nextCapDay(t, policy.day_zone);
    return next >= deadline ? { take: [], blocked: 'deadline' } : { take: [], blocked: 'cap', nextAt: next };
  }
  const eligible = planner.eligible(t);
  if (eligible.length > 0) {
    const take = eligible.slice(0, Math.min(policy.wave_size, capLeft));
    const small = take.length < policy.wave_size ? smallBecause(planner, contacts, take, eligible.length, capLeft, deadline, t) : undefined;
    return small ? { take, small } : { take };
  }
  const next = planner.nextEligible(t);
  if (next === undefined) return { take: [], blocked: 'finished' };
  if (next >= deadline) return { take: [], blocked: 'deadline' };
  const held = contacts.filter((c) => c.state === 'waiting' && c.not_before !== undefined && Date.parse(c.not_before) > t).length;
  return { take: [], blocked: 'closed', nextAt: next, ...(held > 0 ? { held } : {}) };
}

function smallBecause(planner: Planner, contacts: RunContact[], take: number[], eligible: number, capLeft: number, deadline: number, t: number): SmallBecause | undefined {
  if (capLeft < eligible) return 'cap';
  const others = contacts.filter((c) => c.state === 'waiting').length - take.length;
  if (others <= 0) return undefined;
  const taken = new Set(take);
  if (planner.closingBeforeWaveEnds(t, taken)) return 'closing';
  if (deadline !== Infinity) {
    // The others' next chance, after this wave has ended (the wave's own contacts set aside meanwhile).
    const states = take.map((i) => contacts[i]!.state);
    for (const i of take) contacts[i]!.state = 'in_wave';
    let after: number | undefined;
    try {
      after = planner.nextEligible(t + planner.policy.wave_length_ms);
    } finally {
      take.forEach((i, k) => (contacts[i]!.state = states[k]!));
    }
    if (after === undefined || after >= deadline) return 'deadline';
  }
  return 'windows';
}

export interface ForecastWave {
  at: number;
  contacts: number;
  small?: SmallBecause;
}

/**
 * The waves of first attempts, as the run would release them if each took exactly the
 * expected wave length: when each goes out, and when the last ends.
 */
export function simulate(contacts: RunContact[], policy: RunPolicy, days: Record<string, number>, start: number): { waves: ForecastWave[]; finish?: number; expire: number } {
  const copy = contacts.map((c) => ({ ...c }));
  const planner = new Planner(copy, policy);
  const d = { ...days };
  const waves: ForecastWave[] = [];
  let t = start;
  for (let guard = 0; guard < 100_000; guard++) {
    const choice = chooseWave(planner, copy, d, t);
    if (choice.take.length > 0) {
      for (const i of choice.take) copy[i]!.state = 'done';
      waves.push({ at: t, contacts: choice.take.length, ...(choice.small ? { small: choice.small } : {}) });
      d[capDay(t, policy.day_zone)] = (d[capDay(t, policy.day_zone)] ?? 0) + choice.take.length;
      t += policy.wave_length_ms;
      continue;
    }
    if (choice.nextAt === undefined) break;
    t = choice.nextAt;
  }
  const expire = copy.filter((c) => c.state === 'waiting').length;
  const last = waves.at(-1);
  return { waves, finish: last ? last.at + policy.wave_length_ms : undefined, expire };
}
