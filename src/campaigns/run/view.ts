/**
 * What a person sees while a run goes on. On a terminal: event lines, under them one
 * status line redrawn in place (waves so far, contacts by state, the next opening in its
 * zone's local time and the user's). Elsewhere (a log, CI): one plain line per event.
 */
import type { Context } from '../../context.js';
import { localTime, zoneLabel } from '../../hours/calling-hours.js';
import { duration } from '../../text/text.js';
import { countStates, type RunView } from './deps.js';
import type { Journal } from './journal.js';
import type { Planner } from './plan.js';
import { when } from './when.js';

export function runView(ctx: Context): RunView {
  const live = ctx.io.interactiveStderr;
  let drawn = false;
  const clear = () => {
    if (drawn) ctx.io.stderr.write('\r\x1b[K');
    drawn = false;
  };
  return {
    event(line) {
      if (live) clear();
      ctx.info(`${live ? '' : `${when(ctx.now().getTime(), ctx.timeZone)}  `}${line}`);
    },
    refresh(j, waiting) {
      if (!live) return;
      clear();
      const text = statusLine(j, ctx.now().getTime(), waiting, ctx.timeZone);
      const width = (ctx.io.columns('stderr') ?? 100) - 1;
      ctx.io.stderr.write(text.length > width ? `${text.slice(0, width - 1)}…` : text);
      drawn = true;
    },
    close() {
      if (live) clear();
    },
  };
}

export function statusLine(j: Journal, now: number, waiting?: { until: number; planner: Planner; what?: string }, zone = 'UTC'): string {
  const s = countStates(j);
  const parts = [`${j.waves.filter((w) => w.state !== 'abandoned').length} waves`];
  for (const k of ['in_wave', 'waiting', 'done', 'expired', 'excluded'] as const) if (s[k]) parts.push(`${s[k]} ${k.replace('_', ' ')}`);
  if (waiting?.what) parts.push(`${waiting.what} in ${duration((waiting.until - now) / 1000)}`);
  else if (waiting) {
    const next = nextZone(waiting.planner, now);
    // The contacts' local time, then the user's (--tz, VOICECTL_TZ, the profile's, else the system's).
    parts.push(next ? `next: ${next.zone} at ${next.local} local (${when(next.at, zone)})` : `next wave ${when(waiting.until, zone)}`);
  }
  return parts.join(' · ');
}

function nextZone(planner: Planner, now: number): { zone: string; local: string; at: number } | undefined {
  let best: { zone: string; local: string; at: number } | undefined;
  for (const g of planner.groups.values()) {
    const at = planner.nextFor(g, now);
    if (at !== undefined && (!best || at < best.at)) best = { zone: zoneLabel(g.zones), local: localTime(g.zones[0]!, at), at };
  }
  return best;
}
