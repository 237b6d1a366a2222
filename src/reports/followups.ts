/**
 * `campaign followups`: one row per contact who needs a person's action after a campaign,
 * from each contact's latest finished call: callbacks (with the time the customer asked
 * for, read from the summary, else from what the customer said), messages taken, and
 * interested leads. Which outcomes count is the caller's choice (`--outcomes`).
 */
import type { ApiClient } from '../api/client.js';
import { allCalls, getCall, type Call } from '../api/calls.js';
import { getCampaign } from '../api/campaigns.js';
import { localMinute, type HoursWindow } from '../hours/calling-hours.js';
import { isFinished } from '../calls/model.js';
import { isObject } from '../util/is-object.js';
import { offsetText, wallClock } from '../util/time.js';
import { isCallback } from './classes.js';
import { contactZone, extraZone } from './contact-zone.js';
import { requestedTime, type RequestedTime } from './requested-time.js';

// Their home is contact-zone.ts; campaigns/run/callbacks.ts imports them from here.
export { contactZone, extraZone };

export type FollowupKind = 'callback' | 'message' | 'lead';
export type RequestedStatus = 'read' | 'day only' | 'needs a person' | 'unread';

const STATUS: Record<RequestedTime['kind'], RequestedStatus> = { time: 'read', day: 'day only', conflict: 'needs a person', none: 'unread' };

export interface Followup {
  kind: FollowupKind;
  phone_number: string;
  name: string;
  extra: Record<string, unknown>;
  outcome: string;
  /** The requested time in the contact's zone ("2026-11-27T16:00:00+05:30"); null when it could not be read. */
  requested_time: string | null;
  /** The words it was read from, or the sentence that asks for the callback. */
  requested_as: string | null;
  /**
   * A callback's: `read` (a day and a time), `day only` (the hour is the rules', `requested_note`
   * says which), `needs a person` (two different times were said: no time, the words in
   * `requested_as`), `unread` (neither a day nor a time was said); null for other follow-ups.
   */
  requested_status: RequestedStatus | null;
  /** What the rules supplied ("no time said: 10:00"), or the times that conflict. */
  requested_note: string | null;
  /** The requested time falls outside the calling hours of the contact's zone: kept as asked, never moved. */
  outside_calling_hours: boolean;
  /** The contact's zone: `extra.timezone`, else the zone of the number, else the user's. */
  zone: string;
  summary: string;
  call_id: string;
  call_time: string | null;
  campaign_id: string;
}

/** Without --outcomes: callbacks, messages taken and interested leads. */
function defaultKind(outcome: string): FollowupKind | undefined {
  const o = outcome.toLowerCase().replace(/[\s-]+/g, '_');
  if (isCallback(o)) return 'callback';
  if (/message/.test(o)) return 'message';
  if (/(^|_)(not|un)_?interested/.test(o)) return undefined;
  if (/interested|lead|qualified|requirements_gathered|appointment|demo_booked/.test(o)) return 'lead';
  return undefined;
}

function kindOf(outcome: string, outcomes: string[] | undefined): FollowupKind | undefined {
  if (!outcomes) return defaultKind(outcome);
  if (!outcomes.includes(outcome)) return undefined;
  return defaultKind(outcome) ?? (isCallback(outcome) ? 'callback' : 'lead');
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** An instant as ISO 8601 with the offset of `zone` ("2026-11-27T16:00:00+05:30"; "Z" for UTC). */
export const isoIn = (ms: number, zone: string): string => {
  const w = wallClock(ms, zone);
  return `${w.date}T${w.time}${offsetText(zone, ms)}`;
};

/** What was said in a call, in the order it is read: the summary, then the customer's turns, then the agent's. */
export interface Said {
  summary: string;
  customer?: string[];
  agent?: string[];
}

/**
 * The callback time asked for in a call: the summary's, when it says a day or a time (or two);
 * else the customer's turns', else the agent's (who often repeats it back). Turns are read one
 * by one: turns that read different times ("4 baje?" … "nahi, 6 baje") are left to a person.
 * `referenceMs` is the end of the call, `zone` the contact's.
 */
export function readCallbackTime(said: Said, referenceMs: number, zone: string): RequestedTime {
  let first: RequestedTime | undefined;
  for (const texts of [[said.summary], said.customer ?? [], said.agent ?? []]) {
    const read = texts.filter(Boolean).map((t) => requestedTime(t, referenceMs, zone));
    first ??= read[0];
    const found = read.filter((r) => r.kind !== 'none');
    if (found.length === 0) continue;
    const conflict = found.find((r) => r.kind === 'conflict');
    if (conflict) return conflict;
    const times = found.filter((r) => r.kind === 'time');
    const best = times.length ? times : found;
    if (new Set(best.map((r) => r.at)).size > 1) {
      return { kind: 'conflict', phrase: best.map((r) => r.phrase).join(' / '), note: 'different times in different turns' };
    }
    return best[0]!;
  }
  return first ?? { kind: 'none', phrase: '' };
}

/** Each contact's latest finished call (by start time), contacts keyed by phone number. */
function latestCalls(calls: Iterable<Call>): Call[] {
  const latest = new Map<string, Call>();
  for (const c of calls) {
    if (!isFinished(c) || typeof c.call_id !== 'string') continue;
    const key = str(c.phone_number) || c.call_id;
    const had = latest.get(key);
    if (!had || str(c.start_time) >= str(had.start_time)) latest.set(key, c);
  }
  return [...latest.values()];
}

/** The end of a call (else its start): what "tomorrow" and "in two hours" count from. */
export function referenceOf(call: { start_time?: unknown; end_time?: unknown }): number {
  const endMs = typeof call.end_time === 'string' ? Date.parse(call.end_time) : Number.NaN;
  return Number.isFinite(endMs) ? endMs : typeof call.start_time === 'string' ? Date.parse(call.start_time) : Number.NaN;
}

/** Whether `ms` falls outside the calling window in `zone`. */
export function outsideWindow(ms: number, zone: string, window: HoursWindow): boolean {
  const m = localMinute(zone, ms);
  return m < window.start || m >= window.end;
}

/** The follow-up of one call, its requested time read from what was said (summary first, then the turns). */
function followupOf(call: Call, kind: FollowupKind, userZone: string, window: HoursWindow | undefined, turns: Omit<Said, 'summary'> = {}): Followup {
  const zone = contactZone(call.phone_number, call.contact?.extra, userZone);
  const ref = referenceOf(call);
  const requested = kind === 'callback' && Number.isFinite(ref) ? readCallbackTime({ summary: str(call.summary), ...turns }, ref, zone) : undefined;
  return {
    kind,
    phone_number: str(call.phone_number),
    name: str(call.contact?.name),
    extra: isObject(call.contact?.extra) ? call.contact.extra : {},
    outcome: str(call.outcome) || str(call.status),
    requested_time: requested?.at !== undefined ? isoIn(requested.at, zone) : null,
    requested_as: requested ? requested.phrase || null : null,
    requested_status: requested ? STATUS[requested.kind] : kind === 'callback' ? 'unread' : null,
    requested_note: requested?.note ?? null,
    outside_calling_hours: requested?.at !== undefined && window !== undefined && outsideWindow(requested.at, zone, window),
    zone,
    summary: str(call.summary),
    call_id: call.call_id,
    call_time: typeof call.start_time === 'string' ? call.start_time : null,
    campaign_id: str(call.campaign_id),
  };
}

/**
 * The follow-ups of the campaigns, in the order of their calls. A callback whose summary
 * states no time has its transcript read (GET /calls/{id}, eight at a time) for the
 * customer's own words.
 */
export async function collectFollowups(
  api: ApiClient,
  ids: string[],
  o: { outcomes?: string[]; userZone: string; window?: HoursWindow; signal?: AbortSignal },
): Promise<Followup[]> {
  const rows: Followup[] = [];
  // A campaign that does not exist is not found (exit 4), not one without follow-ups.
  await Promise.all(ids.map((id) => getCampaign(api, id, { signal: o.signal })));
  for (const id of ids) {
    const calls: Call[] = [];
    // Each follow-up is read while the next page is on its way (the reading is most of the
    // work, and the wait for a page most of the rest); a call that turns out not to be its
    // contact's latest was read for nothing.
    const early = new EarlyReading((c) => {
      if (!isFinished(c) || typeof c.call_id !== 'string') return undefined;
      const kind = kindOf(str(c.outcome) || str(c.status), o.outcomes);
      return kind ? followupOf(c, kind, o.userZone, o.window) : undefined;
    });
    for await (const c of allCalls(api, { campaign_id: id }, { signal: o.signal })) {
      calls.push(c);
      early.add(c);
    }
    await early.done();
    const picked = latestCalls(calls)
      .sort((a, b) => str(a.start_time).localeCompare(str(b.start_time)))
      .flatMap((c) => {
        const kind = kindOf(str(c.outcome) || str(c.status), o.outcomes);
        return kind ? [{ call: c, kind }] : [];
      });
    const out: Followup[] = picked.map(({ call, kind }) => early.of(call) ?? followupOf(call, kind, o.userZone, o.window));
    // Only a summary that says neither a day nor a time sends voicectl to the transcript.
    const unread = out.map((f, i) => [f, i] as const).filter(([f]) => f.kind === 'callback' && f.requested_status === 'unread');
    let next = 0;
    const worker = async () => {
      while (next < unread.length) {
        const [, i] = unread[next++]!;
        const { call: full } = await getCall(api, picked[i]!.call.call_id, o.signal);
        out[i] = followupOf(picked[i]!.call, 'callback', o.userZone, o.window, turnsOf(full.transcript));
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, unread.length) }, worker));
    rows.push(...out);
  }
  return rows;
}

/**
 * Reads calls as they arrive, a few at a time between the event loop's turns, so the
 * reading happens while this thread would otherwise wait for the next page. The reading
 * is a pure function of the call: a result read early is the one read later.
 */
class EarlyReading {
  private readonly queue: Call[] = [];
  private next = 0;
  private readonly read = new Map<Call, Followup | undefined>();
  private running?: Promise<void>;

  constructor(private readonly reader: (call: Call) => Followup | undefined) {}

  add(call: Call): void {
    this.queue.push(call);
    this.running ??= this.run();
  }

  /** The reading of `call`, or undefined when it was not read (or has nothing to follow up). */
  of(call: Call): Followup | undefined {
    return this.read.get(call);
  }

  /** Resolves once every call added so far is read. */
  async done(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    while (this.next < this.queue.length) {
      for (let n = 0; n < EARLY_BATCH && this.next < this.queue.length; n++) {
        const call = this.queue[this.next++]!;
        try {
          this.read.set(call, this.reader(call));
        } catch {
          // Read again where it is needed, and fails there, in its place.
        }
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.running = undefined;
  }
}

/** Calls read between two turns of the event loop: small enough that a page's arrival waits little. */
const EARLY_BATCH = 25;

/** A transcript's turns: the customer's, and the agent's. */
export function turnsOf(transcript: unknown): { customer: string[]; agent: string[] } {
  const turns = Array.isArray(transcript) ? transcript.filter(isObject) : [];
  return {
    customer: turns.filter((t) => t.role !== 'agent').map((t) => str(t.text)),
    agent: turns.filter((t) => t.role === 'agent').map((t) => str(t.text)),
  };
}

/** The `extra` keys of the rows, in order of first appearance: one column each. */
export function extraKeys(rows: Followup[]): string[] {
  const keys = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.extra)) keys.add(k);
  return [...keys];
}
