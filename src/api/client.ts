/**
 * The one HTTP client: base URL joining, X-API-Key, JSON in and out, timeouts, GET-only
 * retries, error parsing and pagination. It never prints; `debug` receives trace lines.
 */
import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import type { ProxyInUse } from './dispatcher.js';
import { request } from './undici.js';
import { ApiError, errorCode, errorFromResponse, networkError, safeHost } from './errors.js';
import { extractList, itemKey } from './envelope.js';
import { scopeFor } from './scopes.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Request timeout in milliseconds: for the headers, and between chunks of the body. */
  timeoutMs?: number;
  dispatcher: Dispatcher;
  /** Receives one line per request when --debug is on. */
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Retries of a GET; at most (and by default) 4. */
  maxRetries?: number;
  userAgent?: string;
  /** Aborts every request of the run (Ctrl-C). */
  signal?: AbortSignal;
  /** Clock for Retry-After dates. */
  now?: () => number;
  /** The proxy a request to this URL goes through, if any, for error messages. */
  proxyFor?: (url: string) => ProxyInUse | undefined;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send without X-API-Key (GET /voices is public). */
  anonymous?: boolean;
  /** Extra request headers (multipart uploads set their own content type). */
  headers?: Record<string, string>;
  /** A raw body (a stream or buffer) sent as is, instead of JSON. */
  rawBody?: Dispatcher.DispatchOptions['body'];
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export interface PaginateOptions {
  query?: Query;
  /** Page size, clamped to 1..200 (default 200). */
  limit?: number;
  offset?: number;
  /** Stop after this many items. */
  max?: number;
  signal?: AbortSignal;
}

interface Exchange extends RawResponse {
  /** The body as text, when it was read (always for json(), for error statuses in stream()). */
  text?: string;
  retryAfterMs?: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
// Failures that happen fast and mean "try again". Timeouts are not here: --timeout is
// how long the user agreed to wait, and retrying would multiply it.
const RETRYABLE_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH',
  'UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const MAX_RETRIES = 4;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** A Retry-After longer than this is not waited out: the error is reported instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

export class ApiClient {
  readonly baseUrl: string;
  private readonly opts: ClientOptions;

  constructor(opts: ClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.trim().replace(/\/+$/, '');
    // Every request in flight listens on the run's signal; concurrent downloads would
    // otherwise trip Node's "possible memory leak" warning at 11.
    if (opts.signal) setMaxListeners(0, opts.signal);
  }

  /** Joins the base URL (which may carry a path prefix) with an API path and query. */
  url(path: string, query?: Query): string {
    const u = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    if (query) {
      for (const [k, v] of Object.entries(query)) {
        if (v !== undefined && v !== null && v !== '') u.searchParams.set(k, String(v));
      }
    }
    return u.toString();
  }

  get<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.json<T>('GET', path, options);
  }
  post<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.json<T>('POST', path, { ...options, body });
  }
  patch<T = unknown>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.json<T>('PATCH', path, { ...options, body });
  }
  delete<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.json<T>('DELETE', path, options);
  }

  /** A request whose successful body is JSON (or empty); every failure is an ApiError. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.url(path, options.query);
    const res = await this.exchange(method, url, options, true);
    const text = res.text ?? '';
    if (res.status >= 300) throw this.httpError(method, url, res, text, scopeFor(method, path));
    if (text.trim().length === 0) return undefined as T;
    try {
      return JSON.parse(text.replace(/^\uFEFF/, '')) as T;
    } catch (cause) {
      const ct = header(res.headers, 'content-type')?.split(';')[0];
      throw new ApiError({
        kind: 'unexpected', method, url, status: res.status, body: text, cause,
        message: `${safeHost(url)} answered HTTP ${res.status} with a body that is not JSON${ct ? ` (${ct})` : ''}`,
      });
    }
  }

  /**
   * A request whose body the caller consumes (downloads). Error statuses still become
   * ApiErrors; a 2xx or 3xx body is handed over unread. An absolute URL on another
   * origin (a signed recording link) is fetched without the API key.
   */
  async stream(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<RawResponse> {
    const absolute = /^https?:\/\//i.test(pathOrUrl);
    const url = absolute ? pathOrUrl : this.url(pathOrUrl, options.query);
    const foreign = absolute && new URL(url).origin !== new URL(this.baseUrl).origin;
    const res = await this.exchange(method, url, { ...options, anonymous: options.anonymous ?? foreign }, false);
    if (res.status >= 400) {
      throw this.httpError(method, url, res, res.text ?? '', absolute ? undefined : scopeFor(method, pathOrUrl));
    }
    return { status: res.status, headers: res.headers, body: res.body };
  }

  /**
   * Pages through a list endpoint with limit/offset, stopping when offset >= total. It
   * survives a missing `total` (stops on a short or empty page) and never yields the
   * same id twice, even when items shift between pages while new ones arrive.
   */
  async *paginate<T = Record<string, unknown>>(
    path: string,
    key: string,
    options: PaginateOptions = {},
  ): AsyncGenerator<T, void, undefined> {
    const limit = clampLimit(options.limit);
    let offset = Math.max(0, Math.floor(options.offset ?? 0));
    const seen = new Set<string>();
    let yielded = 0;
    for (;;) {
      const body = await this.get<unknown>(path, { query: { ...options.query, limit, offset }, signal: options.signal });
      const page = extractList<T>(body, key, this.url(path));
      let fresh = 0;
      for (const item of page.items) {
        const id = itemKey(item);
        if (id !== undefined) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        fresh++;
        yield item;
        yielded++;
        if (options.max !== undefined && yielded >= options.max) return;
      }
      if (page.items.length === 0) return;
      // Step by what arrived, not by what was asked: a server that caps the page size
      // below `limit` would otherwise have items skipped.
      offset += page.items.length;
      if (page.total !== undefined) {
        if (offset >= page.total) return;
      } else {
        const pageSize = page.limit !== undefined && page.limit > 0 ? Math.min(page.limit, limit) : limit;
        if (page.items.length < pageSize) return;
        // Without a total, a server that ignores offset would repeat one page forever.
        if (fresh === 0) return;
      }
    }
  }

  private httpError(method: string, url: string, res: Exchange, text: string, scope?: string): ApiError {
    const location = header(res.headers, 'location');
    return errorFromResponse(method, url, res.status, '', header(res.headers, 'content-type'), text, scope, {
      location: location ? new URL(location, url).toString() : undefined,
      retryAfterMs: res.retryAfterMs,
      proxy: this.opts.proxyFor?.(url),
    });
  }

  /** One logical request: the attempts, the waits between them, the trace lines. */
  private async exchange(method: string, url: string, options: RequestOptions, readBody: boolean): Promise<Exchange> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'voicectl',
      ...options.headers,
    };
    if (!options.anonymous && this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey.trim();
    let body: Dispatcher.DispatchOptions['body'] | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    // Only GET is retried: a retried POST could create a campaign twice or place real calls twice.
    const retries = method === 'GET' ? Math.min(MAX_RETRIES, Math.max(0, this.opts.maxRetries ?? MAX_RETRIES)) : 0;
    const timeout = this.opts.timeoutMs ?? 30_000;
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const random = this.opts.random ?? Math.random;
    const now = this.opts.now ?? Date.now;
    const signals = [this.opts.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];

    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let res: Exchange | undefined;
      let failure: unknown;
      try {
        const r = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: this.opts.dispatcher,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal,
        });
        // Read inside the attempt, so a connection dropped mid-body is retried like any other.
        const text = readBody || r.statusCode >= 400 ? await r.body.text() : undefined;
        res = { status: r.statusCode, headers: r.headers, body: r.body, text };
      } catch (err) {
        failure = err;
      }
      const ms = Math.round(performance.now() - started);
      this.opts.debug?.(`${method} ${redact(url)} → ${res ? res.status : errorCode(failure) ?? 'error'} ${ms}ms${attempt ? ` (retry ${attempt})` : ''}`);

      if (res) {
        if (!RETRYABLE_STATUS.has(res.status)) return res;
        const retryAfter = parseRetryAfter(header(res.headers, 'retry-after'), now());
        if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return { ...res, retryAfterMs: retryAfter };
        if (attempt >= retries) return { ...res, retryAfterMs: retryAfter };
        if (res.text === undefined) await res.body.dump().catch(() => {});
        await sleep(retryAfter ?? backoff(attempt, random));
        continue;
      }
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : failure;
      if (attempt < retries && isRetryableFailure(failure)) {
        await sleep(backoff(attempt, random));
        continue;
      }
      throw networkError(method, url, failure, timeout, this.opts.proxyFor?.(url));
    }
  }
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return 200;
  return Math.min(200, Math.max(1, Math.floor(limit)));
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base·2^attempt)). */
export function backoff(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * backoffCeiling(attempt));
}

export function backoffCeiling(attempt: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
}

/** Retry-After as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const when = Date.parse(trimmed);
  if (Number.isNaN(when)) return undefined;
  return Math.max(0, when - nowMs);
}

function isRetryableFailure(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

/** Hides anything that looks like a credential in a traced URL. */
function redact(url: string): string {
  return url.replace(/([?&](?:api_key|apikey|key|token|signature|sig)=)[^&]+/gi, '$1***');
}
