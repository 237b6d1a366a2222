/**
 * One poll of a campaign: its status and counts, and the calls that finished since the
 * last poll, each reported exactly once.
 *
 * Why a tick costs a bounded number of requests, even for 10,000 contacts:
 *
 * 1. GET /campaigns/{id}: one request, for status and contacts_by_status.
 * 2. New calls: GET /calls?campaign_id=…&since=<latest start_time seen>&limit=200,
 *    paged by offset, at most MAX_PAGES pages per tick. `since` is inclusive on most
 *    servers, so the calls at the cursor come back and are dropped by call_id. A
 *    backlog longer than that (a launch that dialed thousands at once) resumes at the
 *    same offset next tick: calls are only ever added, so resuming may repeat an item
 *    (deduped) but does not skip one. When many calls share one start time (a server
 *    that dials a whole campaign in the same instant), the cursor cannot move; the
 *    scan then stays at the end of the listing instead of reading it again from 0.
 * 3. Calls still in progress when read are remembered (id and start time only). They
 *    are re-read only when contacts_by_status counts more finished contacts than
 *    calls reported so far: a listing since the oldest in-progress start time, which
 *    stops as soon as the counts agree, again at most MAX_PAGES pages per tick. Where
 *    it stopped is kept, so the next re-check goes on from there (round the listing)
 *    rather than re-reading its first pages.
 *
 * So a running tick is at most 1 + 2 x MAX_PAGES requests, and typically 2 to 4. Once
 * the campaign reports `completed` the page limits are lifted for a final sweep, so the
 * summary covers every call; if the counts still disagree after the in-progress
 * window, one full listing of the campaign's calls settles it.
 */
import type { Campaign } from '../api/campaigns.js';
import { callId, finishedAt, isFinished, str, timeMs, type ListedCall } from '../calls/model.js';
import { Tally, finishedOf, statusCounts } from './summary.js';

export const PAGE_SIZE = 200;
export const MAX_PAGES = 5;

export interface CallsQuery {
  since?: string;
  limit: number;
  offset: number;
}

export interface CallsPage {
  items: unknown[];
  total?: number;
}

/** Where the poller reads from: the API in the command, anything in tests. */
export interface WatchSource {
  campaign(signal?: AbortSignal): Promise<Campaign>;
  calls(query: CallsQuery, signal?: AbortSignal): Promise<CallsPage>;
}

export interface TickResult {
  campaign: Campaign;
  counts: Record<string, number>;
  /** Calls that finished since the previous tick, in the order they ended. */
  finished: ListedCall[];
  /** Finished contacts by the campaign's counts minus finished calls reported (0 when counts are missing). */
  unaccounted: number;
  requests: number;
}

interface Scan {
  since?: string;
  offset: number;
}

/** How a scan ended: the listing ran out, the caller had enough, or the page limit cut it. */
type ScanEnd = 'end' | 'enough' | 'cut';

const COMPLETED = new Set(['completed', 'complete', 'finished', 'done']);
/** Statuses some servers use for a campaign that stopped without completing. */
const ENDED = new Set(['cancelled', 'canceled', 'stopped', 'aborted', 'failed', 'archived', 'deleted']);

export function campaignState(campaign: Campaign, counts = statusCounts(campaign.contacts_by_status)): 'draft' | 'completed' | 'ended' | 'running' {
  const status = str(campaign.status)?.toLowerCase();
  if (status === 'draft') return 'draft';
  if (status && COMPLETED.has(status)) return 'completed';
  if (status && ENDED.has(status)) return 'ended';
  // No status at all: everything dialed and nothing pending is as complete as it gets.
  if (!status && Object.keys(counts).length > 0 && (counts.pending ?? 0) + (counts.initiated ?? 0) === 0 && finishedOf(counts) > 0) {
    return 'completed';
  }
  return 'running';
}

export class Poller {
  readonly tally = new Tally();
  private readonly reported = new Set<string>();
  /** Calls read while in progress: id -> start time (ms and as the server wrote it). */
  private readonly inProgress = new Map<string, { ms?: number; raw?: string }>();
  private newest?: { ms: number; raw: string };
  private newScan: Scan = { offset: 0 };
  private recheck?: Scan;
  private recheckCut = false;
  /** The server's finished count when the in-progress calls were last settled. */
  private settledAt = 0;
  private requests = 0;
  /**
   * Finished calls found and not yet handed out. A member, not a local: a tick that
   * fails half-way has already marked what it found as reported, and the next tick
   * must still hand those calls out.
   */
  private found: ListedCall[] = [];

  constructor(private readonly source: WatchSource) {}

  get reportedCount(): number {
    return this.reported.size;
  }

  get inProgressCount(): number {
    return this.inProgress.size;
  }

  async tick(signal?: AbortSignal): Promise<TickResult> {
    this.requests = 0;
    const campaign = await this.source.campaign(signal);
    this.requests++;
    const counts = statusCounts(campaign.contacts_by_status);
    const state = campaignState(campaign, counts);
    if (state === 'draft') return { campaign, counts, finished: this.found.splice(0), unaccounted: 0, requests: this.requests };

    const final = state !== 'running';
    const pages = final ? Number.POSITIVE_INFINITY : MAX_PAGES;
    const haveCounts = Object.keys(counts).length > 0;
    const serverFinished = finishedOf(counts);
    const unaccounted = () => (haveCounts ? serverFinished - this.reported.size : 0);

    if ((await this.scan(this.newScan, pages, this.found, signal)) === 'end') {
      // Stay at the end of this listing unless the cursor can move on.
      if (this.newest && this.newest.raw !== this.newScan.since) this.newScan = { since: this.newest.raw, offset: 0 };
    }

    // Without counts there is no telling whether anything finished: re-read the
    // in-progress window every tick (still page-limited).
    const due = haveCounts
      ? unaccounted() > 0 && (final || this.recheckCut || serverFinished > this.settledAt)
      : this.inProgress.size > 0;
    if (due) await this.settle(final, pages, this.found, haveCounts ? () => unaccounted() <= 0 : undefined, signal);
    if (!this.recheckCut) this.settledAt = serverFinished;

    const finished = this.found.splice(0).sort((a, b) => (finishedAt(a) ?? 0) - (finishedAt(b) ?? 0));
    return { campaign, counts, finished, unaccounted: Math.max(0, unaccounted()), requests: this.requests };
  }

  /** Re-reads the in-progress window (or, in the final sweep, everything) until `enough`. */
  private async settle(final: boolean, pages: number, out: ListedCall[], enough: (() => boolean) | undefined, signal?: AbortSignal): Promise<void> {
    if (!this.recheck) {
      if (this.inProgress.size > 0) this.recheck = { since: this.oldestInProgress(), offset: 0 };
      else if (final) this.recheck = { offset: 0 };
      else return;
    }
    const windowed = this.recheck.since !== undefined;
    const end = await this.scan(this.recheck, pages, out, signal, enough);
    this.recheckCut = end === 'cut';
    if (end !== 'end') return;
    this.recheck = undefined;
    // A finished call that started before every in-progress one and was never listed
    // (late to appear): only a full listing finds it, and only at the end does it matter.
    if (final && windowed && !enough?.()) await this.scan({ offset: 0 }, pages, out, signal, enough);
  }

  private async scan(scan: Scan, maxPages: number, out: ListedCall[], signal?: AbortSignal, enough?: () => boolean): Promise<ScanEnd> {
    for (let page = 0; page < maxPages; page++) {
      if (enough?.()) return 'enough';
      const res = await this.source.calls({ since: scan.since, limit: PAGE_SIZE, offset: scan.offset }, signal);
      this.requests++;
      for (const item of res.items) this.observe(item, out);
      scan.offset += res.items.length;
      if (res.items.length === 0) return 'end';
      if (res.total !== undefined ? scan.offset >= res.total : res.items.length < PAGE_SIZE) return 'end';
    }
    return enough?.() ? 'enough' : 'cut';
  }

  private observe(item: unknown, out: ListedCall[]): void {
    const id = callId(item);
    if (id === undefined) return;
    const call = item as Record<string, unknown>;
    const raw = str(call.start_time);
    const ms = timeMs(raw);
    if (raw && ms !== undefined && (!this.newest || ms > this.newest.ms)) this.newest = { ms, raw };
    if (this.reported.has(id)) return;
    if (isFinished(call)) {
      this.reported.add(id);
      this.inProgress.delete(id);
      this.tally.add(call);
      out.push({ ...call, call_id: id });
    } else {
      this.inProgress.set(id, { ms, raw });
    }
  }

  /** The start time to re-read in-progress calls from; undefined (everything) if one has none. */
  private oldestInProgress(): string | undefined {
    let oldest: { ms?: number; raw?: string } | undefined;
    for (const v of this.inProgress.values()) {
      if (v.ms === undefined || !v.raw) return undefined;
      if (!oldest || v.ms < oldest.ms!) oldest = v;
    }
    return oldest?.raw;
  }
}
