/**
 * What a `listen --log` file holds, read as a stream: for each event, its id and the
 * object it is about (`call.ended` of call X), which is what reconcile compares with the
 * API. A line that is not JSON (a write cut short, a stray paste) or is JSON but not an
 * event is passed over and named in a warning, never a crash: the log is the user's file.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { openUserStream } from '../util/user-file.js';
import { isObject } from '../util/is-object.js';

/** The key of "this event about this object": type and object id. */
export function eventKey(type: string, objectId: string): string {
  return `${type} ${objectId}`;
}

/** The object an event is about: the call of call events, the campaign of campaign.completed. */
function objectIdOf(type: string, data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  const d = data;
  const v = type === 'campaign.completed' ? d.id ?? d.campaign_id : type.startsWith('call.') ? d.call_id : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export interface SkippedLines {
  file: string;
  /** Lines (1-based) that are not JSON: torn writes, or text that is not the log's. */
  notJson: number[];
  /** Lines that are JSON but not an event (no id, type or data). */
  notEvent: number[];
}

export interface LogIndex {
  /** eventKey(type, object id) of every event found. */
  keys: Set<string>;
  /** Every event id found. */
  ids: Set<string>;
  /**
   * When each logged event happened (its `created_at`), by type: a delivery record that names
   * no event is tied to a missing one by time only when no logged event is as close to it.
   */
  times: Map<string, number[]>;
  /** Event lines read, over all files. */
  events: number;
  skipped: SkippedLines[];
}

export function emptyIndex(): LogIndex {
  return { keys: new Set(), ids: new Set(), times: new Map(), events: 0, skipped: [] };
}

/**
 * Reads each file into one index. A file that does not exist is an error (ENOENT, for the
 * caller to word) unless `missingOk`, when it reads as empty.
 */
export async function readLogs(paths: readonly string[], options: { missingOk?: boolean; signal?: AbortSignal } = {}): Promise<LogIndex> {
  const index = emptyIndex();
  for (const path of paths) await readLog(path, index, options.missingOk ?? false, options.signal);
  return index;
}

async function readLog(path: string, index: LogIndex, missingOk: boolean, signal?: AbortSignal): Promise<void> {
  const skipped: SkippedLines = { file: path, notJson: [], notEvent: [] };
  let stream: Readable | undefined;
  try {
    // Opened without blocking: a FIFO with no writer is refused, not waited on.
    stream = await openUserStream(path, { signal });
    let n = 0;
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      n++;
      // A byte-order mark, as some editors save a file, is not part of the first event.
      const raw = n === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
      if (raw.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        skipped.notJson.push(n);
        continue;
      }
      if (!isObject(parsed)) {
        skipped.notEvent.push(n);
        continue;
      }
      const e = parsed;
      if (typeof e.id !== 'string' || typeof e.type !== 'string' || !('data' in e)) {
        skipped.notEvent.push(n);
        continue;
      }
      index.events++;
      index.ids.add(e.id);
      const object = objectIdOf(e.type, e.data);
      if (object !== undefined) index.keys.add(eventKey(e.type, object));
      const at = typeof e.created_at === 'string' ? Date.parse(e.created_at) : NaN;
      if (Number.isFinite(at)) {
        const list = index.times.get(e.type);
        if (list) list.push(at);
        else index.times.set(e.type, [at]);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && missingOk) return;
    throw err;
  } finally {
    stream?.destroy();
  }
  if (skipped.notJson.length || skipped.notEvent.length) index.skipped.push(skipped);
}

/** "lines 3, 9 and 12", at most `max` numbers then "and N more". */
export function lineList(lines: readonly number[], max = 10): string {
  const word = lines.length === 1 ? 'line' : 'lines';
  const shown = lines.slice(0, max);
  const rest = lines.length - shown.length;
  if (rest > 0) return `${word} ${shown.join(', ')} and ${rest} more`;
  if (shown.length === 1) return `${word} ${shown[0]}`;
  return `${word} ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** One sentence per file with lines passed over, for a warning. */
export function skippedWarnings(index: LogIndex): string[] {
  return index.skipped.map((s) => {
    const parts = [
      s.notJson.length ? `${lineList(s.notJson)} ${s.notJson.length === 1 ? 'is' : 'are'} not JSON (a write cut short, or text that is not an event)` : '',
      s.notEvent.length ? `${lineList(s.notEvent)} ${s.notEvent.length === 1 ? 'is' : 'are'} JSON but not an event (no id, type or data)` : '',
    ].filter(Boolean);
    return `${s.file}: ${parts.join('; ')}. Passed over: an event on such a line counts as missing.`;
  });
}
