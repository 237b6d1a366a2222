/** The zone a contact's times are read in: what its contact file says, else its number's. */
import { zonesForNumber } from '../hours/phone-zones.js';
import { canonicalZone } from '../util/time.js';
import { isObject } from '../util/is-object.js';

/** The zone a contact's extra fields name (timezone, time_zone or tz), when it is a real one. */
export function extraZone(extra: unknown): string | undefined {
  if (!isObject(extra)) return undefined;
  for (const key of ['timezone', 'time_zone', 'tz']) {
    const z = typeof extra[key] === 'string' ? canonicalZone(extra[key] as string) : undefined;
    if (z) return z;
  }
  return undefined;
}

/** A contact's zone: its extra fields' (timezone, time_zone, tz), else its number's when it has one, else `userZone`. */
export function contactZone(phone: unknown, extra: unknown, userZone: string): string {
  const own = extraZone(extra);
  if (own) return own;
  const zones = typeof phone === 'string' ? zonesForNumber(phone) : [];
  return zones.length === 1 ? zones[0]! : userZone;
}
