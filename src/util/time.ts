/**
 * The one place times are read and written for people. Times typed for --since /
 * --until: ISO 8601 (without an offset, a time in the user's zone), a date (midnight
 * there), or a span back from now (90m, 24h, 7d); they are sent in UTC with Z. Times
 * shown: in the user's zone (--tz), which the output names. Durations: `duration`.
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

const SPAN = /^(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?|w|wk|wks|weeks?)(?:\s+ago)?$/i;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export const TIME_HELP = 'ISO 8601 (without an offset, in the --tz zone), a date (YYYY-MM-DD, midnight in the --tz zone), or a span back from now such as 90m, 24h, 7d';

/**
 * The instant a --since/--until value means, a date or a time without an offset read in
 * `zone`; throws InvalidArgumentError (exit 2) otherwise.
 */
export function parseTime(value: string, now: Date, zone = 'UTC'): Date {
  const v = value.trim();
  if (v === '') throw new InvalidArgumentError(`expected a time: ${TIME_HELP}.`);
  if (v.toLowerCase() === 'now') return new Date(now.getTime());

  const span = SPAN.exec(v);
  if (span) {
    const ms = Number(span[1]) * UNIT_MS[span[2]!.toLowerCase()[0]!]!;
    return new Date(now.getTime() - ms);
  }

  const date = DATE.exec(v);
  if (date) return checked(v, +date[1]!, +date[2]!, +date[3]!, 0, 0, 0, 0, zone);

  const dt = DATETIME.exec(v);
  if (dt) {
    const [, y, mo, d, h, mi, s, frac, offset] = dt;
    const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
    return checked(v, +y!, +mo!, +d!, +h!, +mi!, s ? +s : 0, ms, offset ? offsetMinutes(v, offset) : zone);
  }

  throw new InvalidArgumentError(`"${value}" is not a time. Use ${TIME_HELP}.`);
}

/**
 * A time as typed on the command line: checked when the flag is parsed (exit 2 for a
 * typo), read in the user's zone when the command runs, since --tz may come later on
 * the line. Spans count back from when the flag was parsed.
 */
export class TypedTime {
  constructor(readonly text: string, private readonly now: Date) {}

  in(zone: string): Date {
    return parseTime(this.text, this.now, zone);
  }
}

/** A commander argParser for --since/--until; the clock is the context's, read when the flag is parsed. */
export function timeOption(now: () => Date): (value: string) => TypedTime {
  return (value: string) => {
    const at = now();
    parseTime(value, at);
    return new TypedTime(value, at);
  };
}

/** The form sent in query strings: always UTC with Z, so no server has to guess. */
export function toQueryTime(d: Date | undefined): string | undefined {
  return d ? d.toISOString() : undefined;
}

function offsetMinutes(raw: string, zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
  const h = Number(m[2]);
  const min = Number(m[3] ?? 0);
  if (h > 23 || min > 59) throw new InvalidArgumentError(`"${raw}" has an impossible UTC offset.`);
  return (m[1] === '-' ? -1 : 1) * (h * 60 + min);
}

/** `offset`: minutes east of UTC the text gave, or the zone to read the wall time in. */
function checked(raw: string, y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offset: number | string): Date {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(t);
  // Date.UTC rolls 2024-02-30 over to March; a calendar that does not round-trip is a typo.
  const valid = mo >= 1 && mo <= 12 && back.getUTCDate() === d && back.getUTCMonth() === mo - 1 && h <= 23 && mi <= 59 && s <= 59;
  if (!valid) throw new InvalidArgumentError(`"${raw}" is not a real date and time.`);
  return new Date(typeof offset === 'number' ? t - offset * 60_000 : fromWallTime(offset, t));
}

/*
 * Time zones. Every time a person reads is shown in one zone: --tz, VOICECTL_TZ, the
 * profile's `timezone`, else the system's. JSON, JSON lines and CSV stay UTC ISO 8601.
 */

/**
 * Names ICU (and so Node 20's Intl) still gives as canonical, with the name IANA has
 * used since: `Intl.DateTimeFormat(…, { timeZone: 'Asia/Kolkata' })` resolves to
 * Asia/Calcutta there. Newer engines give the new names; this table makes both say the same.
 */
export const LEGACY_ZONES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

export const ZONE_HELP = 'an IANA time zone name, for example Asia/Kolkata, America/New_York or UTC';

const canonical = new Map<string, string | undefined>();

/**
 * The zone's canonical IANA name (`asia/calcutta` → Asia/Kolkata, `Etc/UTC` → UTC), or
 * undefined when it is not a zone. Offsets (+05:30) are refused on every Node version
 * (only newer engines accept them), so a setting works the same everywhere.
 */
export function canonicalZone(name: string): string | undefined {
  const v = name.trim();
  if (canonical.has(v)) return canonical.get(v);
  let out: string | undefined;
  if (/^[A-Za-z]/.test(v)) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
      out = LEGACY_ZONES[resolved] ?? resolved;
    } catch {
      out = undefined;
    }
  }
  canonical.set(v, out);
  return out;
}

/** The system's zone: TZ when it names one, else what Intl reports, else UTC. */
export function systemZone(env: Record<string, string | undefined> = {}): string {
  const tz = env.TZ?.replace(/^:/, '');
  const fromEnv = tz ? canonicalZone(tz) : undefined;
  if (fromEnv) return fromEnv;
  try {
    return canonicalZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? '') ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A commander argParser for --tz: the canonical name, or exit 2. */
export function zoneOption(value: string): string {
  const z = canonicalZone(value);
  if (!z) throw new InvalidArgumentError(`"${value}" is not a time zone: use ${ZONE_HELP}.`);
  return z;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();
const dayOffsets = new Map<string, number | null>();
const BUCKET_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const last = { zone: '', bucket: Number.NaN, off: 0 };

/** Minutes east of UTC in `zone` at the instant `at`, asked of Intl. */
function offsetAt(zone: string, at: number): number {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric',
    });
    offsetFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return Math.round((local - at) / 60_000);
}

/**
 * Minutes east of UTC in `zone` at `ms`, read at the start of its quarter hour (no zone changes
 * offset off a quarter hour). A UTC day whose two ends have one offset has it throughout (no
 * zone changes twice within a day), so such a day costs two questions to Intl, not one per
 * quarter hour; a day with a change is read per quarter hour. Equal to asking Intl every time:
 * test/util/time-offsets.test.ts compares the two over every zone.
 */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  const bucket = Math.floor(ms / BUCKET_MS);
  // The last answer again without a key built: callers ask for one zone and moment several times in a row.
  if (bucket === last.bucket && zone === last.zone) return last.off;
  const day = Math.floor(ms / DAY_MS);
  const dayKey = `${zone}@${day}`;
  let whole = dayOffsets.get(dayKey);
  if (whole === undefined) {
    const start = offsetAt(zone, day * DAY_MS);
    whole = start === offsetAt(zone, (day + 1) * DAY_MS) ? start : null;
    if (dayOffsets.size > 50_000) dayOffsets.clear();
    dayOffsets.set(dayKey, whole);
  }
  let off = whole ?? undefined;
  if (off === undefined) {
    const key = `${zone}@${bucket}`;
    off = offsets.get(key);
    if (off === undefined) {
      off = offsetAt(zone, bucket * BUCKET_MS);
      if (offsets.size > 50_000) offsets.clear();
      offsets.set(key, off);
    }
  }
  last.zone = zone;
  last.bucket = bucket;
  last.off = off;
  return off;
}

/**
 * The instant at which the clocks of `zone` show the wall time `wallMs` (that wall time
 * written as if it were UTC). In a gap (a spring-forward hour) it is the instant the
 * clocks jumped over it, read with the offset before the change.
 */
export function fromWallTime(zone: string, wallMs: number): number {
  const first = wallMs - zoneOffsetMinutes(zone, wallMs) * 60_000;
  const second = wallMs - zoneOffsetMinutes(zone, first) * 60_000;
  return zoneOffsetMinutes(zone, second) * 60_000 === wallMs - second ? second : first;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The wall clock of `zone` at `ms`: "2026-11-26" and "15:02:11". */
export function wallClock(ms: number, zone: string): { date: string; time: string } {
  const d = new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000);
  return {
    date: `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`,
    time: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
  };
}

/** The wall time of `zone` at `ms` as a Date whose UTC fields read it (what a spreadsheet's date cell holds). */
export function wallDate(ms: number, zone: string): Date {
  return new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000);
}

/** "2026-11-26 15:02:11" in `zone` (with `minutes`, "2026-11-26 15:02"). */
export function formatDateTime(ms: number, zone: string, o: { minutes?: boolean } = {}): string {
  const w = wallClock(ms, zone);
  return `${w.date} ${o.minutes ? w.time.slice(0, 5) : w.time}`;
}

/** "15:02:11" in `zone`; "--:--:--" for no time. */
export function clockTime(ms: number | undefined, zone: string): string {
  return ms === undefined || !Number.isFinite(ms) ? '--:--:--' : wallClock(ms, zone).time;
}

/** A time as the service sent it (ISO 8601), shown in `zone`; text that is not a time is returned as is. */
export function isoInZone(iso: unknown, zone: string): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatDateTime(t, zone);
}

/**
 * Where English speakers of the region write short names that en-US does not know
 * (en-US says GMT+5:30 for India, en-IN says IST). Elsewhere "GMT+5:45" is the name.
 */
const ABBREVIATION_LOCALES: Array<[prefix: string, locale: string]> = [
  ['Asia/Kolkata', 'en-IN'], ['Europe/', 'en-GB'], ['Australia/', 'en-AU'], ['Pacific/Auckland', 'en-NZ'],
  ['Asia/Singapore', 'en-SG'], ['Africa/Johannesburg', 'en-ZA'],
];
const abbreviationFormatters = new Map<string, Intl.DateTimeFormat>();

function shortName(zone: string, locale: string, ms: number): string {
  const key = `${locale} ${zone}`;
  let f = abbreviationFormatters.get(key);
  if (!f) abbreviationFormatters.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })));
  return f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

const abbreviations = new Map<string, string>();

/**
 * The zone's short name at `ms`: IST, EST/EDT, CET, UTC, or GMT+5:45 where there is none.
 * Cached per quarter hour, like the offset: listen and tail name the zone on every line.
 */
export function zoneAbbreviation(zone: string, ms: number): string {
  if (zone === 'UTC') return 'UTC';
  const key = `${zone}@${Math.floor(ms / BUCKET_MS)}`;
  let name = abbreviations.get(key);
  if (name === undefined) {
    const us = shortName(zone, 'en-US', ms);
    const locale = /^GMT[+-]/.test(us) ? ABBREVIATION_LOCALES.find(([prefix]) => zone === prefix || (prefix.endsWith('/') && zone.startsWith(prefix)))?.[1] : undefined;
    const local = locale ? shortName(zone, locale, ms) : us;
    name = /^GMT[+-]/.test(local) ? us : local;
    if (abbreviations.size > 10_000) abbreviations.clear();
    abbreviations.set(key, name);
  }
  return name;
}

/** "15:00 IST" in `zone` at `ms`. */
export function clockWithZone(ms: number, zone: string): string {
  return `${wallClock(ms, zone).time.slice(0, 5)} ${zoneAbbreviation(zone, ms)}`;
}

/** "+05:30", "-04:00"; "Z" for UTC itself. */
export function offsetText(zone: string, ms: number): string {
  if (zone === 'UTC') return 'Z';
  const off = zoneOffsetMinutes(zone, ms);
  const a = Math.abs(off);
  return `${off < 0 ? '-' : '+'}${two(Math.floor(a / 60))}:${two(a % 60)}`;
}
