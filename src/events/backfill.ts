/**
 * `events reconcile --backfill URL`: each missing event, rebuilt from the API object, is
 * POSTed to the app signed in the service's scheme (so the app's own verification takes
 * it) with `Service-Event-Synthesized: true`, and once the app acknowledges it (2xx) the
 * event is appended to the log: the next reconcile finds it there, so a second run sends
 * nothing. `--into-log` appends without sending, for `listen --replay` to forward later.
 *
 * One request at a time, in the API's order; a POST is never retried (the next run sends
 * what this one could not).
 */
import { access } from 'node:fs/promises';
import type { EventLog } from '../webhooks/event-log.js';
import type { EventPoster, PostResult } from '../webhooks/forward.js';
import { Ledger, recordsFile } from '../webhooks/forwarding.js';
import { deliveryHeaders, rebuildEvent, type RebuiltEvent } from './rebuild.js';
import type { Gap } from './reconcile.js';

export interface BackfillResult {
  event: RebuiltEvent;
  /** The app's answer; absent with --into-log. */
  post?: PostResult;
  /** The event is in the log now. */
  logged: boolean;
  /** Why the event could not be logged after the app took it. */
  logError?: string;
}

export interface BackfillOptions {
  log: EventLog;
  /** Absent: --into-log. */
  poster?: EventPoster;
  secret?: string;
  now: () => Date;
  signal?: AbortSignal;
  onResult?: (r: BackfillResult) => void;
}

export async function backfill(gaps: readonly Gap[], o: BackfillOptions): Promise<BackfillResult[]> {
  // When listen forwards from this log, its ledger learns the app already took these events,
  // so `listen --replay --unforwarded` does not send them again.
  const ledger = o.poster && (await exists(recordsFile(o.log.path))) ? new Ledger(o.log.path, () => {}) : undefined;
  const results: BackfillResult[] = [];
  for (const gap of gaps) {
    if (o.signal?.aborted) break;
    const event = rebuildEvent(gap.type, gap.object_id, gap.data, o.now());
    const line = JSON.stringify(event);
    let post: PostResult | undefined;
    if (o.poster) {
      const body = Buffer.from(line, 'utf8');
      post = await o.poster.post(body, deliveryHeaders(event, body, o.secret, o.now(), 'voicectl-backfill'));
      if (!post.ok) {
        const r: BackfillResult = { event, post, logged: false };
        results.push(r);
        o.onResult?.(r);
        continue;
      }
    }
    let r: BackfillResult;
    try {
      await o.log.append(line);
      r = { event, ...(post ? { post } : {}), logged: true };
      if (post) await ledger?.append({ id: event.id, ok: true, status: post.status ?? null, attempts: 1, at: o.now().toISOString() });
    } catch (err) {
      r = { event, ...(post ? { post } : {}), logged: false, logError: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
    }
    results.push(r);
    o.onResult?.(r);
  }
  return results;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
