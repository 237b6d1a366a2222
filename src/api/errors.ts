/**
 * One typed error for every way a request can fail: an HTTP error status, a body that
 * is not what the spec promises, a network failure or a timeout.
 */
import type { ProxyInUse } from './dispatcher.js';
import { oneLine } from '../text/text.js';
import { isObject } from '../util/is-object.js';

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'unexpected';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  method: string;
  url: string;
  status?: number;
  /** From a 402 body's `error.limit` (agent_limit_exceeded, language_not_allowed, …). */
  limit?: string;
  /** From an error body's `error.code`, or the network error's code. */
  code?: string;
  /** The response body as text, exactly as received (may be HTML from a proxy). */
  body?: string;
  /** Scope this endpoint needs, for a 403's hint. */
  scope?: string;
  /** Where a 3xx answer pointed. */
  location?: string;
  /** What a Retry-After header asked for, in ms, when it was longer than the client waits. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly limit?: string;
  readonly code?: string;
  readonly body?: string;
  readonly method: string;
  readonly url: string;
  readonly scope?: string;
  readonly location?: string;
  readonly retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.limit = init.limit;
    this.code = init.code;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
    this.scope = init.scope;
    this.location = init.location;
    this.retryAfterMs = init.retryAfterMs;
  }

  get host(): string {
    return safeHost(this.url);
  }
}

/** What a 402's `error.limit` means, in words. */
export function describeLimit(limit: string | undefined): string | undefined {
  switch (limit) {
    case 'agent_limit_exceeded':
      return 'the plan allows no more agents: delete an agent you no longer use, or upgrade the plan';
    case 'language_not_allowed':
      return 'that language is not in the plan: pick a voice in one of the plan\'s languages, or upgrade the plan';
    case undefined:
      return undefined;
    default:
      return `the plan's limit "${limit}" was reached`;
  }
}

const MAX_MESSAGE = 300;

/**
 * Builds the error of an HTTP error status from its body. The spec promises only a
 * readable `error` and a `status_code`; `error` may be a string or an object with
 * message/limit/code, other servers say `message` or `detail`, and a proxy may answer
 * with HTML, which is never copied into the message.
 */
export function errorFromResponse(
  method: string,
  url: string,
  status: number,
  statusText: string,
  contentType: string | undefined,
  text: string,
  scope?: string,
  extra: { location?: string; retryAfterMs?: number; proxy?: ProxyInUse } = {},
): ApiError {
  let message: string | undefined;
  let limit: string | undefined;
  let code: string | undefined;
  const parsed = parseJson(text);
  if (isObject(parsed)) {
    const err = parsed.error;
    if (typeof err === 'string') message = err;
    else if (isObject(err)) {
      message = readable(err.message) ?? readable(err.detail) ?? readable(err.description);
      limit = str(err.limit);
      code = str(err.code) ?? str(err.type);
    }
    message ??= readable(parsed.message) ?? readable(parsed.detail) ?? readable(parsed.error_description) ?? readable(parsed.title);
    limit ??= str(parsed.limit);
    code ??= str(parsed.code);
    // A 402 that names its cause only as a code ("error": "agent_limit_exceeded").
    if (status === 402 && !limit) limit = code ?? (message && /^[a-z][a-z0-9_]*$/.test(message) ? message : undefined);
    message ??= limit ?? code;
  }
  const host = safeHost(url);
  const statusLine = `HTTP ${status}${(statusText || STATUS_CODES[status]) ? ` ${statusText || STATUS_CODES[status]}` : ''}`;
  if (message) {
    message = oneLine(message, MAX_MESSAGE);
  } else if (status >= 300 && status < 400) {
    message = extra.location
      ? `${host} answered ${statusLine}, redirecting to ${extra.location}; use that address as the base URL`
      : `${host} answered ${statusLine} without saying where to`;
  } else if (status === 407 && extra.proxy) {
    message = proxyAuthMessage(`the proxy ${extra.proxy.where} (${extra.proxy.variable})`, extra.proxy);
  } else {
    message = `${host} answered ${statusLine}${bodySummary(parsed, text, contentType)}`;
    // A proxy answers for a service it cannot reach with a page of its own.
    if (extra.proxy) message += ` (through the proxy ${extra.proxy.where} from ${extra.proxy.variable})`;
  }
  if (extra.retryAfterMs !== undefined && extra.retryAfterMs > 0) {
    message += ` (the service asks to wait ${seconds(extra.retryAfterMs)} before trying again)`;
  }
  return new ApiError({
    kind: 'http', status, message, limit, code, body: text, method, url, scope,
    location: extra.location, retryAfterMs: extra.retryAfterMs,
  });
}

/** Words for a body that carries no readable message: never the body itself if it is markup. */
function bodySummary(parsed: unknown, text: string, contentType: string | undefined): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) return ' with an empty body';
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (parsed === undefined) {
    const markup = /html|xml/.test(type ?? '') || trimmed.startsWith('<');
    if (!markup && trimmed.length <= 200 && !trimmed.includes('\n')) return `: ${trimmed}`;
    return ` with a non-JSON ${markup ? 'page' : 'body'}${type ? ` (${type})` : ''}`;
  }
  const json = JSON.stringify(parsed);
  return json.length <= 200 ? ` with no error message: ${json}` : ' with no error message';
}

/**
 * A failed exchange that never produced a status: refused, reset, unresolvable,
 * timed out, refused by the proxy. One line, naming the host.
 */
export function networkError(method: string, url: string, err: unknown, timeoutMs: number, proxy?: ProxyInUse): ApiError {
  const code = errorCode(err);
  const host = safeHost(url);
  const path = safePath(url);
  const text = err instanceof Error ? err.message : String(err);
  if (proxy) {
    const failed = proxyFailure(host, code, text, proxy);
    if (failed) return new ApiError({ kind: 'network', method, url, code, cause: err, message: failed });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new ApiError({
      kind: 'timeout', method, url, code, cause: err,
      message: `timed out: ${host} did not answer ${method} ${path} within ${seconds(timeoutMs)} (raise --timeout if it is just slow)`,
    });
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new ApiError({
      kind: 'timeout', method, url, code, cause: err,
      message: `timed out: ${host} stopped sending its answer to ${method} ${path} for ${seconds(timeoutMs)} (raise --timeout if it is just slow)`,
    });
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return new ApiError({
      kind: 'timeout', method, url, code, cause: err,
      message: `could not connect to ${host} within ${seconds(timeoutMs)} (check the base URL, the network, or the proxy settings)`,
    });
  }
  const proxyStatus = /Proxy response \((\d+)\)/.exec(text)?.[1];
  if (proxyStatus) {
    return new ApiError({ kind: 'network', method, url, code, cause: err, message: `the proxy refused to connect to ${host} (HTTP ${proxyStatus}); check HTTPS_PROXY and NO_PROXY` });
  }
  if (/Proxy Authentication Required|\b407\b/.test(text)) {
    return new ApiError({ kind: 'network', method, url, code, cause: err, message: `the proxy asked for credentials (407) for ${host}; put them in the proxy URL (http://user:password@proxy:port)` });
  }
  const what: Record<string, string> = {
    ECONNREFUSED: 'refused the connection (is the service running at this address?)',
    ENOTFOUND: 'could not be found (check the base URL)',
    EAI_AGAIN: 'could not be resolved (DNS lookup failed)',
    ECONNRESET: 'closed the connection unexpectedly',
    EPIPE: 'closed the connection unexpectedly',
    UND_ERR_SOCKET: 'closed the connection unexpectedly',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'closed the connection before the whole answer arrived',
    ENETUNREACH: 'is unreachable (no route to the network)',
    EHOSTUNREACH: 'is unreachable (no route to the host)',
    CERT_HAS_EXPIRED: 'presented an expired TLS certificate',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'presented a self-signed TLS certificate',
    SELF_SIGNED_CERT_IN_CHAIN: 'presented a TLS certificate signed by an unknown authority (set NODE_EXTRA_CA_CERTS for a corporate proxy)',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'presented a TLS certificate that could not be verified (set NODE_EXTRA_CA_CERTS for a corporate proxy)',
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'presented a TLS certificate that could not be verified (set NODE_EXTRA_CA_CERTS for a corporate proxy)',
    ERR_TLS_CERT_ALTNAME_INVALID: 'presented a TLS certificate for another name',
    EPROTO: 'could not agree on a secure connection (is it http rather than https?)',
  };
  const known = code ? what[code] : undefined;
  const detail = known ?? `could not be reached: ${oneLine(text, MAX_MESSAGE) || 'unknown error'}${code ? ` (${code})` : ''}`;
  return new ApiError({ kind: 'network', method, url, code, cause: err, message: `${host} ${detail}` });
}

/**
 * With a proxy in use every connection goes to the proxy, so a failure to connect is the
 * proxy's, and its 407 is about the credentials in the proxy URL. Names the proxy by
 * host:port and the variable it came from, never by its credentials.
 */
function proxyFailure(host: string, code: string | undefined, text: string, proxy: ProxyInUse): string | undefined {
  const the = `the proxy ${proxy.where} (${proxy.variable})`;
  const connect: Record<string, string> = {
    ECONNREFUSED: 'refused the connection',
    ENOTFOUND: 'could not be found',
    EAI_AGAIN: 'could not be resolved (DNS lookup failed)',
    ENETUNREACH: 'is unreachable (no route to the network)',
    EHOSTUNREACH: 'is unreachable (no route to the host)',
    UND_ERR_CONNECT_TIMEOUT: 'did not accept the connection in time',
    ETIMEDOUT: 'did not accept the connection in time',
  };
  if (code && connect[code]) return `could not reach ${host}: ${the} ${connect[code]}; check ${proxy.variable}, or list ${host} in NO_PROXY`;
  if (/Proxy Authentication Required|\b407\b/.test(text)) return proxyAuthMessage(the, proxy);
  const status = /Proxy response \((\d+)\)/.exec(text)?.[1];
  if (status) return `${the} refused to connect to ${host} (HTTP ${status}); check ${proxy.variable} and NO_PROXY`;
  return undefined;
}

function proxyAuthMessage(the: string, proxy: ProxyInUse): string {
  return proxy.credentials
    ? `${the} refused the user name and password in ${proxy.variable} (HTTP 407 Proxy Authentication Required)`
    : `${the} asks for credentials (HTTP 407): add the user name and password to ${proxy.variable}, before the host (user:password@${proxy.where})`;
}

/**
 * A download whose body stopped after its headers: no data for --timeout (undici's
 * bodyTimeout between chunks), or the connection cut before the end. Names the host and
 * the wait, never the link (a signed URL), then `outcome` (what became of the output).
 * undefined for any other failure.
 */
export function downloadError(url: string, err: unknown, timeoutMs: number, outcome: string): ApiError | undefined {
  const code = errorCode(err);
  const host = safeHost(url);
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new ApiError({
      kind: 'timeout', method: 'GET', url, code, cause: err,
      message: `the download stalled: ${host} sent no data for ${seconds(timeoutMs)} (raise --timeout if the link is just slow); ${outcome}`,
    });
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new ApiError({
      kind: 'network', method: 'GET', url, code, cause: err,
      message: `the download broke off: ${host} closed the connection before the whole recording arrived; ${outcome}`,
    });
  }
  return undefined;
}

/**
 * An attempt that ran past its deadline (--timeout): before the answer began, or while
 * its body was still arriving.
 */
export function deadlineError(method: string, url: string, timeoutMs: number, answered: boolean): ApiError {
  const host = safeHost(url);
  const path = safePath(url);
  return new ApiError({
    kind: 'timeout', method, url, code: 'deadline_exceeded',
    message: answered
      ? `timed out: ${host} had not finished sending its answer to ${method} ${path} after ${seconds(timeoutMs)} (raise --timeout if it is just slow)`
      : `timed out: ${host} did not answer ${method} ${path} within ${seconds(timeoutMs)} (raise --timeout if it is just slow)`,
  });
}

/** Bytes in words: 64 MB, 1.5 KB. */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

/** The first string `code` along an error's cause chain (and inside an AggregateError). */
export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const c = errorCode(inner[0]);
      if (c) return c;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Reason phrases for the statuses a user meets. A table here rather than node:http's
 * STATUS_CODES: importing node:http at start-up costs every command, even --help.
 */
const STATUS_CODES: Record<number, string> = {
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout',
  409: 'Conflict', 410: 'Gone', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity',
  429: 'Too Many Requests', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}

function parseJson(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** A message out of a string, or out of a list of validation errors ({msg|message, loc}). */
function readable(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v)) {
    const parts = v.map((item) => {
      if (typeof item === 'string') return item;
      if (!isObject(item)) return undefined;
      const msg = str(item.msg) ?? str(item.message);
      const loc = Array.isArray(item.loc) ? item.loc.join('.') : str(item.field) ?? str(item.path);
      return msg && loc ? `${loc}: ${msg}` : msg;
    }).filter((s): s is string => Boolean(s));
    return parts.length ? parts.join('; ') : undefined;
  }
  return undefined;
}
