/**
 * The numbers of `campaign report`, from what the service returns: the campaign, its
 * contacts and its calls. Pure, so each figure is tested against hand-made calls.
 *
 * Definitions (docs/reports.md):
 * - a call is finished when it has an end_time or a status other than one in progress;
 * - connected: a finished call with status `completed` (the agent spoke with someone);
 * - connect rate: connected ÷ finished calls;
 * - durations: of connected calls; hours: of the call's start time, in UTC (JSON) or the
 *   user's zone (what people read: hourlyStats).
 */
import type { Call } from '../api/calls.js';
import type { Campaign, CampaignContact } from '../api/campaigns.js';
import { isFinished } from '../calls/model.js';
import { outcomeWord } from '../calls/outcome.js';
import { offsetText, wallClock } from '../util/time.js';
import { outcomeClass, type OutcomeClass } from './classes.js';
import { contactZone } from './contact-zone.js';
import type { ReportSpend } from './spend.js';
import { isObject } from '../util/is-object.js';

const DURATION_BUCKETS: Array<{ label: string; max: number }> = [
  { label: '0-30s', max: 30 },
  { label: '30-60s', max: 60 },
  { label: '1-2m', max: 120 },
  { label: '2-3m', max: 180 },
  { label: '3-5m', max: 300 },
  { label: '5-10m', max: 600 },
  { label: '10m+', max: Number.POSITIVE_INFINITY },
];

export interface ReportCall {
  call_id: string;
  phone_number: string;
  name: string;
  status: string;
  outcome: string;
  duration_seconds: number | null;
  start_time: string | null;
  /** When the call ended: what a callback's "tomorrow" counts from. */
  end_time: string | null;
  /** The contact's zone: its extra fields' (timezone), else its number's when it has one; null when neither says. */
  contact_zone: string | null;
  summary: string;
  /** The outcome's class (classes.ts); `no_contact` for a call still in progress. */
  class: OutcomeClass;
  has_recording: boolean;
  transcript?: Array<{ role: string; text: string }>;
  /** `--recordings`: the link fetched when the report was made (it expires after an hour). */
  recording_url?: string;
}

export interface CampaignReport {
  id: string;
  name: string;
  status: string;
  contacts: number;
  contacts_by_status: Record<string, number>;
  calls: number;
  finished_calls: number;
  connected: number;
  /** connected ÷ finished calls, 0 to 1; null with no finished call. */
  connect_rate: number | null;
  outcomes: Record<string, number>;
  /** Each outcome word's class, as its calls have it. */
  outcome_classes: Record<string, OutcomeClass>;
  /** Finished calls per class. */
  classes: Record<OutcomeClass, number>;
  /**
   * Contacts at each step: in the campaign, dialed (called at least once), connected (a
   * finished call with status completed), and with an outcome of interest (a success-class call).
   */
  funnel: { contacts: number; dialed: number; connected: number; of_interest: number };
  duration: { average_seconds: number | null; median_seconds: number | null; histogram: Array<{ bucket: string; calls: number }> };
  calls_per_hour: Array<{ hour: string; calls: number }>;
  connect_rate_by_hour_of_day: Array<{ hour: number; calls: number; connected: number; rate: number | null }>;
  call_list: ReportCall[];
  /**
   * The spend by the user's rate card (spend.ts), set by `campaign report`; null when there
   * is no rate card (the report says how to add one), absent where no spend is asked for.
   */
  spend?: ReportSpend | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

export function campaignReport(campaign: Campaign, contacts: CampaignContact[], calls: Call[]): CampaignReport {
  const byId = new Map<string, Call>();
  for (const c of calls) if (typeof c.call_id === 'string') byId.set(c.call_id, c);
  const startOf = (c: Call) => (typeof c.start_time === 'string' ? c.start_time : '');
  const all = [...byId.values()].sort((a, b) => startOf(a).localeCompare(startOf(b)));
  const finished = all.filter(isFinished);
  const connected = finished.filter((c) => c.status === 'completed');

  // Counted in Maps: a status or outcome is the service's word, and `constructor` or
  // `__proto__` is a word like any other (an object's keys would meet its prototype).
  const contactsByStatus = new Map<string, number>();
  if (contacts.length > 0) for (const c of contacts) increment(contactsByStatus, str(c.status) || 'unknown');
  else for (const [k, v] of ownEntries(campaign.contacts_by_status)) if (typeof v === 'number' && Number.isFinite(v)) contactsByStatus.set(k, v);
  const contactCount = contacts.length || [...contactsByStatus.values()].reduce((a, b) => a + b, 0);

  const outcomes = new Map<string, number>();
  const outcomeClasses = new Map<string, OutcomeClass>();
  const classes: Record<OutcomeClass, number> = { success: 0, neutral: 0, failure: 0, no_contact: 0 };
  // A contact is its phone number (the call's id when a call names none).
  const who = (c: Call) => str(c.phone_number) || c.call_id;
  const dialed = new Set(all.map(who));
  const reached = new Set<string>();
  const interested = new Set<string>();
  for (const c of finished) {
    const word = outcomeWord(c);
    const cls = outcomeClass(str(c.status), str(c.outcome) || word);
    increment(outcomes, word);
    if (!outcomeClasses.has(word)) outcomeClasses.set(word, cls);
    classes[cls]++;
    if (c.status === 'completed') reached.add(who(c));
    if (cls === 'success') interested.add(who(c));
  }

  const durations = connected.map((c) => c.duration_seconds).filter((d): d is number => typeof d === 'number' && Number.isFinite(d)).sort((a, b) => a - b);
  const histogram = DURATION_BUCKETS.map((b) => ({ bucket: b.label, calls: 0 }));
  for (const d of durations) histogram[DURATION_BUCKETS.findIndex((b) => d < b.max)]!.calls++;

  const hours = hourlyStats(finished, 'UTC');

  return {
    id: campaign.id,
    name: str(campaign.name) || campaign.id,
    status: str(campaign.status),
    contacts: contactCount,
    contacts_by_status: record(contactsByStatus),
    calls: all.length,
    finished_calls: finished.length,
    connected: connected.length,
    connect_rate: finished.length ? connected.length / finished.length : null,
    outcomes: record([...outcomes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
    outcome_classes: Object.fromEntries(outcomeClasses) as Record<string, OutcomeClass>,
    classes,
    funnel: { contacts: Math.max(contactCount, dialed.size), dialed: dialed.size, connected: reached.size, of_interest: interested.size },
    duration: {
      average_seconds: durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : null,
      median_seconds: durations.length ? (durations.length % 2 ? durations[durations.length >> 1]! : (durations[durations.length / 2 - 1]! + durations[durations.length / 2]!) / 2) : null,
      histogram,
    },
    ...hours,
    call_list: all.map((c) => ({
      call_id: c.call_id,
      phone_number: str(c.phone_number),
      name: str(c.contact?.name),
      status: str(c.status),
      outcome: str(c.outcome),
      duration_seconds: typeof c.duration_seconds === 'number' ? c.duration_seconds : null,
      // The spec's start_time is an ISO 8601 string; anything else is no time we can read.
      start_time: typeof c.start_time === 'string' ? c.start_time : null,
      end_time: typeof c.end_time === 'string' ? c.end_time : null,
      contact_zone: contactZone(c.phone_number, c.contact?.extra, '') || null,
      summary: str(c.summary),
      class: isFinished(c) ? outcomeClass(str(c.status), str(c.outcome) || outcomeWord(c)) : 'no_contact',
      has_recording: c.has_recording === true,
    })),
  };
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Counts as a JSON object: every key an own property, `__proto__` included. */
export function record(entries: Iterable<readonly [string, number]>): Record<string, number> {
  return Object.fromEntries(entries) as Record<string, number>;
}

/** The own entries of what should be an object; nothing for anything else. */
function ownEntries(v: unknown): Array<[string, unknown]> {
  return isObject(v) ? Object.entries(v) : [];
}

export type HourlyStats = Pick<CampaignReport, 'calls_per_hour' | 'connect_rate_by_hour_of_day'>;

/**
 * Finished calls by the hour they started in `zone`: each hour ("2026-01-15T15:00+05:30",
 * "…T09:00Z" in UTC) and each hour of the day there.
 */
export function hourlyStats(finished: Call[], zone: string): HourlyStats {
  const perHour = new Map<string, number>();
  const byHourOfDay = Array.from({ length: 24 }, (_, hour) => ({ hour, calls: 0, connected: 0, rate: null as number | null }));
  for (const c of finished) {
    const t = typeof c.start_time === 'string' ? Date.parse(c.start_time) : Number.NaN;
    if (Number.isNaN(t)) continue;
    const wall = wallClock(t, zone);
    const hour = `${wall.date}T${wall.time.slice(0, 2)}:00${offsetText(zone, t)}`;
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
    const h = byHourOfDay[Number(wall.time.slice(0, 2))]!;
    h.calls++;
    if (c.status === 'completed') h.connected++;
  }
  for (const h of byHourOfDay) h.rate = h.calls ? h.connected / h.calls : null;
  return {
    calls_per_hour: [...perHour.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([hour, n]) => ({ hour, calls: n })),
    connect_rate_by_hour_of_day: byHourOfDay,
  };
}

export const percent = (r: number | null): string => (r === null ? '-' : `${(r * 100).toFixed(1)}%`);
