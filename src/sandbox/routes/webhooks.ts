/**
 * Webhook endpoints (spec sections 4 and 6): create with URL safety checks and the
 * 10-endpoint limit, list, update, test ping, deliveries, secret rotation, delete.
 * The secret is shown only on creation and rotation.
 */
import { EVENT_TYPES, isWebhookEventType, type WebhookEventType } from '../../webhooks/signature.js';
import { deliveriesOf, installDeliveries } from '../deliveries.js';
import { HttpError, type Route, type SandboxRequest } from '../router.js';
import { checkWebhookUrl } from '../webhook-url.js';
import { MAX_ENDPOINTS, deliveriesOf as deliveryList, deliveryView, endpointView, newSecret, type WebhookEndpoint } from '../webhook-store.js';
import { badField, bodyObject, notFound, page, pageParams, patchBody, planLimit } from '../validate.js';
import type { World } from '../world.js';

const SCOPE = 'webhooks:manage';
const EDITABLE = ['url', 'events', 'enabled'];
const READ_ONLY = ['id', 'secret', 'created_at', 'updated_at'];

function findEndpoint(req: SandboxRequest): WebhookEndpoint {
  const id = req.params.id!;
  const endpoints = req.org.webhooks.endpoints;
  const ep = Object.hasOwn(endpoints, id) ? endpoints[id] : undefined;
  if (!ep) throw notFound('webhook endpoint', id);
  return ep;
}

async function checkedUrl(world: World, value: unknown): Promise<string> {
  if (typeof value !== 'string' || value.trim() === '') throw badField('url', value === undefined ? 'is required' : 'must be a non-empty string');
  const check = await checkWebhookUrl(value.trim(), { allowLocal: world.options.allowLocalWebhooks });
  if (!check.ok) throw new HttpError(400, check.reason, { code: 'invalid_url', field: 'url' });
  return check.url;
}

function checkedEvents(value: unknown): WebhookEventType[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw badField('events', `must be a non-empty array of event types (${EVENT_TYPES.join(', ')}); omit it for all events`);
  }
  const unknown = value.filter((v) => !isWebhookEventType(v));
  if (unknown.length) throw badField('events', `has unknown event types ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known: ${EVENT_TYPES.join(', ')}`);
  return EVENT_TYPES.filter((t) => value.includes(t));
}

export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/webhooks/endpoints',
    scope: SCOPE,
    async handle(req, world) {
      const obj = bodyObject(req.body);
      for (const k of Object.keys(obj)) if (!EDITABLE.includes(k)) throw badField(k, 'is not a webhook endpoint field');
      if (obj.enabled !== undefined && typeof obj.enabled !== 'boolean') throw badField('enabled', 'must be true or false');
      const url = await checkedUrl(world, obj.url);
      const events = obj.events === undefined ? [...EVENT_TYPES] : checkedEvents(obj.events);
      const state = req.org.webhooks;
      if (Object.keys(state.endpoints).length >= MAX_ENDPOINTS) {
        throw planLimit('webhook_endpoint_limit_exceeded', `an account may have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`, { max_endpoints: MAX_ENDPOINTS });
      }
      const now = world.clock.nowIso();
      const ep: WebhookEndpoint = { id: world.uuid(), url, events, enabled: obj.enabled ?? true, secret: newSecret(), created_at: now, updated_at: now };
      state.endpoints[ep.id] = ep;
      world.changed();
      return { status: 201, body: { ...endpointView(ep), secret: ep.secret } };
    },
  },
  {
    method: 'GET',
    pattern: '/webhooks/endpoints',
    scope: SCOPE,
    handle(req) {
      const endpoints = Object.values(req.org.webhooks.endpoints).sort((a, b) => a.created_at.localeCompare(b.created_at));
      return { status: 200, body: page('endpoints', endpoints.map(endpointView), pageParams(req.query)) };
    },
  },
  {
    method: 'GET',
    pattern: '/webhooks/endpoints/:id',
    scope: SCOPE,
    handle: (req) => ({ status: 200, body: endpointView(findEndpoint(req)) }),
  },
  {
    method: 'PATCH',
    pattern: '/webhooks/endpoints/:id',
    scope: SCOPE,
    async handle(req, world) {
      const ep = findEndpoint(req);
      const obj = patchBody(req.body, EDITABLE, READ_ONLY);
      if ('enabled' in obj && typeof obj.enabled !== 'boolean') throw badField('enabled', 'must be true or false');
      const url = 'url' in obj ? await checkedUrl(world, obj.url) : ep.url;
      const events = 'events' in obj ? checkedEvents(obj.events) : ep.events;
      // Re-read after the DNS check: the endpoint may have been deleted meanwhile.
      if (req.org.webhooks.endpoints[ep.id] !== ep) throw notFound('webhook endpoint', ep.id);
      ep.url = url;
      ep.events = events;
      if ('enabled' in obj) ep.enabled = obj.enabled as boolean;
      ep.updated_at = world.clock.nowIso();
      world.changed();
      return { status: 200, body: endpointView(ep) };
    },
  },
  {
    method: 'DELETE',
    pattern: '/webhooks/endpoints/:id',
    scope: SCOPE,
    handle(req, world) {
      const ep = findEndpoint(req);
      deliveriesOf(world).dropEndpoint(req.org, ep.id);
      delete req.org.webhooks.endpoints[ep.id];
      world.changed();
      return { status: 200, body: { id: ep.id, deleted: true } };
    },
  },
  {
    method: 'POST',
    pattern: '/webhooks/endpoints/:id/rotate-secret',
    scope: SCOPE,
    handle(req, world) {
      const ep = findEndpoint(req);
      ep.secret = newSecret();
      ep.updated_at = world.clock.nowIso();
      world.changed();
      return { status: 200, body: { id: ep.id, secret: ep.secret } };
    },
  },
  {
    method: 'POST',
    pattern: '/webhooks/endpoints/:id/test',
    scope: SCOPE,
    async handle(req, world) {
      const ep = findEndpoint(req);
      if (!ep.enabled) throw new HttpError(409, `webhook endpoint ${ep.id} is disabled; enable it to send a test event`, { code: 'endpoint_disabled' });
      const data = { endpoint_id: ep.id, message: 'Test event from the voicectl sandbox' };
      const { eventId, attempts } = deliveriesOf(world).publish(req.org, 'ping', data, [ep]);
      // Wait for the first attempt (bounded by the delivery timeout) so the caller sees how it went.
      const delivery = await attempts[0]!;
      return { status: 200, body: { event_id: eventId, type: 'ping', delivery: deliveryView(delivery) } };
    },
  },
  {
    method: 'GET',
    pattern: '/webhooks/endpoints/:id/deliveries',
    scope: SCOPE,
    handle(req) {
      const ep = findEndpoint(req);
      const list = deliveryList(req.org.webhooks, ep.id).map(deliveryView);
      return { status: 200, body: page('deliveries', list, pageParams(req.query)) };
    },
  },
];

/** Installs the delivery engine; registered in routes/index.ts setups. */
export function setupWebhooks(world: World): void {
  installDeliveries(world);
}
