/**
 * Reading response shapes the spec leaves open. Lists may come as a bare array, an
 * object with the expected key, or an object with exactly one array field; single
 * objects may come bare or wrapped in their resource name.
 */
import { ApiError } from './errors.js';

export interface ListPage<T> {
  items: T[];
  total?: number;
}

export function extractList<T>(body: unknown, key: string, url = ''): ListPage<T> {
  if (Array.isArray(body)) return { items: body as T[] };
  if (body && typeof body === 'object') {
    const obj = body as Record<string, unknown>;
    const total = typeof obj.total === 'number' && Number.isFinite(obj.total) ? obj.total : undefined;
    if (Array.isArray(obj[key])) return { items: obj[key] as T[], total };
    const arrays = Object.values(obj).filter(Array.isArray);
    if (arrays.length === 1) return { items: arrays[0] as T[], total };
    for (const alt of ['items', 'data', 'results']) {
      if (Array.isArray(obj[alt])) return { items: obj[alt] as T[], total };
    }
  }
  throw new ApiError({
    kind: 'unexpected', method: 'GET', url, body: safeJson(body),
    message: `unexpected response: expected a list of ${key}, got ${describe(body)}`,
  });
}

/** The object itself, or the object under `key` (or `data`) when the server wraps it. */
export function unwrap<T = Record<string, unknown>>(body: unknown, key: string): T {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const obj = body as Record<string, unknown>;
    for (const k of [key, 'data']) {
      const inner = obj[k];
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner as T;
    }
  }
  return body as T;
}

/** The identity of a listed item, for de-duplication across pages. */
export function itemKey(item: unknown): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const id = o.id ?? o.call_id ?? o.job_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function describe(body: unknown): string {
  if (body === undefined) return 'an empty body';
  if (body === null) return 'null';
  if (typeof body !== 'object') return `a ${typeof body}`;
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
