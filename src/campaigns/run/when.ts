/**
 * A run's times as a person reads them: in the user's zone (--tz, VOICECTL_TZ, the
 * profile's timezone, else the system's), named. The journal and --json keep UTC.
 */
import { formatDateTime, zoneAbbreviation } from '../../util/time.js';

/** "2026-01-16 09:00 IST" in `zone`. */
export function when(ms: number, zone: string): string {
  return `${formatDateTime(ms, zone, { minutes: true })} ${zoneAbbreviation(zone, ms)}`;
}
