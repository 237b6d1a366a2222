/**
 * The one HTTP client: base URL joining, X-API-Key, JSON in and out, timeouts, GET-only
 * retries, error parsing and pagination. It never prints; `debug` receives trace lines.
 */
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { ApiError, errorFromResponse, safeHost } from './errors.js';
import { extractList, itemKey } from './envelope.js';
import { scopeFor } from './scopes.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Request timeout in milliseconds (headers and body each). */
  timeoutMs?: number;
  dispatcher: Dispatcher;
  /** Receives one line per request when --debug is on. */
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  maxRetries?: number;
  userAgent?: string;
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

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const RETRYABLE_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const BASE_DELAY_MS = 300;
const MAX_DELAY_MS = 10_000;
const MAX_RETRY_AFTER_MS = 60_000;

export class ApiClient {
  readonly baseUrl: string;
  private readonly opts: ClientOptions;

  constructor(opts: ClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
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
    const res = await this.send(method, path, url, options);
    const text = await res.body.text();
    if (res.status >= 400) {
      throw errorFromResponse(method, url, res.status, '', header(res.headers, 'content-type'), text, scopeFor(method, path));
    }
    if (text.trim().length === 0) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      const ct = header(res.headers, 'content-type');
      throw new ApiError({
        kind: 'unexpected', method, url, status: res.status, body: text, cause,
        message: `${safeHost(url)} answered HTTP ${res.status} with a body that is not JSON${ct ? ` (${ct.split(';')[0]})` : ''}`,
      });
    }
  }

  /**
   * A request whose body the caller consumes (downloads). Error statuses still become
   * ApiErrors; a 2xx body is handed over unread.
   */
  async stream(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<RawResponse> {
    const absolute = /^https?:\/\//i.test(pathOrUrl);
    const url = absolute ? pathOrUrl : this.url(pathOrUrl, options.query);
    const res = await this.send(method, absolute ? new URL(url).pathname : pathOrUrl, url, { ...options, anonymous: options.anonymous ?? absolute });
    if (res.status >= 400) {
      const text = await res.body.text();
      throw errorFromResponse(method, url, res.status, '', header(res.headers, 'content-type'), text);
    }
    return res;
  }

  /**
   * Pages through a list endpoint with limit/offset, stopping when offset >= total. It
   * survives a missing `total` (stops on a short or empty page) and never yields the
   * same id twice, even when items shift between pages while new ones arrive.
   */
  async *paginate<T = Record<string, unknown>>(
    path: string,
    key: string,
    options: { query?: Query; limit?: number; offset?: number; max?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<T, void, undefined> {
    const limit = Math.min(200, Math.max(1, options.limit ?? 200));
    let offset = options.offset ?? 0;
    const seen = new Set<string>();
    let yielded = 0;
    for (;;) {
      const body = await this.get<unknown>(path, { query: { ...options.query, limit, offset }, signal: options.signal });
      const { items, total } = extractList<T>(body, key, this.url(path));
      for (const item of items) {
        const id = itemKey(item);
        if (id !== undefined) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        yield item;
        yielded++;
        if (options.max !== undefined && yielded >= options.max) return;
      }
      offset += limit;
      if (items.length === 0) return;
      if (total !== undefined ? offset >= total : items.length < limit) return;
    }
  }

  private async send(method: string, path: string, url: string, options: RequestOptions): Promise<RawResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'voicectl',
      ...options.headers,
    };
    if (!options.anonymous && this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey;
    let body: Dispatcher.DispatchOptions['body'] | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const retries = method === 'GET' ? (this.opts.maxRetries ?? 4) : 0;
    const timeout = this.opts.timeoutMs ?? 30_000;
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const random = this.opts.random ?? Math.random;

    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let res: RawResponse | undefined;
      let failure: unknown;
      try {
        const r = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: this.opts.dispatcher,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal: options.signal,
        });
        res = { status: r.statusCode, headers: r.headers, body: r.body };
      } catch (err) {
        failure = err;
      }
      const ms = Math.round(performance.now() - started);
      this.opts.debug?.(`${method} ${redact(url)} → ${res ? res.status : errorCode(failure) ?? 'error'} ${ms}ms${attempt ? ` (retry ${attempt})` : ''}`);

      if (res) {
        if (attempt < retries && RETRYABLE_STATUS.has(res.status)) {
          const retryAfter = parseRetryAfter(header(res.headers, 'retry-after'), Date.now());
          await res.body.dump().catch(() => {});
          await sleep(retryAfter ?? backoff(attempt, random));
          continue;
        }
        return res;
      }
      if (options.signal?.aborted) throw failure;
      if (attempt < retries && isRetryableFailure(failure)) {
        await sleep(backoff(attempt, random));
        continue;
      }
      throw networkError(method, url, failure, timeout);
    }
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base·2^attempt)). */
export function backoff(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt + 1)));
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(MAX_RETRY_AFTER_MS, Math.round(Number(trimmed) * 1000));
  const when = Date.parse(trimmed);
  if (Number.isNaN(when)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, when - nowMs));
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isRetryableFailure(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

function networkError(method: string, url: string, err: unknown, timeoutMs: number): ApiError {
  const code = errorCode(err);
  const host = safeHost(url);
  const timedOut = code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT';
  if (timedOut) {
    return new ApiError({
      kind: 'timeout', method, url, cause: err,
      message: `${host} did not answer within ${Math.round(timeoutMs / 1000)}s (${method} ${new URL(url).pathname})`,
    });
  }
  const what: Record<string, string> = {
    ECONNREFUSED: 'refused the connection (is the service running at this address?)',
    ENOTFOUND: 'could not be found (check the base URL)',
    EAI_AGAIN: 'could not be resolved (DNS lookup failed)',
    ECONNRESET: 'closed the connection unexpectedly',
    UND_ERR_SOCKET: 'closed the connection unexpectedly',
    CERT_HAS_EXPIRED: 'presented an expired TLS certificate',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'presented a self-signed TLS certificate',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'presented a TLS certificate that could not be verified (set NODE_EXTRA_CA_CERTS for a corporate proxy)',
  };
  const detail = (code && what[code]) ?? (err instanceof Error ? err.message : String(err));
  return new ApiError({ kind: 'network', method, url, cause: err, code, message: `${host} ${detail}${code && !what[code] ? ` (${code})` : ''}` });
}

/** Hides anything that looks like a credential in a traced URL. */
function redact(url: string): string {
  return url.replace(/([?&](?:api_key|key|token|signature|sig)=)[^&]+/gi, '$1***');
}
