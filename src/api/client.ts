/**
 * The one HTTP client: base URL joining, X-API-Key, JSON in and out, timeouts, GET-only
 * retries, error parsing and pagination. It never prints; `debug` receives trace lines.
 */
import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import type { ProxyInUse } from './dispatcher.js';
import { request } from './undici.js';
import { isLoopbackHost, parseSandboxClock, SANDBOX_CLOCK_HEADER, type SandboxClock } from '../util/sandbox-clock.js';
import { JsonText, parseKeepingText } from '../util/json-text.js';
import { ACCEPT_ENCODING, BodyTooLargeError, DEFAULT_MAX_RESPONSE_BYTES, readBody, UnknownEncodingError } from './body.js';
import { ApiError, deadlineError, errorCode, errorFromResponse, networkError, safeHost, sizeLabel } from './errors.js';
import { paginate, type PaginateOptions } from './pagination.js';
import { scopeFor } from './scopes.js';
import { redact } from '../util/redact.js';

export { clampLimit } from './pagination.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /**
   * Deadline of one attempt in milliseconds, from sending to the last byte of a JSON body
   * (for a download, to its headers; then between chunks).
   */
  timeoutMs?: number;
  /** Cap on a JSON response body, decoded (default 64 MiB). */
  maxResponseBytes?: number;
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
  /** Called with a loopback sandbox's simulated clock from its answers (util/sandbox-clock.ts). */
  onSandboxClock?: (clock: SandboxClock) => void;
  /** The proxy a request to this URL goes through, if any, for error messages. */
  proxyFor?: (url: string) => ProxyInUse | undefined;
  /** Keep the JSON text of bodies beside their values (util/json-text.ts): --jq reads the service's own numbers. */
  keepJsonText?: boolean;
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
  /** With keepJsonText: the whole body as a JsonText, its text and value (`voicectl api`, whose body may be a bare number). */
  wholeText?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
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
const DEFAULT_TIMEOUT_MS = 30_000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** Of an error body only the start is read: the status says what happened, the message is cut to a line anyway. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** A Retry-After longer than this is not waited out: the error is reported instead. */
const MAX_RETRY_AFTER_MS = 60_000;

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

  /**
   * Joins the base URL (which may carry a path prefix, and query parameters a gateway
   * wants on every request) with an API path and query.
   */
  url(path: string, query?: Query): string {
    const base = new URL(this.baseUrl);
    const u = new URL(base.href.slice(0, base.href.length - base.search.length - base.hash.length).replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of base.searchParams) u.searchParams.set(k, v);
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

  /** --timeout in ms: a download's longest pause between chunks, too. */
  get timeoutMs(): number {
    return this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A request whose successful body is JSON (or empty); every failure is an ApiError. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.url(path, options.query);
    const res = await this.exchange(method, url, options, true);
    const text = res.text ?? '';
    if (res.status >= 300) throw this.httpError(method, url, res, text, scopeFor(method, path));
    if (text.trim().length === 0) return undefined as T;
    try {
      if (!this.opts.keepJsonText) return JSON.parse(text.replace(/^\uFEFF/, '')) as T;
      const value = parseKeepingText(text);
      return (options.wholeText ? new JsonText(text.replace(/^\uFEFF/, ''), value) : value) as T;
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
   * Pages through a list endpoint with limit/offset, stopping when offset >= total, each
   * id once; bounded against servers that do not page (see pagination.ts).
   */
  paginate<T = Record<string, unknown>>(path: string, key: string, options: PaginateOptions = {}): AsyncGenerator<T, void, undefined> {
    return paginate<T>({
      get: (query, signal) => this.get<unknown>(path, { query, signal }),
      url: this.url(path),
    }, key, options);
  }

  private httpError(method: string, url: string, res: Exchange, text: string, scope?: string): ApiError {
    const location = header(res.headers, 'location');
    return errorFromResponse(method, url, res.status, '', header(res.headers, 'content-type'), text, scope, {
      location: location ? new URL(location, url).toString() : undefined,
      retryAfterMs: res.retryAfterMs,
      proxy: this.opts.proxyFor?.(url),
    });
  }

  /**
   * One logical request: the attempts, the waits between them, the trace lines. Each
   * attempt has one deadline, --timeout, from sending to the last byte of the body it
   * reads (to the headers for a download), so a server that drips its answer cannot
   * hold a command beyond it. A timed-out attempt is not retried.
   */
  private async exchange(method: string, url: string, options: RequestOptions, readJson: boolean): Promise<Exchange> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'voicectl',
      ...(readJson ? { 'accept-encoding': ACCEPT_ENCODING } : {}),
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
    const timeout = this.timeoutMs;
    const maxBytes = this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const random = this.opts.random ?? Math.random;
    const now = this.opts.now ?? Date.now;
    const signals = [this.opts.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];

    for (let attempt = 0; ; attempt++) {
      // process.hrtime, not performance.now(): on Node 20 the `performance` global loads perf_hooks (a dozen modules).
      const started = process.hrtime.bigint();
      const deadline = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        timer ??= setTimeout(() => deadline.abort(new DeadlineExceeded()), timeout);
      };
      // An upload (a streamed body) may rightly take longer than --timeout to send on a slow
      // link: its deadline starts once it is sent; until then undici bounds each pause.
      if (isStream(body)) body.once('end', arm);
      else arm();
      const attemptSignal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
      let res: Exchange | undefined;
      let failure: unknown;
      let answered = false;
      try {
        const r = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: this.opts.dispatcher,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal: attemptSignal,
        });
        answered = true;
        let text: string | undefined;
        // Read inside the attempt, so a connection dropped mid-body is retried like any other.
        if (readJson || r.statusCode >= 400) {
          const isError = r.statusCode >= 400;
          const bytes = await readBody(r.body, r.headers['content-encoding'], {
            maxBytes: isError ? MAX_ERROR_BODY_BYTES : maxBytes,
            truncate: isError,
          });
          text = bytes.toString('utf8');
        }
        // Otherwise a download: its body belongs to the caller, bounded by undici's bodyTimeout between chunks.
        res = { status: r.statusCode, headers: r.headers, body: r.body, text };
      } catch (err) {
        failure = err;
      } finally {
        // Armed (if the upload never ended) and cleared: no timer outlives the attempt.
        arm();
        clearTimeout(timer);
      }
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      this.trace(`${method} ${url} → ${res ? res.status : errorCode(failure) ?? (deadline.signal.aborted ? 'timeout' : 'error')} ${ms}ms${attempt ? ` (retry ${attempt})` : ''}`);

      if (res) {
        if (this.opts.onSandboxClock) this.readSandboxClock(url, res.headers);
        if (!RETRYABLE_STATUS.has(res.status)) return res;
        const retryAfter = parseRetryAfter(header(res.headers, 'retry-after'), now());
        if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return { ...res, retryAfterMs: retryAfter };
        if (attempt >= retries) return { ...res, retryAfterMs: retryAfter };
        if (res.text === undefined) await res.body.dump().catch(() => {});
        await sleep(retryAfter ?? backoff(attempt, random));
        continue;
      }
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : failure;
      if (deadline.signal.aborted) throw deadlineError(method, url, timeout, answered);
      if (failure instanceof BodyTooLargeError) {
        throw new ApiError({
          kind: 'unexpected', method, url, code: 'response_too_large', cause: failure,
          message: `response too large: ${safeHost(url)} sent more than ${sizeLabel(failure.limit)}${failure.decoded ? ' once decompressed' : ''} for ${method} ${safePathOf(url)}; voicectl stops reading there (VOICECTL_MAX_RESPONSE_MB raises the limit)`,
        });
      }
      if (failure instanceof UnknownEncodingError) {
        throw new ApiError({
          kind: 'unexpected', method, url, code: 'unsupported_encoding', cause: failure,
          message: `${safeHost(url)} answered with Content-Encoding "${failure.encoding}", which voicectl cannot decode (it accepts gzip and br)`,
        });
      }
      if (isZlibError(failure)) {
        throw new ApiError({
          kind: 'unexpected', method, url, code: errorCode(failure), cause: failure,
          message: `${safeHost(url)} sent a compressed body that could not be decoded (${(failure as Error).message})`,
        });
      }
      if (attempt < retries && isRetryableFailure(failure)) {
        await sleep(backoff(attempt, random));
        continue;
      }
      throw networkError(method, url, failure, timeout, this.opts.proxyFor?.(url));
    }
  }

  /** A sandbox on this machine tells its simulated time (util/sandbox-clock.ts); no other host's answer is read for it. */
  private readSandboxClock(url: string, headers: Record<string, string | string[] | undefined>): void {
    const value = headers[SANDBOX_CLOCK_HEADER];
    if (value === undefined) return;
    const clock = parseSandboxClock(value);
    if (!clock) return;
    try {
      if (!isLoopbackHost(new URL(url).hostname)) return;
    } catch {
      return;
    }
    this.opts.onSandboxClock!(clock);
  }

  /** Trace lines never carry a credential: URL userinfo, secret query values and the key are masked here too. */
  private trace(line: string): void {
    this.opts.debug?.(redact(line, [this.opts.apiKey]));
  }
}

/** The reason an attempt's deadline aborts it with. */
class DeadlineExceeded extends Error {
  constructor() {
    super('deadline exceeded');
    this.name = 'DeadlineExceeded';
  }
}

function isStream(body: unknown): body is NodeJS.ReadableStream {
  return typeof body === 'object' && body !== null && typeof (body as NodeJS.ReadableStream).pipe === 'function' && typeof (body as NodeJS.ReadableStream).once === 'function';
}

function isZlibError(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && (/^Z_/.test(code) || /^ERR_(_|BROTLI)/.test(code));
}

function safePathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
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
