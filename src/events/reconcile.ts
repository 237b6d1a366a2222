/**
 * `events reconcile`: every event the service should have sent for the calls and campaigns
 * in scope, compared with what the logs hold. The calls are read page by page and only the
 * gaps are kept, so a hundred thousand calls cost the memory of the gaps, not of the calls.
 * Pages are read as `call export` reads them: a few at a time, in order, each call once.
 *
 * Expected events (spec section 6): `call.ended` for each finished call,
 * `call.recording_ready` for each call with `has_recording`, `campaign.completed` for each
 * completed campaign in scope.
 */
import type { ApiClient } from '../api/client.js';
import type { CallFilters } from '../api/calls.js';
import { callPages } from '../export/pages.js';
import { getCampaign } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import { toQueryTime } from '../util/time.js';
import { eventKey, type LogIndex } from './log-index.js';
import { callFinished, type RebuiltType } from './rebuild.js';

export type Scope = { since: Date; until?: Date } | { campaigns: string[] };

export interface Gap {
  type: RebuiltType;
  /** The call id, or the campaign id of campaign.completed. */
  object_id: string;
  campaign_id: string | null;
  /** When the event happened, as far as the object says: the call's end time; absent when unknown. */
  occurred_at?: string;
  /** The object as the API returned it: the event's `data`. */
  data: Record<string, unknown>;
}

export interface Scan {
  gaps: Gap[];
  calls: number;
  /** Calls in scope that have not finished yet: no event is due for them. */
  unfinished: number;
  campaigns: number;
  /** Events the service should have sent for the scope. */
  expected: number;
  /** Campaigns the calls point to that the API does not find (404): their campaign.completed is not checked. */
  unreadable: string[];
  /**
   * When the expected events the logs do hold happened, as the API says (a call's end, a
   * campaign's completion), by type: a delivery record that names no event near one of
   * them is that event's, not a gap's.
   */
  found: Map<string, number[]>;
}

/** Reads the scope from the API and lists the expected events the index does not hold. */
export async function scan(api: ApiClient, scope: Scope, log: LogIndex, signal?: AbortSignal): Promise<Scan> {
  const gaps: Gap[] = [];
  const campaignIds = new Set<string>();
  let calls = 0;
  let unfinished = 0;
  let expected = 0;
  const filters: CallFilters[] = 'campaigns' in scope
    ? scope.campaigns.map((id) => ({ campaign_id: id }))
    : [{ since: toQueryTime(scope.since), until: toQueryTime(scope.until) }];
  if ('campaigns' in scope) for (const id of scope.campaigns) campaignIds.add(id);
  const seen = new Set<string>();
  const found = new Map<string, number[]>();
  const foundAt = (type: string, at: unknown) => {
    const t = typeof at === 'string' ? Date.parse(at) : NaN;
    if (!Number.isFinite(t)) return;
    const list = found.get(type);
    if (list) list.push(t);
    else found.set(type, [t]);
  };
  for (const f of filters) {
    // A few pages in flight at once (handed over in order): against a distant service,
    // 500 pages one after another would be mostly waiting.
    for await (const page of callPages(api, { filters: f, concurrency: 4, signal })) for (const call of page) {
      const c = call as Record<string, unknown>;
      // No id, no event can name it: such an entry is not a call.
      if (typeof call.call_id !== 'string' || call.call_id === '' || seen.has(call.call_id)) continue;
      seen.add(call.call_id);
      calls++;
      if (typeof call.campaign_id === 'string' && call.campaign_id) campaignIds.add(call.campaign_id);
      if (!callFinished(c)) {
        unfinished++;
        continue;
      }
      const base = { object_id: call.call_id, campaign_id: call.campaign_id ?? null, data: c };
      expected++;
      if (!log.keys.has(eventKey('call.ended', call.call_id))) {
        gaps.push({ type: 'call.ended', ...base, ...(typeof call.end_time === 'string' ? { occurred_at: call.end_time } : {}) });
      } else foundAt('call.ended', call.end_time);
      if (call.has_recording === true) {
        expected++;
        if (!log.keys.has(eventKey('call.recording_ready', call.call_id))) gaps.push({ type: 'call.recording_ready', ...base });
      }
    }
  }
  const named = new Set('campaigns' in scope ? scope.campaigns : []);
  const unreadable: string[] = [];
  for (const id of campaignIds) {
    let campaign;
    try {
      campaign = await getCampaign(api, id, { signal });
    } catch (err) {
      // A campaign named on the command line must exist; one a call points to may be gone.
      if (named.has(id) || !(err instanceof ApiError) || err.status !== 404) throw err;
      unreadable.push(id);
      continue;
    }
    if (campaign.status !== 'completed') continue;
    expected++;
    if (!log.keys.has(eventKey('campaign.completed', id))) {
      const at = typeof campaign.completed_at === 'string' ? campaign.completed_at : undefined;
      gaps.push({ type: 'campaign.completed', object_id: id, campaign_id: id, data: campaign as Record<string, unknown>, ...(at ? { occurred_at: at } : {}) });
    } else foundAt('campaign.completed', campaign.completed_at);
  }
  return { gaps, calls, unfinished, campaigns: campaignIds.size - unreadable.length, expected, unreadable, found };
}
