/**
 * `listen --forward-to`: what happens to an event on its way to the user's app.
 *
 * - With `--log`, the event is safe on disk before it is acknowledged; the forward follows,
 *   and a forward the app does not acknowledge (2xx) is retried with growing waits, up to
 *   MAX_ATTEMPTS. Each event's outcome is appended to `<log>.forwards` (NDJSON:
 *   `{id, ok, status, attempts, at, error}`), so `listen --replay <log> --unforwarded`
 *   re-sends exactly the events the app never acknowledged. That ledger is kept as the log
 *   is: a torn last line is ended at start, and a ledger that cannot be written is said
 *   once, since its silence would make `--unforwarded` re-send what the app already took.
 * - Without a log, the app's acknowledgement is the acknowledgement: `deliver` answers
 *   whether the app took the event, and listen answers the service only then.
 */
import { createReadStream } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { endPartialLine } from './event-log.js';
import type { EventPoster, PostResult } from './forward.js';
import type { AcceptedEvent } from './receiver.js';
import { isObject } from '../util/is-object.js';

export const MAX_ATTEMPTS = 6;
/** Waits between attempts: 1 s, 2 s, 4 s … up to a minute. */
const retryDelay = (attempt: number): number => Math.min(60_000, 1000 * 2 ** (attempt - 1));

export interface ForwardRecord {
  id: string;
  ok: boolean;
  status: number | null;
  attempts: number;
  at: string;
  error?: string;
}

export const recordsFile = (log: string) => `${log}.forwards`;

export interface ForwarderOptions {
  poster: EventPoster;
  /** The ledger beside the --log file, which gets each outcome; absent: nothing is recorded. */
  ledger?: Ledger;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal: AbortSignal;
  now: () => Date;
  /** Every attempt's answer, for the terminal. */
  onAttempt: (e: AcceptedEvent, r: PostResult, attempt: number) => void;
}

export class Forwarder {
  private readonly inflight = new Set<Promise<void>>();
  /** Events whose forward ended without the app's acknowledgement (or was cut short). */
  private readonly failed = new Set<string>();

  constructor(private readonly o: ForwarderOptions) {}

  /** Without a log: one attempt, and the answer decides the acknowledgement. */
  async deliver(e: AcceptedEvent): Promise<string | undefined> {
    const r = await this.o.poster.post(e.raw, e.headers);
    this.o.onAttempt(e, r, 1);
    return r.ok ? undefined : `the app at ${this.o.poster.url.href} did not accept it (${why(r)})`;
  }

  /** With a log: in the background, retried until the app acknowledges it or attempts run out. */
  forward(e: AcceptedEvent): void {
    const p = this.run(e).finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  private async run(e: AcceptedEvent): Promise<void> {
    let r: PostResult | undefined;
    let attempt = 0;
    while (attempt < MAX_ATTEMPTS && !this.o.signal.aborted) {
      if (attempt > 0) {
        try {
          await this.o.sleep(retryDelay(attempt), this.o.signal);
        } catch {
          break; // Ctrl-C: recorded below as not forwarded
        }
        if (this.o.signal.aborted) break;
      }
      attempt++;
      r = await this.o.poster.post(e.raw, e.headers);
      this.o.onAttempt(e, r, attempt);
      if (r.ok) break;
    }
    const ok = r?.ok === true;
    if (!ok) this.failed.add(e.id);
    await this.record({ id: e.id, ok, status: r?.status ?? null, attempts: attempt, at: this.o.now().toISOString(), ...(r && !r.ok ? { error: why(r) } : {}) });
  }

  private async record(rec: ForwardRecord): Promise<void> {
    await this.o.ledger?.append(rec);
  }

  /** Waits for forwards in progress (they stop retrying at Ctrl-C), at most `ms`. */
  async settle(ms: number): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inflight]), new Promise((r) => setTimeout(r, ms).unref())]);
  }

  /** Events the app has not acknowledged: failed, or still in progress. */
  get notForwarded(): number {
    return this.failed.size + this.inflight.size;
  }
}

function why(r: PostResult): string {
  return r.status === undefined ? (r.error ?? 'no answer') : `it answered ${r.status}`;
}

/** The ids whose last recorded forward was acknowledged, from `<log>.forwards`. */
export async function forwardedIds(log: string): Promise<Set<string>> {
  return (await ledgerState(log)).done;
}

/** `done`: last forward acknowledged; `known`: any record at all. */
async function ledgerState(log: string): Promise<{ done: Set<string>; known: Set<string> }> {
  const done = new Set<string>();
  const known = new Set<string>();
  let text = '';
  try {
    text = await readFile(recordsFile(log), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as Partial<ForwardRecord>;
      if (typeof r.id !== 'string') continue;
      known.add(r.id);
      if (r.ok) done.add(r.id);
      else done.delete(r.id);
    } catch {
      // a torn record: the event counts as not forwarded
    }
  }
  return { done, known };
}

/**
 * `<log>.forwards`, appended to one record a line. A write that fails is reported once
 * (through `onFailure`, with the reason in words) and counted; the next write first ends
 * whatever fragment the failed one may have left, so a record is never glued onto it.
 */
export class Ledger {
  /** Outcomes that could not be recorded. */
  unrecorded = 0;
  private warned = false;
  private mayBeTorn = false;

  constructor(readonly log: string, private readonly onFailure: (message: string) => void) {}

  get path(): string {
    return recordsFile(this.log);
  }

  /** Whether a write has failed (and been reported). */
  get failing(): boolean {
    return this.warned;
  }

  /**
   * At start: ends a torn last line (a crash or a full disk mid-write); its length in bytes.
   * A ledger that cannot be repaired is reported as one that cannot be written.
   */
  async repair(): Promise<number> {
    try {
      return await endPartialLine(this.path);
    } catch (err) {
      this.mayBeTorn = true;
      this.report(err);
      return 0;
    }
  }

  /** True when the record is on file. */
  async append(rec: ForwardRecord): Promise<boolean> {
    try {
      if (this.mayBeTorn) {
        await endPartialLine(this.path);
        this.mayBeTorn = false;
      }
      await appendFile(this.path, `${JSON.stringify(rec)}\n`, { mode: 0o600 });
      return true;
    } catch (err) {
      this.mayBeTorn = true;
      this.unrecorded++;
      this.report(err);
      return false;
    }
  }

  private report(err: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.onFailure(fileError(err));
  }
}

function fileError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOENT':
      return 'its directory no longer exists';
    default:
      return e.code ? `${e.message} (${e.code})` : String(e.message ?? err);
  }
}

/** What `--replay LOG --unforwarded` would re-send: the logged events with no acknowledged forward. */
export interface Unforwarded {
  /** Events with no record at all in the ledger (logged, then never forwarded). */
  unrecorded: number;
  /** Events whose last recorded forward the app did not acknowledge. */
  refused: number;
}

/**
 * Counts the events of a log that `--replay --unforwarded` would re-send, read as replay
 * reads them (a line's top-level `id`, else its line number), reading the log as a stream.
 * With `types`, only events of those types.
 */
export async function unforwardedInLog(log: string, types?: readonly string[]): Promise<Unforwarded> {
  const { done, known } = await ledgerState(log);
  const counted = new Set<string>();
  const result: Unforwarded = { unrecorded: 0, refused: 0 };
  let stream;
  try {
    stream = createReadStream(log, { encoding: 'utf8' });
    let n = 0;
    for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
      n++;
      if (raw.trim() === '') continue;
      let event: unknown;
      try {
        event = JSON.parse(raw);
      } catch {
        continue; // replay skips a line that is not JSON
      }
      if (!isObject(event)) continue;
      const { id: rawId, type: rawType } = event;
      const type = typeof rawType === 'string' ? rawType : 'unknown';
      if (types && !types.includes(type)) continue;
      const id = typeof rawId === 'string' ? rawId : `line-${n}`;
      if (done.has(id) || counted.has(id)) continue;
      counted.add(id);
      if (known.has(id)) result.refused++;
      else result.unrecorded++;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  } finally {
    stream?.destroy();
  }
  return result;
}
