/**
 * `listen --from-api`: the service's events without a public URL or a tunnel. Each poll
 * reads the calls that started since the cursor and the campaigns seen but not completed,
 * and builds the events the service would have sent (the same rebuilt events as
 * `events reconcile`, with the same stable ids).
 *
 * The cursor is the start time of the oldest call that may still owe an event (not yet
 * ended, or ended without its recording a short while ago), so no call is skipped however
 * long it runs; calls re-read are recognized by their events' ids. It is saved after each
 * poll, once the poll's events are handled, and read at start: a restart, even after a
 * SIGKILL, goes on from the last poll. Exactly-once logging does not rest on the cursor:
 * the log is read at start, and an event whose id it holds is never logged again.
 */
import { readUserText, userFileReason } from '../util/user-file.js';
import type { ApiClient } from '../api/client.js';
import { allCalls } from '../api/calls.js';
import { getCampaign } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import { callFinished, rebuildEvent, type RebuiltEvent, type RebuiltType } from './rebuild.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export interface Cursor {
  version: 1;
  base_url: string;
  /** Calls that started at or after this time are read at the next poll. */
  since: string;
  /** Campaigns seen whose campaign.completed has not been emitted yet. */
  campaigns: string[];
  /** Ids of events emitted for calls still read by the next poll (for runs without a log). */
  recent: string[];
}

/** How long after a call's end its recording is waited for (the spec: usually within a minute). */
const RECORDING_WAIT_MS = 10 * 60_000;

export function freshCursor(baseUrl: string, since: Date): Cursor {
  return { version: 1, base_url: baseUrl, since: since.toISOString(), campaigns: [], recent: [] };
}

export type CursorRead = { cursor: Cursor } | { missing: true } | { unusable: string };

export async function readCursor(path: string): Promise<CursorRead> {
  let text: string;
  try {
    text = await readUserText(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { unusable: userFileReason(err) };
  }
  try {
    const c = JSON.parse(text) as Partial<Cursor>;
    if (c.version !== 1 || typeof c.since !== 'string' || !Number.isFinite(Date.parse(c.since)) || typeof c.base_url !== 'string') return { unusable: 'not a cursor file' };
    return {
      cursor: {
        version: 1, base_url: c.base_url, since: c.since,
        campaigns: Array.isArray(c.campaigns) ? c.campaigns.filter((x): x is string => typeof x === 'string') : [],
        recent: Array.isArray(c.recent) ? c.recent.filter((x): x is string => typeof x === 'string') : [],
      },
    };
  } catch {
    return { unusable: 'not JSON' };
  }
}

/** Written whole under another name, then renamed over the old one: a crash leaves the old cursor or the new, never half. */
export async function saveCursor(path: string, cursor: Cursor): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(cursor)}\n`, { mode: 0o600 });
}

export interface PollDeps {
  api: ApiClient;
  /** Ids already handled (from the log, and from earlier polls). */
  seen: Set<string>;
  /** Handles one new event; false when it could not be (it is tried again at the next poll). */
  emit: (event: RebuiltEvent) => Promise<boolean>;
  now: () => Date;
  signal?: AbortSignal;
}

export interface PollResult {
  cursor: Cursor;
  emitted: number;
  calls: number;
}

/** One poll: every new event emitted in the API's order, and the cursor that follows. */
export async function poll(cursor: Cursor, d: PollDeps): Promise<PollResult> {
  let emitted = 0;
  let calls = 0;
  const campaigns = new Set(cursor.campaigns);
  /** Server time as far as the calls tell it: the newest start or end seen. */
  let newest = Date.parse(cursor.since);
  let newestStart: number | undefined;
  let hold: number | undefined;
  const waiting: Array<{ start: number; end: number }> = [];
  const recent: Array<{ start: number; ids: string[] }> = [];

  const send = async (type: RebuiltType, objectId: string, data: Record<string, unknown>): Promise<{ ok: boolean; id: string }> => {
    const event = rebuildEvent(type, objectId, data, d.now());
    if (d.seen.has(event.id)) return { ok: true, id: event.id };
    const ok = await d.emit(event);
    if (ok) {
      d.seen.add(event.id);
      emitted++;
    }
    return { ok, id: event.id };
  };

  for await (const call of allCalls(d.api, { since: cursor.since }, { signal: d.signal })) {
    if (typeof call.call_id !== 'string' || call.call_id === '') continue;
    calls++;
    const c = call as Record<string, unknown>;
    const start = Date.parse(call.start_time ?? '');
    const end = Date.parse(typeof call.end_time === 'string' ? call.end_time : '');
    if (Number.isFinite(start)) {
      newest = Math.max(newest, start);
      newestStart = Math.max(newestStart ?? start, start);
    }
    if (Number.isFinite(end)) newest = Math.max(newest, end);
    if (typeof call.campaign_id === 'string' && call.campaign_id) campaigns.add(call.campaign_id);
    let owes = false;
    const ids: string[] = [];
    if (!callFinished(c)) owes = true;
    else {
      const ended = await send('call.ended', call.call_id, c);
      ids.push(ended.id);
      if (!ended.ok) owes = true;
      if (call.has_recording === true) {
        const rec = await send('call.recording_ready', call.call_id, c);
        ids.push(rec.id);
        if (!rec.ok) owes = true;
      } else if (Number.isFinite(start)) {
        waiting.push({ start, end: Number.isFinite(end) ? end : start });
      }
    }
    if (Number.isFinite(start)) {
      if (owes) hold = Math.min(hold ?? start, start);
      recent.push({ start, ids });
    }
  }
  for (const w of waiting) if (w.end > newest - RECORDING_WAIT_MS) hold = Math.min(hold ?? w.start, w.start);

  for (const id of [...campaigns]) {
    let campaign;
    try {
      campaign = await getCampaign(d.api, id, { signal: d.signal });
    } catch (err) {
      // Deleted, or never this key's to read: nothing will come of it.
      if (err instanceof ApiError && err.status === 404) {
        campaigns.delete(id);
        continue;
      }
      throw err;
    }
    if (campaign.status !== 'completed') continue;
    if ((await send('campaign.completed', id, campaign as Record<string, unknown>)).ok) campaigns.delete(id);
  }

  const sinceMs = hold ?? newestStart ?? Date.parse(cursor.since);
  return {
    cursor: {
      version: 1,
      base_url: cursor.base_url,
      since: new Date(sinceMs).toISOString(),
      campaigns: [...campaigns],
      recent: recent.filter((r) => r.start >= sinceMs).flatMap((r) => r.ids),
    },
    emitted,
    calls,
  };
}
