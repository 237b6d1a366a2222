/**
 * Webhook endpoints (spec section 4). The spec shows no list endpoint and leaves the
 * bodies of patch, test, rotate-secret and delete, and the delivery record's field
 * names, open: these functions return what the server sent and the commands read it
 * loosely.
 */
import type { ApiClient } from './client.js';
import { extractList, unwrap } from './envelope.js';
import { isObject } from '../util/is-object.js';

export interface WebhookEndpoint {
  id: string;
  url?: string;
  /** Omitted (or empty) means every event type. */
  events?: string[] | null;
  enabled?: boolean;
  /** Only on creation and rotation. */
  secret?: string;
  [field: string]: unknown;
}

/** A delivery record; its field names are not in the spec (see the deliveries verb). */
export type WebhookDelivery = Record<string, unknown>;

export interface EndpointChanges {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

const BASE = '/webhooks/endpoints';

function path(id: string, rest = ''): string {
  return `${BASE}/${encodeURIComponent(id)}${rest}`;
}

export async function listEndpoints(api: ApiClient): Promise<WebhookEndpoint[]> {
  const body = await api.get(BASE);
  return extractList<WebhookEndpoint>(body, 'endpoints', api.url(BASE)).items;
}

export async function createEndpoint(api: ApiClient, fields: { url: string; events?: string[] }): Promise<WebhookEndpoint> {
  const body: Record<string, unknown> = { url: fields.url };
  if (fields.events && fields.events.length > 0) body.events = fields.events;
  const res = await api.post(BASE, body);
  return asEndpoint(res) ?? unwrap<WebhookEndpoint>(res, 'endpoint');
}

/** PATCH with only the fields given. Returns the endpoint when the server sends one back. */
export async function updateEndpoint(api: ApiClient, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | undefined> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changes)) if (v !== undefined && v !== null) body[k] = v;
  return asEndpoint(await api.patch(path(id), body));
}

/** Asks the service to send a `ping` event; returns whatever it answered (may be nothing). */
export async function testEndpoint(api: ApiClient, id: string): Promise<unknown> {
  return api.post(path(id, '/test'));
}

/** One page (the server's default size unless `limit` is given): most servers list newest first. */
export async function listDeliveries(api: ApiClient, id: string, options: { limit?: number } = {}): Promise<{ items: WebhookDelivery[]; total?: number }> {
  const url = path(id, '/deliveries');
  const body = await api.get(url, { query: { limit: options.limit } });
  return extractList<WebhookDelivery>(body, 'deliveries', api.url(url));
}

export function allDeliveries(api: ApiClient, id: string): AsyncGenerator<WebhookDelivery> {
  return api.paginate<WebhookDelivery>(path(id, '/deliveries'), 'deliveries');
}

/** The new secret, from `{secret}`, `{endpoint: {secret}}` or similar; undefined if none came back. */
export async function rotateSecret(api: ApiClient, id: string): Promise<{ secret?: string; body: unknown }> {
  const body = await api.post(path(id, '/rotate-secret'));
  return { secret: findSecret(body), body };
}

export async function deleteEndpoint(api: ApiClient, id: string): Promise<void> {
  await api.delete(path(id));
}

export function findSecret(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const o = body;
  for (const k of ['secret', 'signing_secret', 'new_secret', 'webhook_secret']) {
    if (typeof o[k] === 'string' && o[k]) return o[k] as string;
  }
  for (const k of ['endpoint', 'webhook', 'data', 'result']) {
    const inner = findSecret(o[k]);
    if (inner) return inner;
  }
  return undefined;
}

/** The endpoint object, bare or wrapped as {endpoint}, {webhook}, {data} or {result}. */
function asEndpoint(body: unknown): WebhookEndpoint | undefined {
  if (!isObject(body)) return undefined;
  const o = body;
  if ('id' in o) return o as WebhookEndpoint;
  for (const k of ['endpoint', 'webhook', 'webhook_endpoint', 'data', 'result']) {
    const inner = o[k];
    if (isObject(inner) && 'id' in inner) return inner as WebhookEndpoint;
  }
  return undefined;
}
