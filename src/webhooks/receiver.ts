/**
 * The HTTP server behind `voicectl listen`: verifies each delivery over its raw bytes,
 * drops duplicates by the signed body's `id`, makes each accepted event safe before the
 * 2xx (on disk in the log, or accepted by the app it is delivered to), and answers well
 * inside the service's 10-second limit. It prints nothing: the command receives callbacks
 * and decides what to show.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { diagnose } from './diagnose.js';
import type { EventLog } from './event-log.js';
import { header, readBody, relayHeaders } from './request.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, verify } from './signature.js';
import { isObject } from '../util/is-object.js';

const DEFAULT_MAX_BODY = 1024 * 1024;

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** The secrets a signature may match; null accepts unsigned requests (--skip-verify). */
  secrets: readonly string[] | null;
  /** Asked after a mismatch: secrets saved since start (a rotation), if any. */
  reloadSecrets?: () => readonly string[] | undefined;
  toleranceSec?: number;
  maxBodyBytes?: number;
  /** How many event ids are remembered for de-duplication (default 200,000). */
  dedupeCapacity?: number;
  /** How long an event id is remembered (default 48 hours: the service retries for about 36). */
  dedupeWindowMs?: number;
  /**
   * Without a log: hands the event to the user's app before it is acknowledged. A failure
   * (its message) is answered 502, so the service delivers the event again.
   */
  deliver?: (event: AcceptedEvent) => Promise<string | undefined>;
  /** A request whose headers and body have not all arrived by then is cut off (default 9 s). */
  requestTimeoutMs?: number;
  /** A log write slower than this is answered 503 so the service retries. */
  ackDeadlineMs?: number;
  log?: EventLog;
  now?: () => number;
  onEvent?: (event: AcceptedEvent) => void;
  onDuplicate?: (info: { id: string; type?: string; at: Date }) => void;
  onReject?: (rejection: Rejection) => void;
}

export interface AcceptedEvent {
  id: string;
  type: string;
  event: Record<string, unknown>;
  /** The body exactly as received. */
  raw: Buffer;
  /** The service's headers, for relaying to the user's app. */
  headers: Record<string, string>;
  receivedAt: Date;
  verified: boolean;
}

export interface Rejection {
  status: number;
  reason: string;
  message: string;
  likely?: string;
  id?: string;
  type?: string;
  at: Date;
}

export interface ReceiverStats {
  accepted: number;
  duplicates: number;
  rejected: number;
}

type Outcome = { status: number; body: Record<string, unknown> };
type Waiting = { since: number; settle: (o: Outcome) => void };

const SLOW: Outcome = { status: 503, body: { error: 'the log write is slow; not acknowledged, retry later' } };

export class Receiver {
  readonly stats: ReceiverStats = { accepted: 0, duplicates: 0, rejected: 0 };
  private readonly server: http.Server;
  readonly seen: SeenIds;
  private readonly inflight = new Map<string, Promise<Outcome>>();
  private readonly pending = new Set<Promise<unknown>>();
  private secrets: string[] | null;
  private lastReload = 0;
  private closing?: Promise<void>;
  private readonly waiting = new Set<Waiting>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly opts: ReceiverOptions) {
    this.secrets = opts.secrets ? [...opts.secrets] : null;
    this.seen = new SeenIds(opts.dedupeCapacity ?? 200_000, opts.dedupeWindowMs ?? 48 * 3600_000);
    // A sender that trickles its headers or body is cut off after 9 s, inside the service's
    // 10 s, and checked every second (Node checks every 30 s by default).
    const cutOff = opts.requestTimeoutMs ?? 9_000;
    this.server = http.createServer({ requestTimeout: cutOff, headersTimeout: cutOff, connectionsCheckingInterval: Math.min(1_000, cutOff / 4) }, (req, res) => {
      const p = this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) this.send(res, { status: 500, body: { error: `internal error: ${(err as Error).message}` } });
      });
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    });
  }

  async start(): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port ?? 4242, this.opts.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const a = this.server.address() as AddressInfo;
    return { host: a.address, port: a.port };
  }

  /** Stops accepting, lets requests in progress finish (their log writes included). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = new Promise<void>((r) => this.server.close(() => r()));
      this.server.closeIdleConnections();
      await Promise.allSettled([...this.pending]);
      this.server.closeAllConnections();
      await closed;
    })();
    return this.closing;
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'GET' ? 'voicectl listen is running: POST signed webhook events here.\n' : undefined);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST, GET, HEAD', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'POST webhook events here' }));
      return;
    }
    const ids = { id: header(req, EVENT_ID_HEADER), type: header(req, EVENT_TYPE_HEADER) };
    const max = this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const raw = await readBody(req, max);
    if (raw === 'too-large' || raw === 'abandon') {
      this.reject(res, 413, 'body_too_large', `the body is over ${max} bytes`, 'this is not an event the service sends; check what is posting here', ids, raw === 'abandon');
      return;
    }
    const sig = header(req, SIGNATURE_HEADER);
    let verified = false;
    if (this.secrets) {
      const tolerance = { toleranceSec: this.opts.toleranceSec, now: this.now() };
      let result = verify(this.secrets, raw, sig, tolerance);
      if (!result.ok && result.reason === 'signature_mismatch' && this.reload()) result = verify(this.secrets, raw, sig, tolerance);
      if (!result.ok) {
        const d = diagnose(result, this.secrets, raw, sig);
        this.reject(res, d.status, d.reason, d.message, d.likely, ids);
        return;
      }
      verified = true;
    }
    let event: unknown;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      this.reject(res, 400, 'invalid_json', 'the body is not JSON', undefined, ids);
      return;
    }
    if (!isObject(event)) {
      this.reject(res, 400, 'not_an_event', 'the body is not a JSON object', undefined, ids);
      return;
    }
    const body = event;
    const type = typeof body.type === 'string' ? body.type : ids.type ?? 'unknown';
    // The id is the signed body's: the header is not signed, so it can be changed at will.
    const bodyId = typeof body.id === 'string' && body.id !== '' ? body.id : undefined;
    if (bodyId && ids.id && ids.id !== bodyId) {
      this.reject(res, 400, 'event_id_mismatch', `the ${EVENT_ID_HEADER} header (${ids.id}) does not match the event's id in the signed body (${bodyId})`, 'the service sends the same id in both; this request was altered or is not from the service', ids);
      return;
    }
    // Unsigned (--skip-verify) senders may carry the id in the header only.
    const id = bodyId ?? (verified ? undefined : ids.id);
    if (!id) {
      this.reject(res, 400, 'no_event_id', 'the body has no "id"', undefined, { type, id: ids.id });
      return;
    }
    if (this.seen.has(id)) {
      this.duplicate(res, id, type);
      return;
    }
    const earlier = this.inflight.get(id);
    if (earlier) {
      // A retry that overtook the first copy's log write: answer as that write turns out.
      const outcome = await this.bounded(earlier);
      if (outcome.status < 300) {
        this.duplicate(res, id, type);
        return;
      }
      if (outcome.status === 503 || this.seen.has(id) || this.inflight.has(id)) {
        this.send(res, outcome);
        return;
      }
      // The first copy could not be logged: process this one as new.
    }
    let relayed: Record<string, string> | undefined;
    const accepted: AcceptedEvent = {
      id, type, event: body, raw, verified, receivedAt: new Date(this.now()),
      // Built only when something forwards the event.
      get headers() {
        relayed ??= relayHeaders(req);
        return relayed;
      },
    };
    const write = this.write(accepted);
    this.inflight.set(id, write);
    const outcome = await this.bounded(write);
    this.send(res, outcome);
    if (outcome.status < 300) this.opts.onEvent?.(accepted);
    else if (outcome.status === 503) {
      this.opts.onReject?.({ status: 503, reason: 'log_write_slow', message: 'the log write is slow', likely: 'not acknowledged; the service will retry (check the disk)', id, type, at: new Date(this.now()) });
    }
  }

  private duplicate(res: http.ServerResponse, id: string, type: string): void {
    this.stats.duplicates++;
    this.send(res, { status: 200, body: { received: true, duplicate: true, id } });
    this.opts.onDuplicate?.({ id, type, at: new Date(this.now()) });
  }

  /** The log append; once it is on disk the id is remembered, even if the answer went out late. */
  private write(e: AcceptedEvent): Promise<Outcome> {
    const log = this.opts.log;
    const deliver = !log && this.opts.deliver;
    if (deliver) {
      const delivered = deliver(e).then((failure): Outcome => {
        if (failure === undefined) {
          this.remember(e.id);
          this.stats.accepted++;
          return { status: 200, body: { received: true, id: e.id } };
        }
        this.stats.rejected++;
        return { status: 502, body: { error: `not acknowledged: ${failure}; deliver it again later` } };
      });
      void delivered.finally(() => this.inflight.delete(e.id));
      return delivered;
    }
    const write = (log ? log.append(logLine(e.raw)) : Promise.resolve()).then(
      (): Outcome => {
        this.remember(e.id);
        this.stats.accepted++;
        return { status: 200, body: { received: true, id: e.id } };
      },
      (err: Error): Outcome => {
        const message = `could not write the event to ${log?.path}: ${err.message}`;
        this.stats.rejected++;
        this.opts.onReject?.({ status: 500, reason: 'log_write_failed', message, likely: 'not acknowledged; the service will retry', id: e.id, type: e.type, at: new Date(this.now()) });
        return { status: 500, body: { error: message } };
      },
    );
    void write.finally(() => this.inflight.delete(e.id));
    return write;
  }

  /**
   * The answer must go out well inside the service's 10 s: a slower write is answered 503.
   * One sweeping timer serves every request waiting on the log, not a timer each.
   */
  private bounded(write: Promise<Outcome>): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      const entry: Waiting = {
        since: performance.now(),
        settle: (o) => {
          if (!this.waiting.delete(entry)) return;
          resolve(o);
        },
      };
      this.waiting.add(entry);
      void write.then(entry.settle);
      this.sweep();
    });
  }

  private sweep(): void {
    if (this.sweeper || this.waiting.size === 0) return;
    const deadline = this.opts.ackDeadlineMs ?? 8_000;
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const w of this.waiting) if (now - w.since >= deadline) w.settle(SLOW);
      if (this.waiting.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, Math.max(5, Math.min(250, deadline / 4)));
    this.sweeper.unref();
  }

  private remember(id: string): void {
    this.seen.add(id, this.now());
  }

  /** Adds secrets saved since start (at most once a second); true when there was a new one. */
  private reload(): boolean {
    if (!this.opts.reloadSecrets || !this.secrets || this.now() - this.lastReload < 1000) return false;
    this.lastReload = this.now();
    const fresh = (this.opts.reloadSecrets() ?? []).filter((s) => s && !this.secrets!.includes(s));
    if (fresh.length === 0) return false;
    // Keep the old ones too: retries signed before the rotation may still arrive.
    this.secrets = [...fresh, ...this.secrets].slice(0, 4);
    return true;
  }

  private reject(res: http.ServerResponse, status: number, reason: string, message: string, likely: string | undefined, ids: { id?: string; type?: string }, close = false): void {
    this.stats.rejected++;
    this.send(res, { status, body: { error: message, reason, ...(likely ? { likely } : {}) } }, close);
    this.opts.onReject?.({ status, reason, message, likely, id: ids.id, type: ids.type, at: new Date(this.now()) });
  }

  private send(res: http.ServerResponse, outcome: Outcome, close = false): void {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (close) headers.connection = 'close';
    res.writeHead(outcome.status, headers);
    res.end(JSON.stringify(outcome.body));
  }
}

/**
 * One NDJSON line: the body itself when it is already one line (the exact bytes), or
 * compacted when the sender pretty-printed it.
 */
function logLine(raw: Buffer): string {
  const text = raw.toString('utf8');
  return /[\r\n]/.test(text) ? JSON.stringify(JSON.parse(text)) : text.trim();
}

/**
 * The event ids already received, each remembered for a time window and at most `capacity`
 * of them (the oldest go first): bounded memory, however long listen runs.
 */
class SeenIds {
  private readonly ids = new Map<string, number>();

  constructor(readonly capacity: number, readonly windowMs: number) {}

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string, atMs: number): void {
    this.ids.delete(id);
    this.ids.set(id, atMs);
    // Oldest first: insertion order, and times only grow but for the seeding from a log.
    for (const [first, t] of this.ids) {
      if (this.ids.size <= this.capacity && t >= atMs - this.windowMs) break;
      this.ids.delete(first);
    }
  }
}
