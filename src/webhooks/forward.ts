/**
 * Posting an event body to a user's app (`listen --forward-to`, `--replay`, `trigger`).
 * Plain node:http rather than the API client: these requests go to the user's own
 * receiver, carry no key, must send the body bytes exactly, and never follow redirects
 * (as the service does not). `localhost` tries ::1 and 127.0.0.1, since dev servers bind
 * to one or the other.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface PostResult {
  /** A status arrived; `ok` when it was 2xx. */
  status?: number;
  ok: boolean;
  /** Milliseconds from sending to the response's end (or the failure). */
  ms: number;
  /** The first few KB of the response body, for messages. */
  body?: string;
  /** Why no status arrived, in words. */
  error?: string;
  code?: string;
}

const SAFE_TO_RETRY = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETUNREACH', 'EHOSTUNREACH']);
const BODY_KEEP = 4096;

export class EventPoster {
  readonly url: URL;
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;
  /** For localhost: the address that answered last, tried first next time. */
  private preferred?: string;

  constructor(url: string | URL, options: { timeoutMs?: number; keepAlive?: boolean } = {}) {
    this.url = typeof url === 'string' ? new URL(url) : url;
    if (this.url.protocol !== 'http:' && this.url.protocol !== 'https:') throw new TypeError(`${this.url.href} is not an http(s) URL`);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const agentOptions = { keepAlive: options.keepAlive ?? true, maxSockets: 32 };
    this.agent = this.url.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  private candidates(): (string | undefined)[] {
    const host = this.url.hostname.toLowerCase();
    if (host !== 'localhost') return [undefined];
    const both = ['::1', '127.0.0.1'];
    return this.preferred ? [this.preferred, ...both.filter((a) => a !== this.preferred)] : both;
  }

  async post(body: Uint8Array, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    let last: PostResult | undefined;
    for (const address of this.candidates()) {
      const r = await this.once(address, body, headers, started);
      if (r.result.status !== undefined || !r.retryable) {
        if (address && r.result.status !== undefined) this.preferred = address;
        return r.result;
      }
      last = r.result;
    }
    return last!;
  }

  private once(address: string | undefined, body: Uint8Array, headers: Record<string, string>, started: number, reuseRetry = true): Promise<{ result: PostResult; retryable: boolean }> {
    return new Promise((resolve) => {
      const lib = this.url.protocol === 'https:' ? https : http;
      // A fixed lookup keeps the Host header and TLS name as the URL says while connecting to one address.
      const lookup: LookupFunction | undefined = address
        ? (_h, opts, cb) => {
          const family = address.includes(':') ? 6 : 4;
          if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else cb(null, address, family);
        }
        : undefined;
      let connected = false;
      let settled = false;
      const finish = (result: PostResult, retryable = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ result, retryable });
      };
      const req = lib.request(this.url, {
        method: 'POST',
        agent: this.agent,
        lookup,
        headers: { ...headers, 'content-length': String(body.byteLength) },
      });
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), this.timeoutMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => { connected = true; });
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < BODY_KEEP) {
            chunks.push(c);
            kept += c.length;
          }
        });
        res.on('end', () => finish({
          status: res.statusCode, ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300,
          ms: performance.now() - started, body: Buffer.concat(chunks).subarray(0, BODY_KEEP).toString('utf8'),
        }));
        res.on('error', (err) => finish(failure(err, started)));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive socket the app had already closed: the request never reached it.
        if (req.reusedSocket && err.code === 'ECONNRESET' && reuseRetry && !settled) {
          settled = true;
          clearTimeout(timer);
          void this.once(address, body, headers, started, false).then(resolve);
          return;
        }
        finish(failure(err, started), !connected && SAFE_TO_RETRY.has(err.code ?? ''));
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function failure(err: NodeJS.ErrnoException, started: number): PostResult {
  return { ok: false, ms: performance.now() - started, error: describeNetError(err), code: err.code };
}

function describeNetError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the app running on that port?)';
    case 'ETIMEDOUT':
      return 'no answer in time';
    case 'ENOTFOUND':
      return 'host not found';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the app closed the connection without answering';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return err.code ? `${err.message} (${err.code})` : err.message;
  }
}
