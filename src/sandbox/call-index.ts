/**
 * Derived indexes over one organization's calls, rebuilt from the plain state: calls
 * sorted by (start time, call_id) for the whole organization and per campaign, so a
 * GET /calls page is two binary searches and a slice, not a scan of 100,000 calls.
 * A status filter scans the time range once and is cached until a call changes.
 */
import { flat } from './rng.js';
import type { Call } from './records.js';

export interface CallQuery {
  campaignId?: string;
  status?: string;
  since?: number;
  until?: number;
}

/** A window of a sorted array (no copy), or a filtered copy. */
export interface CallRange {
  items: Call[];
  from: number;
  to: number;
}

const CACHE_SIZE = 16;
/** JSON kept for list pages: enough for 100,000 calls, bounded so memory stays predictable. */
const JSON_CACHE_CHARS = 64 * 1024 * 1024;

function compareCalls(a: Call, b: Call): number {
  return a._start - b._start || (a.call_id < b.call_id ? -1 : a.call_id > b.call_id ? 1 : 0);
}

export class CallIndex {
  private all: Call[] = [];
  private byCampaign = new Map<string, Call[]>();
  private version = 0;
  private filtered = new Map<string, { version: number; items: Call[] }>();
  // A Map, not a WeakMap: calls are never deleted, and 100,000 ephemerons slow every GC.
  private json = new Map<Call, string>();
  private jsonChars = 0;

  constructor(org: { calls: Record<string, Call> }) {
    this.rebuild(Object.values(org.calls));
  }

  rebuild(calls: Call[]): void {
    this.all = calls.slice().sort(compareCalls);
    this.byCampaign.clear();
    for (const c of this.all) {
      if (c.campaign_id) this.list(c.campaign_id).push(c);
    }
    this.version++;
  }

  get size(): number {
    return this.all.length;
  }

  add(call: Call): void {
    insertSorted(this.all, call);
    if (call.campaign_id) insertSorted(this.list(call.campaign_id), call);
    this.version++;
  }

  /** A call's fields changed: drop its cached JSON and any filtered views. */
  touch(call: Call): void {
    const s = this.json.get(call);
    if (s !== undefined) {
      this.jsonChars -= s.length;
      this.json.delete(call);
    }
    this.version++;
  }

  /** Every cached view is stale (for example after an agent was deleted). */
  touchAll(): void {
    this.json.clear();
    this.jsonChars = 0;
    this.version++;
  }

  forCampaign(campaignId: string): Call[] {
    return this.byCampaign.get(campaignId) ?? [];
  }

  query(q: CallQuery): CallRange {
    const base = q.campaignId !== undefined ? this.forCampaign(q.campaignId) : this.all;
    const from = q.since === undefined ? 0 : lowerBound(base, q.since);
    const to = q.until === undefined ? base.length : lowerBound(base, q.until);
    if (q.status === undefined) return { items: base, from, to: Math.max(from, to) };
    const key = `${q.campaignId ?? ''}|${q.status}|${q.since ?? ''}|${q.until ?? ''}`;
    const hit = this.filtered.get(key);
    if (hit && hit.version === this.version) return { items: hit.items, from: 0, to: hit.items.length };
    const items: Call[] = [];
    for (let i = from; i < to; i++) if (base[i]!.status === q.status) items.push(base[i]!);
    if (this.filtered.size >= CACHE_SIZE) this.filtered.delete(this.filtered.keys().next().value!);
    this.filtered.set(key, { version: this.version, items });
    return { items, from: 0, to: items.length };
  }

  /** The call's list form (no transcript) as JSON, cached until the call changes. */
  jsonOf(call: Call, render: (c: Call) => unknown): string {
    let s = this.json.get(call);
    if (s === undefined) {
      s = flat(JSON.stringify(render(call)));
      this.json.set(call, s);
      this.jsonChars += s.length;
      if (this.jsonChars > JSON_CACHE_CHARS) this.evict();
    }
    return s;
  }

  /** Serializes every call (newest last, so eviction drops the oldest first). */
  warm(render: (c: Call) => unknown): void {
    for (const c of this.all) this.jsonOf(c, render);
  }

  /** Drops the oldest tenth of the cache. */
  private evict(): void {
    const target = JSON_CACHE_CHARS * 0.9;
    for (const [call, s] of this.json) {
      if (this.jsonChars <= target) break;
      this.json.delete(call);
      this.jsonChars -= s.length;
    }
  }

  private list(campaignId: string): Call[] {
    let l = this.byCampaign.get(campaignId);
    if (!l) {
      l = [];
      this.byCampaign.set(campaignId, l);
    }
    return l;
  }
}

/** First index whose start time is >= t. */
function lowerBound(arr: Call[], t: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]!._start < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** New calls almost always start last, so the search usually ends at the tail. */
function insertSorted(arr: Call[], call: Call): void {
  const last = arr[arr.length - 1];
  if (!last || compareCalls(last, call) <= 0) {
    arr.push(call);
    return;
  }
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCalls(arr[mid]!, call) <= 0) lo = mid + 1;
    else hi = mid;
  }
  arr.splice(lo, 0, call);
}
