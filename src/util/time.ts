/**
 * Times for --since / --until: ISO 8601 (no offset means UTC, as the spec reads
 * filters), a date (midnight UTC), or a span back from now (90m, 24h, 7d).
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

const SPAN = /^(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?|w|wk|wks|weeks?)(?:\s+ago)?$/i;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export const TIME_HELP = 'ISO 8601 (UTC unless it has an offset), a date (YYYY-MM-DD, midnight UTC), or a span back from now such as 90m, 24h, 7d';

/** The instant a --since/--until value means; throws InvalidArgumentError (exit 2) otherwise. */
export function parseTime(value: string, now: Date): Date {
  const v = value.trim();
  if (v === '') throw new InvalidArgumentError(`expected a time: ${TIME_HELP}.`);
  if (v.toLowerCase() === 'now') return new Date(now.getTime());

  const span = SPAN.exec(v);
  if (span) {
    const ms = Number(span[1]) * UNIT_MS[span[2]!.toLowerCase()[0]!]!;
    return new Date(now.getTime() - ms);
  }

  const date = DATE.exec(v);
  if (date) return checked(v, +date[1]!, +date[2]!, +date[3]!, 0, 0, 0, 0, 0);

  const dt = DATETIME.exec(v);
  if (dt) {
    const [, y, mo, d, h, mi, s, frac, zone] = dt;
    const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
    return checked(v, +y!, +mo!, +d!, +h!, +mi!, s ? +s : 0, ms, offsetMinutes(v, zone));
  }

  throw new InvalidArgumentError(`"${value}" is not a time. Use ${TIME_HELP}.`);
}

/** A commander argParser for --since/--until; the clock is the context's, read when the flag is parsed. */
export function timeOption(now: () => Date): (value: string) => Date {
  return (value: string) => parseTime(value, now());
}

/** The form sent in query strings: always UTC with Z, so no server has to guess. */
export function toQueryTime(d: Date | undefined): string | undefined {
  return d ? d.toISOString() : undefined;
}

function offsetMinutes(raw: string, zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
  const h = Number(m[2]);
  const min = Number(m[3] ?? 0);
  if (h > 23 || min > 59) throw new InvalidArgumentError(`"${raw}" has an impossible UTC offset.`);
  return (m[1] === '-' ? -1 : 1) * (h * 60 + min);
}

function checked(raw: string, y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offset: number): Date {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(t);
  // Date.UTC rolls 2024-02-30 over to March; a calendar that does not round-trip is a typo.
  const valid = mo >= 1 && mo <= 12 && back.getUTCDate() === d && back.getUTCMonth() === mo - 1 && h <= 23 && mi <= 59 && s <= 59;
  if (!valid) throw new InvalidArgumentError(`"${raw}" is not a real date and time.`);
  return new Date(t - offset * 60_000);
}

export function duration(seconds: unknown): string {
  const n = typeof seconds === 'string' ? Number(seconds) : seconds;
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  const s = Math.round(n);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
