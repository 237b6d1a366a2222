/**
 * `voicectl api`: a request the user spells out, sent through the one client (auth,
 * timeouts, GET retries, error parsing), and the spec's offset paging for --paginate.
 */
import type { ApiClient, Query } from './client.js';
import { paginate } from './pagination.js';

export interface RawRequest {
  method: string;
  path: string;
  query?: Query;
  /** JSON to send; undefined sends no body. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * One request; the answer's JSON (undefined for an empty body), as a JsonText when the
 * client keeps texts (--jq). Only a GET is retried (client.ts).
 */
export function sendRaw(api: ApiClient, req: RawRequest): Promise<unknown> {
  return api.json<unknown>(req.method, req.path, { query: req.query, body: req.body, signal: req.signal, wholeText: true });
}

/**
 * Every item of a list endpoint, page after page (offset += what arrived, until offset >=
 * total), each id once. The list is the envelope's array named like the path's last
 * segment (`/agents` → `agents`), or its only array; `limit` and `offset` in the query
 * set the page size and the start.
 */
export function rawPages(api: ApiClient, req: RawRequest): AsyncGenerator<unknown, void, undefined> {
  const [pathname = '', search = ''] = req.path.split('?', 2);
  const query: Record<string, string> = Object.fromEntries(new URLSearchParams(search));
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined && v !== null) query[k] = String(v);
  const { limit, offset, ...rest } = query;
  const key = pathname.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return paginate<unknown>({
    get: (q, signal) => api.get<unknown>(pathname, { query: q, signal }),
    url: api.url(pathname),
  }, key, { query: rest, limit: limit === undefined ? undefined : Number(limit), offset: offset === undefined ? undefined : Number(offset), signal: req.signal });
}
