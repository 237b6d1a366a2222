/**
 * The forecast shown before anything is dialed and by --dry-run: contacts per zone after
 * exclusions, when each zone's window opens and closes, what the agent's past calls
 * predict, and the waves with the expected finish.
 */
import { formatWindow, localTime, zoneLabel } from '../../hours/calling-hours.js';
import type { AgentHistory } from './history.js';
import { forecastCost, money } from '../../reports/rate-card.js';
import { breakerLine } from './guardrails.js';
import { placeOf } from '../../hours/phone-zones.js';
import type { Journal } from './journal.js';
import { Planner, simulate, type SmallBecause } from './plan.js';

/** Why a wave holds fewer than the wave size, as the wave table says it. */
export const SMALL_WORDS: Record<SmallBecause, string> = {
  cap: 'the daily cap',
  closing: 'others\' windows close sooner',
  deadline: 'the rest miss the deadline',
  windows: 'the rest not yet open',
};
import { when } from './when.js';
import { grouped, noun } from '../../text/text.js';

export interface ZoneForecast {
  zone: string;
  country?: string;
  contacts: number;
  window: string;
  /** When a wave may first hold these contacts (ISO), and the local time then. */
  opens?: string;
  opens_local?: string;
  closes?: string;
  /** The window is open now: a wave may hold these contacts at once. */
  open_now?: boolean;
  closes_local?: string;
}

export interface Forecast {
  contacts: number;
  excluded: number;
  no_zone: number;
  zones: ZoneForecast[];
  /** What this agent's past calls predict (absent on --resume: the run's own policy already holds the wave length). */
  history?: { calls: number; connect_rate?: number; expected_connected?: number; expected_talk_minutes?: number };
  wave_length_minutes: number;
  /** The waves of first attempts, numbered on from the journal's; `small`: why one holds fewer than the wave size. */
  waves: Array<{ n: number; at: string; contacts: number; small?: SmallBecause }>;
  expected_finish?: string;
  /** Contacts the schedule cannot reach before the deadline (or at all). */
  would_expire: number;
  /** From --rate-card: the first attempts' cost range in integer minor units; `assumed` says what stood in for a missing history. */
  cost?: { currency: string; low_minor_units: number; high_minor_units: number; low: string; high: string; unpriced: Record<string, number>; assumed?: string };
}

/** A connected call's length when the agent has no history: two minutes, said so. */
const ASSUMED_TALK_SECONDS = 120;

export function forecast(j: Journal, history: AgentHistory | undefined, now: number): Forecast {
  const planner = new Planner(j.contacts, j.policy);
  const zones: ZoneForecast[] = [];
  for (const g of planner.groups.values()) {
    const count = g.members.filter((i) => j.contacts[i]!.state === 'waiting').length;
    if (count === 0) continue;
    const opens = planner.nextFor(g, now);
    const z: ZoneForecast = { zone: zoneLabel(g.zones), contacts: count, window: formatWindow(g.window), ...(g.country ? { country: g.country } : {}) };
    if (opens !== undefined) {
      z.opens = new Date(opens).toISOString();
      z.opens_local = localTime(g.zones[0]!, opens);
      const closes = planner.closesAfter(g, opens);
      z.closes = new Date(closes).toISOString();
      z.closes_local = localTime(g.zones[0]!, closes);
      if (opens <= now) z.open_now = true;
    }
    zones.push(z);
  }
  zones.sort((a, b) => b.contacts - a.contacts);
  const waiting = j.contacts.filter((c) => c.state === 'waiting').length;
  const sim = simulate(j.contacts, j.policy, j.days, now);
  let h: Forecast['history'];
  if (history) {
    h = { calls: history.calls };
    if (history.connect_rate !== undefined) {
      h.connect_rate = Math.round(history.connect_rate * 1000) / 1000;
      h.expected_connected = Math.round(waiting * history.connect_rate);
      if (history.mean_talk_seconds !== undefined) h.expected_talk_minutes = Math.round((h.expected_connected * history.mean_talk_seconds) / 60);
    }
  }
  const out: Forecast = {
    contacts: waiting,
    excluded: j.contacts.filter((c) => c.state === 'excluded').length,
    no_zone: j.contacts.filter((c) => c.state === 'no_zone').length,
    zones,
    ...(h ? { history: h } : {}),
    wave_length_minutes: Math.round(j.policy.wave_length_ms / 60_000),
    waves: sim.waves.map((w, i) => ({ n: j.waves.length + i + 1, at: new Date(w.at).toISOString(), contacts: w.contacts, ...(w.small ? { small: w.small } : {}) })),
    would_expire: sim.expire,
  };
  if (sim.finish !== undefined) out.expected_finish = new Date(sim.finish).toISOString();
  const card = j.guardrails?.rate_card;
  if (card) {
    const known = history?.connect_rate !== undefined && history.mean_talk_seconds !== undefined;
    const connect = history?.connect_rate ?? 1;
    const talk = history?.mean_talk_seconds ?? ASSUMED_TALK_SECONDS;
    const byCountry: Record<string, { calls: number; connect_rate: number; talk_seconds: number }> = {};
    for (const c of j.contacts) {
      if (c.state !== 'waiting') continue;
      const cc = placeOf(c.phone_number).country ?? 'unknown';
      (byCountry[cc] ??= { calls: 0, connect_rate: connect, talk_seconds: talk }).calls++;
    }
    const r = forecastCost(card, byCountry);
    out.cost = {
      currency: card.currency, low_minor_units: r.low, high_minor_units: r.high,
      low: (r.low / 10 ** card.exponent).toFixed(card.exponent), high: (r.high / 10 ** card.exponent).toFixed(card.exponent), unpriced: r.unpriced,
      ...(known ? {} : { assumed: `no call history: every call taken to connect for ${ASSUMED_TALK_SECONDS / 60} minutes` }),
    };
  }
  return out;
}

/** The forecast in lines for a person (stderr), every time in `zone` (the user's). */
export function forecastLines(f: Forecast, j: Journal, zone: string): string[] {
  const at = (text: string) => when(Date.parse(text), zone);
  const p = j.policy;
  const lines = [`Forecast for "${j.name}": ${grouped(f.contacts)} contacts ${f.history ? 'to dial' : 'left to dial'}${f.excluded ? ` (${grouped(f.excluded)} excluded)` : ''}${f.no_zone ? `, ${f.no_zone} whose time zone is unknown (never dialed)` : ''}.`];
  for (const z of f.zones) {
    const when = !z.opens
      ? 'no opening within eight days'
      : z.open_now
        ? `open now, until ${z.closes_local} local (${at(z.closes!)})`
        : `opens ${at(z.opens)} (${z.opens_local} local), closes ${at(z.closes!)}`;
    lines.push(`  ${String(z.contacts).padStart(6)}  ${z.zone}  window ${z.window}: ${when}`);
  }
  const h = f.history;
  if (h) {
    lines.push(h.connect_rate !== undefined
      ? `  This agent's last ${grouped(h.calls)} calls: ${Math.round(h.connect_rate * 100)}% connected; expect about ${h.expected_connected} conversations${h.expected_talk_minutes !== undefined ? `, ${h.expected_talk_minutes} talk minutes` : ''}.`
      : '  This agent has no call history: connect rate and talk time unknown.');
  }
  const policy = [`waves of up to ${p.wave_size}`, `each expected to last ${f.wave_length_minutes} min`];
  if (p.daily_cap !== undefined) policy.push(`at most ${p.daily_cap} a day (${p.day_zone ?? 'UTC'} days)`);
  if (p.attempts > 1) policy.push(`up to ${p.attempts} attempts, ${Math.round(p.retry_after_ms / 60_000)} min apart, on ${p.retry_on.join(', ')}`);
  if (p.deadline) policy.push(`nothing released after ${at(p.deadline)}`);
  lines.push(`  Policy: ${policy.join('; ')}.`);
  lines.push(f.waves.length > 0
    ? `  ${f.waves.length} ${noun(f.waves.length, 'wave')} of first attempts, the first at ${at(f.waves[0]!.at)}; expected finish ${at(f.expected_finish!)}${p.attempts > 1 ? ' before retries' : ''}.`
    : '  No wave can be released.');
  const held = j.contacts.filter((c) => c.state === 'waiting' && c.not_before !== undefined).length;
  if (held > 0) lines.push(`  ${grouped(held)} contact${held === 1 ? ' is' : 's are'} held until the time ${held === 1 ? 'it' : 'they'} asked to be called: voicectl must keep running (or be resumed) to release each wave at its time, and a released wave cannot be stopped.`);
  if (f.cost) {
    const c = f.cost;
    const exp = c.low.includes('.') ? c.low.split('.')[1]!.length : 0;
    const unpriced = Object.entries(c.unpriced).map(([cc, n]) => `${grouped(n)} to ${cc}`).join(', ');
    lines.push(`  Cost of first attempts (${j.guardrails?.rate_card?.source ?? 'your rate card'}): ${money(c.low_minor_units, c.currency, exp)} to ${money(c.high_minor_units, c.currency, exp)}${c.assumed ? ` (${c.assumed})` : ''}${unpriced ? `; unpriced, not counted: ${unpriced}` : ''}.`);
  }
  const breaker = breakerLine(j);
  if (breaker) lines.push(breaker);
  if (f.would_expire > 0) lines.push(`  ${grouped(f.would_expire)} contacts cannot be reached ${p.deadline ? 'before the deadline' : 'in any window'}: they would expire.`);
  return lines;
}
