/**
 * `campaign followups`: one row per contact who needs a person's action after a campaign,
 * from each contact's latest finished call: callbacks (with the time the customer asked
 * for, read from the summary, else from what the customer said), messages taken, and
 * interested leads. Which outcomes count is the caller's choice (`--outcomes`).
 */
import type { ApiClient } from '../api/client.js';
import { allCalls, getCall, type Call } from '../api/calls.js';
import { zonesForNumber } from '../campaigns/phone-zones.js';
import { isFinished } from '../calls/model.js';
import { canonicalZone, offsetText, wallClock } from '../util/time.js';
import { isCallback } from './classes.js';
import { requestedTime } from './requested-time.js';

export type FollowupKind = 'callback' | 'message' | 'lead';

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
const plain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The zone a contact's extra fields name (timezone, time_zone or tz), when it is a real one. */
export function extraZone(extra: unknown): string | undefined {
  if (!plain(extra)) return undefined;
  for (const key of ['timezone', 'time_zone', 'tz']) {
    const z = typeof extra[key] === 'string' ? canonicalZone(extra[key] as string) : undefined;
    if (z) return z;
  }
  return undefined;
}

function contactZone(call: Call, userZone: string): string {
  const own = extraZone(call.contact?.extra);
  if (own) return own;
  const zones = typeof call.phone_number === 'string' ? zonesForNumber(call.phone_number) : [];
  return zones.length === 1 ? zones[0]! : userZone;
}

const isoIn = (ms: number, zone: string) => {
  const w = wallClock(ms, zone);
  return `${w.date}T${w.time}${offsetText(zone, ms)}`;
};

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

/** The follow-up of one call, its requested time read from `said` (summary first, then the customer's words). */
function followupOf(call: Call, kind: FollowupKind, userZone: string, said: string[] = []): Followup {
  const zone = contactZone(call, userZone);
  const startMs = typeof call.start_time === 'string' ? Date.parse(call.start_time) : Number.NaN;
  const endMs = typeof call.end_time === 'string' ? Date.parse(call.end_time) : Number.NaN;
  const ref = Number.isFinite(endMs) ? endMs : startMs;
  let requested: { at?: number; phrase: string } | undefined;
  if (kind === 'callback' && Number.isFinite(ref)) {
    for (const text of [str(call.summary), ...said].filter(Boolean)) {
      const r = requestedTime(text, ref, zone);
      requested ??= r;
      if (r.at !== undefined) {
        requested = r;
        break;
      }
    }
  }
  return {
    kind,
    phone_number: str(call.phone_number),
    name: str(call.contact?.name),
    extra: plain(call.contact?.extra) ? call.contact.extra : {},
    outcome: str(call.outcome) || str(call.status),
    requested_time: requested?.at !== undefined ? isoIn(requested.at, zone) : null,
    requested_as: requested?.phrase ?? null,
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
  o: { outcomes?: string[]; userZone: string; signal?: AbortSignal },
): Promise<Followup[]> {
  const rows: Followup[] = [];
  for (const id of ids) {
    const calls: Call[] = [];
    for await (const c of allCalls(api, { campaign_id: id }, { signal: o.signal })) calls.push(c);
    const picked = latestCalls(calls)
      .sort((a, b) => str(a.start_time).localeCompare(str(b.start_time)))
      .flatMap((c) => {
        const kind = kindOf(str(c.outcome) || str(c.status), o.outcomes);
        return kind ? [{ call: c, kind }] : [];
      });
    const out: Followup[] = picked.map(({ call, kind }) => followupOf(call, kind, o.userZone));
    const unread = out.map((f, i) => [f, i] as const).filter(([f]) => f.kind === 'callback' && f.requested_time === null);
    let next = 0;
    const worker = async () => {
      while (next < unread.length) {
        const [, i] = unread[next++]!;
        const { call: full } = await getCall(api, picked[i]!.call.call_id, o.signal);
        const customer = Array.isArray(full.transcript)
          ? full.transcript.filter((t) => t && typeof t === 'object' && t.role !== 'agent').map((t) => str(t.text))
          : [];
        const agent = Array.isArray(full.transcript)
          ? full.transcript.filter((t) => t && typeof t === 'object' && t.role === 'agent').map((t) => str(t.text))
          : [];
        // The customer's words first; the agent often repeats the time back ("I have scheduled a callback tomorrow at 4").
        out[i] = followupOf(picked[i]!.call, 'callback', o.userZone, [...customer, ...agent]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, unread.length) }, worker));
    rows.push(...out);
  }
  return rows;
}

/** The `extra` keys of the rows, in order of first appearance: one column each. */
export function extraKeys(rows: Followup[]): string[] {
  const keys = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.extra)) keys.add(k);
  return [...keys];
}
