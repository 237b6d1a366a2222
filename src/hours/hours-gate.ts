/**
 * The check before anything is dialed (`campaign launch`, `create --launch`, `redial
 * --launch`): every pending contact must be inside calling hours in its own time zone.
 * Outside, the launch is refused (exit 2) with who is outside, where, and when the window
 * opens for all; --wait-for-calling-hours waits for that moment on the context's clock.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { countdown } from '../io/progress.js';
import { duration, grouped, plural } from '../text/text.js';
import {
  checkCallingHours, DEFAULT_WINDOW, formatWindow, parseWindow, WINDOW_HELP, zoneLabel, type HoursCheck, type HoursWindow, type ZoneGroup,
} from './calling-hours.js';
import { clockWithZone, formatDateTime, zoneAbbreviation } from '../util/time.js';

/**
 * How a launch treats calling hours. A verb maps its flags onto it with every key written
 * out, so a flag renamed in the verb's spec fails to compile where it is read.
 */
export interface HoursChoice {
  /** The window (--calling-hours); undefined: the profile's calling_hours, else 09:00-21:00. */
  window: string | undefined;
  /** Launch without the check (--ignore-calling-hours). */
  ignore: boolean;
  /** Outside the window, wait until it opens for all (--wait-for-calling-hours). */
  wait: boolean;
}

export interface HoursGate {
  check?: HoursCheck;
  /** Resolves when every contact is inside the window (at once when they already are). */
  wait(): Promise<void>;
}

/** The window: --calling-hours, then the profile's calling_hours, then 09:00-21:00. */
export function callingWindow(ctx: Context, flag: string | undefined): HoursWindow {
  if (flag !== undefined) {
    const w = parseWindow(flag);
    if (!w) throw new UsageError(`--calling-hours "${flag}" is not a window of hours.`, { hint: `Use ${WINDOW_HELP}.` });
    return w;
  }
  const saved = ctx.settings().profile.calling_hours;
  if (saved !== undefined) {
    const w = parseWindow(saved);
    if (!w) throw new UsageError(`The profile's calling_hours "${saved}" is not a window of hours.`, { hint: `Fix it: voicectl config set calling_hours 09:00-21:00 (${WINDOW_HELP}).` });
    return w;
  }
  return DEFAULT_WINDOW;
}

/**
 * The calling-hours flags on their own, before a file is read or a request sent: what a
 * launch would refuse as usage (exit 2), a dry run of that launch refuses the same way.
 */
export function checkHoursChoice(ctx: Context, choice: HoursChoice): void {
  if (choice.ignore) {
    if (choice.wait) throw new UsageError('--ignore-calling-hours and --wait-for-calling-hours contradict each other: pass one.');
    return;
  }
  callingWindow(ctx, choice.window);
}

/** Checks before asking or sending; throws when the launch must not go ahead. */
export function gateCallingHours(ctx: Context, numbers: string[], choice: HoursChoice, nothing = 'nothing was launched'): HoursGate {
  checkHoursChoice(ctx, choice);
  if (choice.ignore) {
    ctx.info(ctx.errColor.yellow('Calling hours not checked (--ignore-calling-hours).'));
    return { wait: async () => {} };
  }
  const window = callingWindow(ctx, choice.window);
  if (numbers.length === 0) return { wait: async () => {} };
  const check = checkCallingHours(numbers, window, ctx.now().getTime());
  if (check.outside.length === 0 && check.unknown === 0) {
    ctx.info(ctx.errColor.dim(`All ${plural(check.total, 'contact')} are within calling hours (${formatWindow(window)} local time).`));
    return { check, wait: async () => {} };
  }
  const zone = ctx.timeZone;
  const lines = describe(check, ctx.now().getTime(), nothing, zone);
  if (check.unknown > 0) {
    throw new UsageError(lines.join('\n'), {
      hint: 'voicectl cannot tell the local time of those numbers. Remove them from the campaign, or pass --ignore-calling-hours to launch anyway.',
    });
  }
  if (check.opensForAll === undefined) {
    throw new UsageError(lines.join('\n'), {
      hint: 'The contacts\' zones are too far apart for one window. Put them in separate campaigns by zone, or pass --ignore-calling-hours.',
    });
  }
  if (!choice.wait) {
    throw new UsageError(lines.join('\n'), {
      hint: `Pass --wait-for-calling-hours to launch at ${when(check.opensForAll, ctx.now().getTime(), zone)}, or --ignore-calling-hours to launch now.`,
    });
  }
  for (const l of lines) ctx.info(l.replace(`so ${nothing}`, 'so the launch waits'));
  const opens = check.opensForAll;
  return { check, wait: () => waitUntil(ctx, opens, zone) };
}

/**
 * The refusal names every zone of the list: those closed, with when each opens, and those
 * open now, so a mixed list (India and the US) reads as a whole, each with its local time.
 * Times are in `zone`, the user's; each group's opening also in its own local time.
 */
function describe(check: HoursCheck, now: number, nothing: string, zone: string): string[] {
  const outside = check.outside.reduce((n, g) => n + g.count, 0) + check.unknown;
  const lines = [`${plural(outside, 'contact')} of ${grouped(check.total)} ${outside === 1 ? 'is' : 'are'} outside calling hours (${formatWindow(check.window)} local time), so ${nothing}:`];
  const row = (state: string, text: string) => `  ${state.padEnd(7)} ${text}`;
  for (const g of check.outside) {
    const opens = g.opensAt !== undefined ? `; opens ${opensAt(g.zones, g.opensAt, now, zone)}` : '; never open in all of them at once';
    lines.push(row('closed', `${plural(g.count, 'contact')} in ${zoneLabel(g.zones)} (${localNow(g, now)}${g.zones.length > 1 ? '; inside only if inside in every one' : ''})${opens}`));
  }
  if (check.unknown > 0) lines.push(row('unknown', `${plural(check.unknown, 'contact')} whose time zone is unknown`));
  for (const g of check.insideGroups) lines.push(row('open', `${plural(g.count, 'contact')} in ${zoneLabel(g.zones)} (${localNow(g, now)})`));
  if (check.opensForAll !== undefined) lines.push(`The window is open for all of them from ${when(check.opensForAll, now, zone)}.`);
  return lines;
}

/** "22:30 IST there now", or for a number with several possible zones each zone's time. */
function localNow(g: ZoneGroup, now: number): string {
  if (g.zones.length === 1) return `${g.localTimes[0]} ${zoneAbbreviation(g.zones[0]!, now)} there now`;
  const shown = g.zones.slice(0, 3).map((z, i) => `${z} ${g.localTimes[i]}`);
  return `now ${shown.join(', ')}${g.zones.length > 3 ? ` and ${g.zones.length - 3} more` : ''}`;
}

/** "2026-01-15 14:00 UTC (in 11h 00m)", in `zone`. */
export function when(ms: number, now: number, zone = 'UTC'): string {
  return `${formatDateTime(ms, zone, { minutes: true })} ${zoneAbbreviation(zone, ms)} (in ${span(ms - now)})`;
}

/** "09:00 IST (2026-01-15 03:30 UTC, in 30m 00s)": the contacts' local time, then the user's. */
function opensAt(zones: string[], ms: number, now: number, zone: string): string {
  if (zones.length !== 1 || zones[0] === zone) return when(ms, now, zone);
  return `${clockWithZone(ms, zones[0]!)} (${formatDateTime(ms, zone, { minutes: true })} ${zoneAbbreviation(zone, ms)}, in ${span(ms - now)})`;
}

/** How long until `ms` from now, as every duration is spelled ("10h 30m", "4m 05s"). */
function span(ms: number): string {
  return duration(Math.ceil(ms / 1000));
}

/**
 * Waits on the context's clock and sleep: a countdown redrawn each second on a terminal,
 * a plain line each minute elsewhere (CI logs stay short). Ctrl-C stops it (exit 130).
 */
async function waitUntil(ctx: Context, at: number, zone: string): Promise<void> {
  const opens = clockWithZone(at, zone);
  await countdown(ctx, at, {
    live: (left) => `Waiting for calling hours: ${left} left (opens ${opens}). Ctrl-C stops.`,
    plain: (left) => `Waiting for calling hours: ${span(left)} left (opens ${opens}).`,
  });
  ctx.info('Calling hours are open for every contact.');
}
