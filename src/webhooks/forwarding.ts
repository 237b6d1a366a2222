/**
 * `listen --forward-to`: what happens to an event on its way to the user's app.
 *
 * - With `--log`, the event is safe on disk before it is acknowledged; the forward follows,
 *   and a forward the app does not acknowledge (2xx) is retried with growing waits, up to
 *   MAX_ATTEMPTS. Each event's outcome is appended to `<log>.forwards` (NDJSON:
 *   `{id, ok, status, attempts, at, error}`), so `listen --replay <log> --unforwarded`
 *   re-sends exactly the events the app never acknowledged.
 * - Without a log, the app's acknowledgement is the acknowledgement: `deliver` answers
 *   whether the app took the event, and listen answers the service only then.
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { EventPoster, PostResult } from './forward.js';
import type { AcceptedEvent } from './receiver.js';

export const MAX_ATTEMPTS = 6;
/** Waits between attempts: 1 s, 2 s, 4 s … up to a minute. */
export const retryDelay = (attempt: number): number => Math.min(60_000, 1000 * 2 ** (attempt - 1));

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
  /** The --log file, whose `.forwards` file gets each outcome; absent: nothing is recorded. */
  log?: string;
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
    if (!this.o.log) return;
    try {
      await appendFile(recordsFile(this.o.log), `${JSON.stringify(rec)}\n`, { mode: 0o600 });
    } catch {
      // The event itself is safe in the log; --replay without --unforwarded still re-sends it.
    }
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
  const done = new Set<string>();
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
      if (r.ok) done.add(r.id);
      else done.delete(r.id);
    } catch {
      // a torn record: the event counts as not forwarded
    }
  }
  return done;
}

export async function recordForward(log: string, rec: ForwardRecord): Promise<void> {
  await appendFile(recordsFile(log), `${JSON.stringify(rec)}\n`, { mode: 0o600 });
}
