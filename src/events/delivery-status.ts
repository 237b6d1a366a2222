/**
 * `events reconcile --endpoint ID`: why each missing event is missing, from the endpoint's
 * delivery records. The spec says a record shows status, attempts, last response code and
 * next retry, but not its field names, nor which object its event was about. So a record
 * is tied to a gap by the object id when the record carries one (under any of the usual
 * names). A record that names neither its event nor its object is tied to a gap by time
 * only when nothing else could be its event: it was made within TIME_TOLERANCE of the event
 * (for call.recording_ready, from that long before the call's end to RECORDING_WINDOW
 * after), no other event (missing, or in the log) is as close to it, and no other such
 * record is as close to the event. Anything less is `unknown`, never `delivered`: a record
 * of another event (an earlier campaign's, say) is no evidence for this one. A gap with no
 * record at all near it was never tried: the service does not queue events for a disabled
 * endpoint (spec 6.6), nor for one not subscribed to the type.
 */
import type { WebhookDelivery, WebhookEndpoint } from '../api/webhooks.js';
import { duration, noun } from '../text/text.js';
import { attemptsOf, failureOf, nextRetryOf, pick } from '../webhooks/delivery-fields.js';
import { eventKey } from './log-index.js';
import type { Gap } from './reconcile.js';

export type Verdict = 'gave_up' | 'retrying' | 'never_tried' | 'delivered' | 'unknown';

export interface GapStatus {
  verdict: Verdict;
  /** A sentence for the table. */
  reason: string;
  delivery_id?: string;
  event_id?: string;
  attempts?: number;
  matched_by?: 'object' | 'time';
}

/** How far a record's time may be from its event's and still be taken for it. */
export const TIME_TOLERANCE_MS = 60_000;
/** A recording is saved "usually within a minute": its record is looked for up to this long after the call's end. */
export const RECORDING_WINDOW_MS = 60 * 60_000;

interface Candidate {
  record: WebhookDelivery;
  at: number;
}

/** What a time-matched record could be the event of: a gap (by its index) or an event of the log. */
type Owner = { gap: number } | 'logged' | 'ambiguous';

/**
 * `logged`: the ids of the events the logs hold, and when events that are not missing
 * happened, by type (the logs' `created_at`, and the API's times of the expected events the
 * logs hold: `Scan.found`).
 */
export function explainGaps(
  gaps: readonly Gap[],
  records: readonly WebhookDelivery[],
  logged: { ids: ReadonlySet<string>; times: ReadonlyMap<string, readonly number[]> },
  endpoint?: WebhookEndpoint,
): GapStatus[] {
  const byObject = new Map<string, WebhookDelivery>();
  const byTime = new Map<string, Candidate[]>();
  /** Records that name no object and carry no time or no type: they may be any gap's. */
  const unplaceable = new Map<string | undefined, number>();
  for (const record of records) {
    const eventId = str(pick(record, ['event_id', 'event.id']));
    if (eventId !== undefined && logged.ids.has(eventId)) continue; // delivered and logged: not about a gap
    const type = str(pick(record, ['event_type', 'type', 'event.type', 'event.event_type']));
    const object = type === undefined ? undefined : str(pick(record, type === 'campaign.completed'
      ? ['campaign_id', 'object_id', 'data.id', 'event.data.id', 'payload.data.id']
      : ['call_id', 'object_id', 'data.call_id', 'event.data.call_id', 'payload.data.call_id']));
    if (type !== undefined && object !== undefined) {
      byObject.set(eventKey(type, object), record);
      continue;
    }
    const at = Date.parse(str(pick(record, ['created_at', 'occurred_at', 'event.created_at', 'first_attempt_at'])) ?? '');
    if (type === undefined || !Number.isFinite(at)) {
      unplaceable.set(type, (unplaceable.get(type) ?? 0) + 1);
      continue;
    }
    const list = byTime.get(type) ?? [];
    list.push({ record, at });
    byTime.set(type, list);
  }
  for (const list of byTime.values()) list.sort((a, b) => a.at - b.at);

  const timed = new Map<number, GapStatus>();
  const byType = new Map<string, number[]>();
  gaps.forEach((g, i) => {
    if (byObject.has(eventKey(g.type, g.object_id))) return;
    const list = byType.get(g.type) ?? [];
    list.push(i);
    byType.set(g.type, list);
  });
  for (const [type, indexes] of byType) {
    const candidates = byTime.get(type) ?? [];
    const loggedTimes = [...(logged.times.get(type) ?? [])].sort((a, b) => a - b);
    const matcher = new TimeMatcher(type, gaps, indexes, candidates, loggedTimes);
    for (const i of indexes) {
      const status = matcher.explain(i, unplaceableFor(unplaceable, type));
      if (status) timed.set(i, status);
    }
  }

  const subscribed = (type: string) => !endpoint?.events || endpoint.events.length === 0 || endpoint.events.includes(type);
  return gaps.map((gap, i) => {
    const exact = byObject.get(eventKey(gap.type, gap.object_id));
    if (exact) return describe(exact, 'object');
    const byTimeStatus = timed.get(i);
    if (byTimeStatus) return byTimeStatus;
    if (!subscribed(gap.type)) return { verdict: 'never_tried', reason: `never tried: the endpoint is not subscribed to ${gap.type}` };
    if (endpoint?.enabled === false) return { verdict: 'never_tried', reason: 'never tried: no delivery record, and the endpoint is disabled (it was when this happened, or it was not yet created)' };
    return { verdict: 'never_tried', reason: 'never tried: no delivery record (the endpoint was disabled, or not yet created, when it happened; or the service no longer keeps the record)' };
  });
}

function unplaceableFor(unplaceable: ReadonlyMap<string | undefined, number>, type: string): number {
  return (unplaceable.get(type) ?? 0) + (unplaceable.get(undefined) ?? 0);
}

/** Ties records that name no event or object to the gaps of one event type, by time, only where nothing else could be theirs. */
class TimeMatcher {
  private readonly refs: number[];
  /** The type's gaps with a known time, sorted by it: [time, gap index]. */
  private readonly sortedGaps: Array<[number, number]>;
  private readonly owners: Owner[];

  constructor(
    private readonly type: string,
    gaps: readonly Gap[],
    indexes: readonly number[],
    private readonly records: readonly Candidate[],
    private readonly loggedTimes: readonly number[],
  ) {
    this.refs = [];
    for (const i of indexes) this.refs[i] = refTime(gaps[i]!);
    this.sortedGaps = indexes.filter((i) => Number.isFinite(this.refs[i])).map((i): [number, number] => [this.refs[i]!, i]).sort((a, b) => a[0] - b[0]);
    this.owners = records.map((c) => this.ownerOf(c.at));
  }

  /** The window of a gap of this type around its reference time: [before, after]. */
  private get window(): [number, number] {
    return [TIME_TOLERANCE_MS, this.type === 'call.recording_ready' ? RECORDING_WINDOW_MS : TIME_TOLERANCE_MS];
  }

  /** The one event a record at `at` can be tied to, or why none. */
  private ownerOf(at: number): Owner {
    const [before, after] = this.window;
    // Gaps whose window holds the record: reference time in [at - after, at + before].
    const holders = slice(this.sortedGaps, at - after, at + before, (g) => g[0]);
    const logged = slice(this.loggedTimes, at - TIME_TOLERANCE_MS, at + TIME_TOLERANCE_MS, (x) => x);
    const loggedDistance = logged.reduce((m, t) => Math.min(m, Math.abs(at - t)), Infinity);
    if (this.type === 'call.recording_ready') {
      // A missing recording's own time is unknown (only the call's end is), so its distance
      // to a record says little: a logged recording near the record owns it, and a record two
      // missing recordings could own is neither's.
      if (logged.length > 0) return 'logged';
      return holders.length === 1 ? { gap: holders[0]![1] } : 'ambiguous';
    }
    let best: number | undefined;
    let bestDistance = Infinity;
    let tie = false;
    for (const [ref, i] of holders) {
      const d = Math.abs(at - ref);
      if (d < bestDistance) {
        best = i;
        bestDistance = d;
        tie = false;
      } else if (d === bestDistance) tie = true;
    }
    if (loggedDistance < bestDistance) return 'logged';
    // Two events as close (two gaps, or a gap and a logged event): the record is neither's.
    if (best === undefined || tie || loggedDistance === bestDistance) return 'ambiguous';
    return { gap: best };
  }

  explain(i: number, unplaceable: number): GapStatus | undefined {
    const ref = this.refs[i]!;
    const tolerance = this.type === 'call.recording_ready'
      ? `between ${span(TIME_TOLERANCE_MS)} before the call's end and ${span(RECORDING_WINDOW_MS)} after`
      : `within ${span(TIME_TOLERANCE_MS)} of it`;
    if (!Number.isFinite(ref)) {
      const n = this.records.length + unplaceable;
      return n === 0 ? undefined : unknown(`its time is not known, and ${count(n)} name neither the event nor the ${objectWord(this.type)}`);
    }
    const [before, after] = this.window;
    const lo = lowerBound(this.records, ref - before, (c) => c.at);
    const hi = lowerBound(this.records, ref + after + 1, (c) => c.at);
    const near: number[] = [];
    for (let k = lo; k < hi; k++) near.push(k);
    const mine = near.filter((k) => { const o = this.owners[k]!; return typeof o === 'object' && o.gap === i; });
    if (mine.length > 0) {
      mine.sort((a, b) => Math.abs(this.records[a]!.at - ref) - Math.abs(this.records[b]!.at - ref));
      const first = mine[0]!;
      const d = Math.abs(this.records[first]!.at - ref);
      // Another record as close, whether it is this gap's too or could be another event's as well.
      // (A recording's own time is unknown: any other such record is as close.)
      const asClose = near.filter((k) => k !== first && this.owners[k] !== 'logged' && (this.type === 'call.recording_ready' || Math.abs(this.records[k]!.at - ref) <= d));
      if (asClose.length > 0) {
        return unknown(`${count(asClose.length + 1)} without an event or ${objectWord(this.type)} id were made ${tolerance}, equally close: none can be told to be its own`);
      }
      return describe(this.records[first]!.record, 'time', `${duration(d / 1000)} apart; no other event or record as close, tolerance ${span(TIME_TOLERANCE_MS)}`);
    }
    const others = near.filter((k) => this.owners[k] !== 'logged');
    if (others.length > 0) {
      return unknown(`${count(others.length)} without an event or ${objectWord(this.type)} id ${others.length === 1 ? 'was' : 'were'} made ${tolerance}, and could as well be another event's`);
    }
    if (unplaceable > 0) return unknown(`${count(unplaceable)} name neither the event, the ${objectWord(this.type)} nor a time`);
    // Records near it, if any, are those of logged events: nothing is this one's.
    return undefined;
  }
}

/** A tolerance in words: "1 minute", "60 minutes". */
function span(ms: number): string {
  const m = Math.round(ms / 60_000);
  return `${m} ${noun(m, 'minute')}`;
}

function unknown(why: string): GapStatus {
  return { verdict: 'unknown', reason: `unknown: ${why}` };
}

function count(n: number): string {
  return `${n} delivery ${noun(n, 'record')}`;
}

function objectWord(type: string): string {
  return type === 'campaign.completed' ? 'campaign' : 'call';
}

function refTime(gap: Gap): number {
  return Date.parse(gap.occurred_at ?? (typeof gap.data.end_time === 'string' ? gap.data.end_time : ''));
}

/** The first index whose key is >= value, in a list sorted by key. */
function lowerBound<T>(list: readonly T[], value: number, key: (t: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The items of a sorted list whose key is in [from, to]. */
function slice<T>(list: readonly T[], from: number, to: number, key: (t: T) => number): T[] {
  const out: T[] = [];
  for (let k = lowerBound(list, from, key); k < list.length && key(list[k]!) <= to; k++) out.push(list[k]!);
  return out;
}

function describe(record: WebhookDelivery, matchedBy: 'object' | 'time', how?: string): GapStatus {
  const status = (str(pick(record, ['status', 'state', 'delivery_status'])) ?? '').toLowerCase();
  const attemptsRaw = Number(attemptsOf(record));
  const attempts = Number.isFinite(attemptsRaw) ? attemptsRaw : undefined;
  const failure = failureOf(record);
  const next = nextRetryOf(record);
  const tries = attempts === undefined ? '' : `${attempts} ${noun(attempts, 'attempt')}`;
  const by = matchedBy === 'time' ? ` [record matched by time${how ? `: ${how}` : ''}]` : '';
  const base = { delivery_id: str(pick(record, ['id', 'delivery_id'])), event_id: str(pick(record, ['event_id', 'event.id'])), ...(attempts !== undefined ? { attempts } : {}), matched_by: matchedBy };
  let verdict: Verdict;
  if (/deliver|succe|^ok$|^sent$/.test(status)) verdict = 'delivered';
  else if (/fail|gave|exhaust|dead|abandon|drop/.test(status)) verdict = 'gave_up';
  else if (/pend|retr|sched|queue|progress/.test(status) || (next !== undefined && next !== null)) verdict = 'retrying';
  else verdict = 'unknown';
  const reason = verdict === 'delivered'
    ? 'the service delivered it, but no log holds it (the app may have it)'
    : verdict === 'gave_up'
      ? `gave up${tries ? ` after ${tries}` : ''}${failure ? `: ${failure}` : ''}`
      : verdict === 'retrying'
        ? `still retrying${tries ? ` (${tries} so far${failure ? `, last: ${failure}` : ''})` : ''}${next !== undefined && next !== null ? `, next at ${String(next)}` : ''}`
        : `delivery record with status "${status || 'none'}"`;
  return { verdict, reason: `${reason}${by}`, ...base };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}
