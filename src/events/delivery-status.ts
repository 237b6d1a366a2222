/**
 * `events reconcile --endpoint ID`: why each missing event is missing, from the endpoint's
 * delivery records. The spec says a record shows status, attempts, last response code and
 * next retry, but not its field names, nor which object its event was about. So a record
 * is tied to a gap by the object id when the record carries one (under any of the usual
 * names); otherwise by event type and time, the nearest record created when the event
 * happened (the call's end), and the row says it was matched by time. A gap with no record
 * at all was never tried: the service does not queue events for a disabled endpoint
 * (spec 6.6), nor for one not subscribed to the type.
 */
import type { WebhookDelivery, WebhookEndpoint } from '../api/webhooks.js';
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

/** How far a record's time may be from the event's and still be taken for it. */
const TIME_TOLERANCE_MS = 5 * 60_000;
/** A recording is saved "usually within a minute": its record is looked for up to this long after the call's end. */
const RECORDING_WINDOW_MS = 60 * 60_000;

interface Candidate {
  record: WebhookDelivery;
  type: string;
  at: number;
  used: boolean;
}

export function explainGaps(gaps: readonly Gap[], records: readonly WebhookDelivery[], loggedIds: ReadonlySet<string>, endpoint?: WebhookEndpoint): GapStatus[] {
  const byObject = new Map<string, WebhookDelivery>();
  const byTime = new Map<string, Candidate[]>();
  for (const record of records) {
    const eventId = str(pick(record, ['event_id', 'event.id']));
    if (eventId !== undefined && loggedIds.has(eventId)) continue; // delivered and logged: not about a gap
    const type = str(pick(record, ['event_type', 'type', 'event.type', 'event.event_type']));
    if (type === undefined) continue;
    const object = str(pick(record, type === 'campaign.completed'
      ? ['campaign_id', 'object_id', 'data.id', 'event.data.id', 'payload.data.id']
      : ['call_id', 'object_id', 'data.call_id', 'event.data.call_id', 'payload.data.call_id']));
    if (object !== undefined) {
      byObject.set(eventKey(type, object), record);
      continue;
    }
    const at = Date.parse(str(pick(record, ['created_at', 'occurred_at', 'event.created_at', 'first_attempt_at'])) ?? '');
    if (!Number.isFinite(at)) continue;
    const list = byTime.get(type) ?? [];
    list.push({ record, type, at, used: false });
    byTime.set(type, list);
  }
  const subscribed = (type: string) => !endpoint?.events || endpoint.events.length === 0 || endpoint.events.includes(type);
  return gaps.map((gap) => {
    const exact = byObject.get(eventKey(gap.type, gap.object_id));
    if (exact) return describe(exact, 'object');
    const near = nearest(byTime.get(gap.type), gap);
    if (near) return describe(near, 'time');
    if (!subscribed(gap.type)) return { verdict: 'never_tried', reason: `never tried: the endpoint is not subscribed to ${gap.type}` };
    return { verdict: 'never_tried', reason: 'never tried: no delivery record (the endpoint was disabled, or not yet created, when it happened; or the service no longer keeps the record)' };
  });
}

function nearest(candidates: Candidate[] | undefined, gap: Gap): WebhookDelivery | undefined {
  if (!candidates) return undefined;
  const ref = Date.parse(gap.occurred_at ?? (typeof gap.data.end_time === 'string' ? gap.data.end_time : ''));
  if (!Number.isFinite(ref)) return undefined;
  let best: Candidate | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (c.used) continue;
    const d = gap.type === 'call.recording_ready' ? (c.at >= ref - TIME_TOLERANCE_MS && c.at <= ref + RECORDING_WINDOW_MS ? Math.abs(c.at - ref) : Infinity) : Math.abs(c.at - ref);
    if (d <= (gap.type === 'call.recording_ready' ? RECORDING_WINDOW_MS : TIME_TOLERANCE_MS) && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best) best.used = true;
  return best?.record;
}

function describe(record: WebhookDelivery, matchedBy: 'object' | 'time'): GapStatus {
  const status = (str(pick(record, ['status', 'state', 'delivery_status'])) ?? '').toLowerCase();
  const attemptsRaw = Number(attemptsOf(record));
  const attempts = Number.isFinite(attemptsRaw) ? attemptsRaw : undefined;
  const failure = failureOf(record);
  const next = nextRetryOf(record);
  const tries = attempts === undefined ? '' : `${attempts} attempt${attempts === 1 ? '' : 's'}`;
  const by = matchedBy === 'time' ? ' [record matched by time]' : '';
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
