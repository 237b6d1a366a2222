/**
 * `campaign redial --at-requested-time`: the waves that call each callback back at the
 * time the customer asked for, inside calling hours. A plan to schedule, not a schedule:
 * voicectl holds nothing back itself.
 *
 * Each contact is due at its requested time (read as `campaign followups` reads it, in
 * the contact's zone), or now when that time has passed, moved to the next opening of
 * the calling window in its zone when it falls outside. Contacts due in the same hour of
 * the same zone make one wave, released at the latest due time among them: no one is
 * called before the time they asked for, and no one more than an hour after it.
 */
import { nextOpening, type HoursWindow } from '../campaigns/calling-hours.js';
import { offsetText, wallClock } from '../util/time.js';
import type { Followup } from './followups.js';

export interface WaveContact {
  phone_number: string;
  name?: string;
  extra?: unknown;
  /** What the customer asked for, in the contact's zone. */
  requested_time: string;
  requested_as: string | null;
}

export interface CallbackWave {
  n: number;
  /** When to release the wave, in the zone of its contacts. */
  at: string;
  zone: string;
  contacts: WaveContact[];
}

export interface NoTime {
  phone_number: string;
  name?: string;
  /** The sentence that asks for a callback, or the outcome when the call was no callback. */
  requested_as: string | null;
  outcome?: string;
}

export interface CallbackPlan {
  waves: CallbackWave[];
  /** Selected contacts without a readable requested time: left out. */
  no_time: NoTime[];
  /** Contacts whose zone never opens within the window's search (none is dialed). */
  never_open: WaveContact[];
}

export function isoInZone(ms: number, zone: string): string {
  const w = wallClock(ms, zone);
  return `${w.date}T${w.time}${offsetText(zone, ms)}`;
}

interface Selected {
  phone_number: string;
  name?: string;
  extra?: unknown;
  outcome?: string;
}

/**
 * The plan for `contacts` (the redial's selection, numbers normalized), each matched to
 * its follow-up by normalized number. `normalize` reads a number the service returned.
 */
export function planCallbackWaves(contacts: Selected[], followups: Followup[], window: HoursWindow, now: number, normalize: (raw: string) => string): CallbackPlan {
  const byPhone = new Map<string, Followup>();
  for (const f of followups) byPhone.set(normalize(f.phone_number), f);
  const due: Array<{ at: number; zone: string; contact: WaveContact }> = [];
  const noTime: NoTime[] = [];
  const never: WaveContact[] = [];
  for (const c of contacts) {
    const f = byPhone.get(c.phone_number);
    if (!f || f.requested_time === null) {
      noTime.push({ phone_number: c.phone_number, ...(c.name ? { name: c.name } : {}), requested_as: f?.requested_as ?? null, ...(c.outcome ? { outcome: c.outcome } : {}) });
      continue;
    }
    const contact: WaveContact = {
      phone_number: c.phone_number,
      ...(c.name !== undefined ? { name: c.name } : {}),
      ...(c.extra !== undefined ? { extra: c.extra } : {}),
      requested_time: f.requested_time,
      requested_as: f.requested_as,
    };
    const at = nextOpening([f.zone], window, Math.max(Date.parse(f.requested_time), now));
    if (at === undefined) never.push(contact);
    else due.push({ at, zone: f.zone, contact });
  }
  const groups = new Map<string, { at: number; zone: string; contacts: WaveContact[] }>();
  for (const d of due.sort((a, b) => a.at - b.at)) {
    // The hour as the contact's clocks show it (a zone may be offset by a half hour).
    const w = wallClock(d.at, d.zone);
    const key = `${d.zone}|${w.date}T${w.time.slice(0, 2)}`;
    const g = groups.get(key);
    if (g) {
      g.at = Math.max(g.at, d.at);
      g.contacts.push(d.contact);
    } else groups.set(key, { at: d.at, zone: d.zone, contacts: [d.contact] });
  }
  const waves = [...groups.values()].sort((a, b) => a.at - b.at || a.zone.localeCompare(b.zone))
    .map((g, i) => ({ n: i + 1, at: isoInZone(g.at, g.zone), zone: g.zone, contacts: g.contacts }));
  return { waves, no_time: noTime, never_open: never };
}
