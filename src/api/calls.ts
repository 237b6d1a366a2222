/**
 * Calls: one page of GET /calls, all pages, one call with its transcript, and the
 * recording link, whose response shape the spec does not show.
 */
import type { ApiClient, Query, RawResponse } from './client.js';
import { ApiError } from './errors.js';
import { extractList, unwrap, type ListPage } from './envelope.js';
import { isObject } from '../util/is-object.js';

export interface TranscriptTurn {
  role?: string;
  text?: string;
  timestamp?: string | number;
  [key: string]: unknown;
}

export interface Call {
  call_id: string;
  campaign_id?: string | null;
  agent_id?: string | null;
  agent_name?: string;
  direction?: string;
  phone_number?: string;
  status?: string;
  end_reason?: string | null;
  outcome?: string | null;
  summary?: string | null;
  error?: string | null;
  duration_seconds?: number | null;
  start_time?: string;
  end_time?: string | null;
  has_recording?: boolean;
  contact?: { name?: string; extra?: unknown } | null;
  transcript?: TranscriptTurn[];
  [key: string]: unknown;
}

/** The filters of GET /calls; times already in the ISO form sent on the wire. */
export interface CallFilters {
  campaign_id?: string;
  since?: string;
  until?: string;
  status?: string;
}

export interface CallPage extends ListPage<Call> {
  /** The body as received, for --json of a single page. */
  body: unknown;
}

function callQuery(filters: CallFilters, limit?: number, offset?: number): Query {
  return { ...filters, limit, offset };
}

export async function listCalls(api: ApiClient, filters: CallFilters, page: { limit?: number; offset?: number } = {}, signal?: AbortSignal): Promise<CallPage> {
  const body = await api.get<unknown>('/calls', { query: callQuery(filters, page.limit, page.offset), signal });
  return { ...extractList<Call>(body, 'calls', api.url('/calls')), body };
}

export function allCalls(api: ApiClient, filters: CallFilters, options: { max?: number; offset?: number; signal?: AbortSignal } = {}): AsyncGenerator<Call> {
  return api.paginate<Call>('/calls', 'calls', { query: { ...filters }, limit: 200, ...options });
}

/** The call as the API returned it (`raw`) and unwrapped (`call`). */
export async function getCall(api: ApiClient, callId: string, signal?: AbortSignal): Promise<{ call: Call; raw: unknown }> {
  const raw = await api.get<unknown>(`/calls/${encodeURIComponent(callId)}`, { signal });
  const call = unwrap<Call>(raw, 'call');
  if (!call || typeof call !== 'object' || Array.isArray(call)) {
    throw new ApiError({
      kind: 'unexpected', method: 'GET', url: api.url(`/calls/${encodeURIComponent(callId)}`), body: JSON.stringify(raw),
      message: `expected a call object for ${callId}, got ${raw === undefined ? 'an empty body' : Array.isArray(raw) ? 'a list' : raw === null ? 'null' : typeof raw}`,
    });
  }
  return { call, raw };
}

export interface RecordingLink {
  url: string;
  expiresAt?: string;
}

/** A fresh link every time: links expire after an hour, so none is ever cached. */
export async function recordingLink(api: ApiClient, callId: string, signal?: AbortSignal): Promise<RecordingLink> {
  const path = `/calls/${encodeURIComponent(callId)}/recording-url`;
  const body = await api.get<unknown>(path, { signal });
  const found = findRecordingLink(body);
  if (!found) {
    throw new ApiError({
      kind: 'unexpected', method: 'GET', url: api.url(path), body: safeJson(body),
      message: `the recording-url response for ${callId} holds no link`,
    });
  }
  return { ...found, url: new URL(found.url, `${api.baseUrl}/`).toString() };
}

const URL_KEYS = ['url', 'recording_url', 'signed_url', 'link', 'href', 'download_url', 'uri'];
const EXPIRY_KEYS = ['expires_at', 'expiresAt', 'expires', 'expiry', 'expiration', 'valid_until'];
const WRAPPERS = ['data', 'recording', 'result'];

/**
 * The link in whatever shape a server sends it: a bare string, {url}, {recording_url},
 * {signed_url}, {link}, any of those under data/recording/result, or failing all that
 * the first http(s) string field. Relative links are kept as they are (resolved by the caller).
 */
export function findRecordingLink(body: unknown, depth = 0): RecordingLink | undefined {
  if (typeof body === 'string') {
    const s = body.trim();
    return s && (isHttp(s) || s.startsWith('/')) ? { url: s } : undefined;
  }
  if (!isObject(body) || depth > 2) return undefined;
  const expiresAt = expiryOf(body);
  for (const k of URL_KEYS) {
    const v = body[k];
    if (typeof v === 'string' && v.trim() && (isHttp(v.trim()) || v.trim().startsWith('/'))) return withExpiry(v.trim(), expiresAt);
  }
  for (const k of WRAPPERS) {
    const inner = findRecordingLink(body[k], depth + 1);
    if (inner) return { url: inner.url, expiresAt: inner.expiresAt ?? expiresAt };
  }
  for (const v of Object.values(body)) {
    if (typeof v === 'string' && isHttp(v.trim())) return withExpiry(v.trim(), expiresAt);
  }
  for (const v of Object.values(body)) {
    if (!isObject(v)) continue;
    const inner = findRecordingLink(v, depth + 1);
    if (inner) return { url: inner.url, expiresAt: inner.expiresAt ?? expiresAt };
  }
  return undefined;
}

/**
 * Opens the recording for streaming. The link is signed and needs no key, so none is
 * sent: a link on a storage host must never receive X-API-Key. Only a link on the
 * service's own origin that answers 401 without one is asked again with it.
 */
export async function openRecording(api: ApiClient, url: string, signal?: AbortSignal): Promise<RawResponse> {
  const options = { signal, headers: { accept: '*/*' } };
  try {
    return await api.stream('GET', url, { ...options, anonymous: true });
  } catch (err) {
    const sameOrigin = new URL(url).origin === new URL(api.baseUrl).origin;
    if (!(err instanceof ApiError) || err.status !== 401 || !sameOrigin) throw err;
    return api.stream('GET', url, { ...options, anonymous: false });
  }
}

function withExpiry(url: string, expiresAt: string | undefined): RecordingLink {
  return expiresAt ? { url, expiresAt } : { url };
}

function expiryOf(o: Record<string, unknown>): string | undefined {
  for (const k of EXPIRY_KEYS) {
    const v = o[k];
    if (typeof v === 'string' && v.trim()) return v.trim();
    // Unix seconds or milliseconds, as some storage APIs send.
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(v < 1e12 ? v * 1000 : v).toISOString();
  }
  return undefined;
}

function isHttp(s: string): boolean {
  return /^https?:\/\/\S+$/i.test(s);
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}
