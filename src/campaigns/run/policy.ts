/**
 * The policy of a `campaign run`: calling windows (one default, overrides by country),
 * wave size, daily cap, retries and deadline. Parsed once from the flags and stored in
 * the journal, so a resumed run follows the policy it started with.
 */
import { UsageError } from '../../errors.js';
import { parseTime } from '../../util/time.js';
import { formatWindow, parseWindow, WINDOW_HELP, type HoursWindow } from '../../hours/calling-hours.js';

export interface RunPolicy {
  /** "default" and ISO country codes (US, IN, GB) to HH:MM-HH:MM. */
  windows: Record<string, string>;
  wave_size: number;
  /** Contacts dialed per day across all waves; absent: no cap. */
  daily_cap?: number;
  /** The zone whose calendar day the daily cap counts: the user's when the run started (absent in older journals: UTC). */
  day_zone?: string;
  /** Dial attempts per contact, the first included. */
  attempts: number;
  retry_after_ms: number;
  /** Contact statuses that earn another attempt. */
  retry_on: string[];
  /** No wave is released at or after this instant (ISO 8601). */
  deadline?: string;
  /** How long a wave is expected to take; its contacts' windows must stay open that long. */
  wave_length_ms: number;
}

export const DEFAULT_WAVE_SIZE = 500;
export const DEFAULT_RETRY_AFTER_MS = 2 * 3_600_000;
export const DEFAULT_RETRY_ON = ['no_answer', 'failed'];
/** Outcomes after which a number is never dialed again, whatever the policy. */
export const NEVER_AGAIN_OUTCOMES = new Set(['do_not_call']);
const RETRYABLE = new Set(['no_answer', 'failed', 'completed']);

/**
 * --calling-hours, repeatable: "09:00-21:00" sets the default window, "US=08:00-21:00"
 * the window of one country. `base` is the default before the flags (profile or 09:00-21:00).
 */
export function parseWindows(entries: string[], base: HoursWindow): Record<string, string> {
  const windows: Record<string, string> = { default: formatWindow(base) };
  for (const entry of entries) {
    const m = /^\s*([A-Za-z]{2})\s*=\s*(.+)$/.exec(entry);
    const text = m ? m[2]! : entry;
    const w = parseWindow(text);
    if (!w) throw new UsageError(`--calling-hours "${entry}" is not a window of hours.`, { hint: `Use ${WINDOW_HELP}, or CC=HH:MM-HH:MM for one country (US=08:00-21:00).` });
    const cc = m ? m[1]!.toUpperCase() : 'default';
    // The United Kingdom's ISO code is GB; people write UK.
    windows[cc === 'UK' ? 'GB' : cc] = formatWindow(w);
  }
  return windows;
}

export function parseRetryOn(list: string[] | undefined): string[] {
  const out = list ?? DEFAULT_RETRY_ON;
  for (const s of out) {
    if (!RETRYABLE.has(s)) throw new UsageError(`--retry-on "${s}" is not a status a contact ends in.`, { hint: 'Use no_answer, failed or completed, comma-separated.' });
  }
  return out;
}

/**
 * --deadline: a date-time (without an offset it is read in `zone`, the user's zone, like
 * every time typed on the command line), or a span from now such as 36h or 3d.
 */
export function parseDeadline(text: string, now: number, spanMs: (v: string) => number | undefined, zone = 'UTC'): string {
  const span = spanMs(text);
  if (span !== undefined) return new Date(now + span).toISOString();
  const v = text.trim();
  let ms = NaN;
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) {
    try {
      ms = parseTime(v, new Date(now), zone).getTime();
    } catch {
      ms = NaN;
    }
  }
  if (!Number.isFinite(ms)) throw new UsageError(`--deadline "${text}" is not a time.`, { hint: `Use a date and time such as 2026-03-01T18:00 (read in ${zone}; add Z or +05:30 for another zone), or a span from now such as 36h or 3d.` });
  if (ms <= now) throw new UsageError(`--deadline ${new Date(ms).toISOString()} has already passed.`);
  return new Date(ms).toISOString();
}

/** True when a deadline names its own zone (Z or an offset), or is a span. */
export function deadlineNamesZone(text: string): boolean {
  return /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text.trim());
}

/** Where a number is, for the windows: its zones and its country. */
const parsed = new Map<string, HoursWindow>();

/** The window for a number of `country` under the policy. */
export function windowFor(policy: RunPolicy, country: string | undefined): HoursWindow {
  const text = (country && policy.windows[country]) || policy.windows.default!;
  let w = parsed.get(text);
  if (!w) {
    w = parseWindow(text)!;
    parsed.set(text, w);
  }
  return w;
}
