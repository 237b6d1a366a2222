/**
 * One typed error for every way a request can fail: an HTTP error status, a body that
 * is not what the spec promises, a network failure or a timeout.
 */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'unexpected';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  method: string;
  url: string;
  status?: number;
  /** From a 402 body's `error.limit` (agent_limit_exceeded, language_not_allowed, …). */
  limit?: string;
  /** From an error body's `error.code`, when the server sends one. */
  code?: string;
  /** The response body as text, exactly as received (may be HTML from a proxy). */
  body?: string;
  /** Scope this endpoint needs, for a 403's hint. */
  scope?: string;
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
  }

  get host(): string {
    try {
      return new URL(this.url).host;
    } catch {
      return this.url;
    }
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

/**
 * Builds the message of an HTTP error from its body. The spec promises only a readable
 * `error` and a `status_code`; `error` may be a string or an object with
 * message/limit/code, and a proxy may answer with HTML.
 */
export function errorFromResponse(
  method: string,
  url: string,
  status: number,
  statusText: string,
  contentType: string | undefined,
  text: string,
  scope?: string,
): ApiError {
  let message: string | undefined;
  let limit: string | undefined;
  let code: string | undefined;
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const body = parsed as Record<string, unknown>;
    const err = body.error;
    if (typeof err === 'string') message = err;
    else if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      if (typeof e.message === 'string') message = e.message;
      if (typeof e.limit === 'string') limit = e.limit;
      if (typeof e.code === 'string') code = e.code;
      if (!message && limit) message = limit;
      if (!message && code) message = code;
    }
    if (!message && typeof body.message === 'string') message = body.message;
    if (!limit && typeof body.limit === 'string') limit = body.limit;
    if (!code && typeof body.code === 'string') code = body.code;
  }
  const host = safeHost(url);
  if (!message) {
    const what = parsed === undefined && text.trim().length > 0
      ? `a non-JSON response${contentType ? ` (${contentType.split(';')[0]})` : ''}`
      : 'an empty error response';
    message = `${host} answered HTTP ${status}${statusText ? ` ${statusText}` : ''} with ${what}`;
  }
  return new ApiError({ kind: 'http', status, message, limit, code, body: text, method, url, scope });
}

export function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
