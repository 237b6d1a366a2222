/**
 * Input rules shared by the routes: the pagination envelope and its limits, JSON
 * body shapes, PATCH without nulls, E.164, and time filters read as UTC.
 */
import { HttpError } from './router.js';

export interface PageParams {
  limit: number;
  offset: number;
}

export function pageParams(query: URLSearchParams): PageParams {
  return { limit: intParam(query, 'limit', 50, 1, 200), offset: intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER) };
}

function intParam(query: URLSearchParams, name: string, dflt: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return dflt;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new HttpError(400, `${name} must be a whole number ${range}, got "${raw}"`, { code: 'invalid_parameter', param: name });
  }
  return n;
}

/** The paginated envelope: `{<key>: [...], total, limit, offset}`. */
export function page<T>(key: string, items: T[], p: PageParams): Record<string, unknown> {
  return { [key]: items.slice(p.offset, p.offset + p.limit), total: items.length, limit: p.limit, offset: p.offset };
}

export function bodyObject(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'the request body must be a JSON object', { code: 'invalid_body' });
  }
  return body as Record<string, unknown>;
}

export function badField(field: string, message: string): HttpError {
  return new HttpError(400, `${field} ${message}`, { code: 'invalid_field', field });
}

export function requiredString(obj: Record<string, unknown>, field: string): string {
  const v = obj[field];
  if (v === undefined || v === null) throw badField(field, 'is required');
  if (typeof v !== 'string' || v.trim() === '') throw badField(field, 'must be a non-empty string');
  return v;
}

export function optionalString(obj: Record<string, unknown>, field: string): string | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badField(field, 'must be a string');
  return v;
}

export function optionalStringArray(obj: Record<string, unknown>, field: string): string[] | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === '')) throw badField(field, 'must be an array of strings');
  return [...new Set(v as string[])];
}

/** PATCH: null never clears a field, and only known fields may be sent. */
export function patchBody(body: unknown, allowed: readonly string[], readOnly: readonly string[] = []): Record<string, unknown> {
  const obj = bodyObject(body);
  for (const [k, v] of Object.entries(obj)) {
    if (readOnly.includes(k)) throw badField(k, 'cannot be changed');
    if (!allowed.includes(k)) throw badField(k, `is not a field that can be changed (allowed: ${allowed.join(', ')})`);
    if (v === null) {
      throw new HttpError(400, `${k} is null: PATCH does not clear fields; omit ${k} to leave it unchanged`, { code: 'null_field', field: k });
    }
  }
  return obj;
}

const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(s: unknown): s is string {
  return typeof s === 'string' && E164.test(s);
}

/** A filter time: ISO 8601, where a time without an offset (or a bare date) is UTC. */
export function timeParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  let s = raw.trim().replace(/^(\d{4}-\d{2}-\d{2})[ t]/, '$1T');
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) s += 'Z';
  const ms = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(s) ? Date.parse(s) : NaN;
  if (Number.isNaN(ms)) {
    throw new HttpError(400, `${name} must be an ISO 8601 time such as 2025-01-31T09:00:00Z, got "${raw}"`, { code: 'invalid_parameter', param: name });
  }
  return ms;
}

export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, `${what} ${id} not found`, { code: 'not_found' });
}

export function planLimit(limit: string, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(402, message, { code: limit, limit, ...extra });
}
