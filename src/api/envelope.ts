/**
 * Reading response shapes. Where the spec shows a list's envelope (GET /agents, GET
 * /calls: `{agents|calls: [...], total, limit, offset}`), anything else is refused as an
 * unexpected response. Where it leaves the shape open (voices, knowledge-base items,
 * deliveries, and the endpoints it does not show: campaigns, webhook endpoints), lists
 * may come as a bare array, an object with the expected key, or an object with exactly
 * one array field; GET /campaigns/{id}/contacts is a plain array by spec, and a wrapped
 * one is read too. Single objects may come bare or wrapped in their resource name.
 */
import { ApiError, safeHost } from './errors.js';
import { isObject } from '../util/is-object.js';

export interface ListPage<T> {
  items: T[];
  /** Matching items across all pages, when the server says. */
  total?: number;
  /** The page size the server applied, when it says (it may cap the one asked for). */
  limit?: number;
}

/** The lists whose envelope the spec shows (section 4), by their key: an object holding an array of objects under that key. */
const SPEC_ENVELOPES = new Set(['agents', 'calls']);

export function extractList<T>(body: unknown, key: string, url = ''): ListPage<T> {
  const fail = (expected: string, got: string) => new ApiError({
    kind: 'unexpected', method: 'GET', url, body: safeJson(body),
    message: `${url ? `${safeHost(url)} sent an unexpected response: ` : 'unexpected response: '}expected ${expected}, got ${got}`,
  });
  if (SPEC_ENVELOPES.has(key)) {
    const envelope = `{${key}: [...], total, limit, offset}`;
    if (!isObject(body) || !Array.isArray(body[key])) {
      throw fail(envelope, Array.isArray(body) ? `a bare list of ${body.length} ${body.length === 1 ? 'item' : 'items'}` : describe(body));
    }
    const items = body[key] as unknown[];
    const bad = items.findIndex((item) => !isObject(item));
    if (bad >= 0) throw fail(`${key} as objects`, `${describe(items[bad])} at position ${bad + 1} of ${key}`);
    return { items: items as T[], total: firstNumber([body.total]), limit: firstNumber([body.limit]) };
  }
  const page = findList<T>(body, key, 0);
  if (page) return page;
  throw fail(`a list of ${key}`, describe(body));
}

function findList<T>(body: unknown, key: string, depth: number): ListPage<T> | undefined {
  if (Array.isArray(body)) return { items: body as T[] };
  if (!isObject(body)) return undefined;
  const meta = [body, body.meta, body.pagination, body.page_info].filter(isObject);
  const total = firstNumber(meta.map((m) => m.total ?? m.total_count ?? m.count));
  const limit = firstNumber(meta.map((m) => m.limit ?? m.page_size));
  const page = (items: unknown[]) => ({ items: items as T[], total, limit });
  if (Array.isArray(body[key])) return page(body[key]);
  const arrays = Object.values(body).filter(Array.isArray);
  if (arrays.length === 1) return page(arrays[0]!);
  for (const alt of ['items', 'data', 'results']) {
    if (Array.isArray(body[alt])) return page(body[alt]);
  }
  // {data: {agents: [...], total}}: one level of wrapping, no more.
  if (depth === 0 && arrays.length === 0) {
    for (const wrapper of [key, 'data', 'result']) {
      const inner = body[wrapper];
      if (!isObject(inner)) continue;
      const found = findList<T>(inner, key, 1);
      if (found) return { items: found.items, total: found.total ?? total, limit: found.limit ?? limit };
    }
  }
  return undefined;
}

/**
 * The object itself, or the object under `key` (or `data`) when the server wraps it.
 * An object that carries its own id is never unwrapped, so a field that happens to be
 * called `data` stays where it is.
 */
export function unwrap<T = Record<string, unknown>>(body: unknown, key: string): T {
  if (isObject(body) && itemKey(body) === undefined) {
    for (const k of [key, 'data', 'result']) {
      const inner = body[k];
      if (isObject(inner)) return inner as T;
    }
  }
  return body as T;
}

/** The identity of a listed item, for de-duplication across pages. */
export function itemKey(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const id = item.id ?? item.call_id ?? item.job_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function firstNumber(values: unknown[]): number | undefined {
  for (const v of values) {
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return n;
  }
  return undefined;
}

function describe(body: unknown): string {
  if (body === undefined) return 'an empty body';
  if (body === null) return 'null';
  if (typeof body !== 'object') return `a ${typeof body}`;
  if (Array.isArray(body)) return 'a list';
  const keys = Object.keys(body as object);
  return keys.length ? `an object with ${keys.slice(0, 6).join(', ')}` : 'an empty object';
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}
