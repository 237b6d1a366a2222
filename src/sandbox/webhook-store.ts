/**
 * Webhook endpoints and delivery records of one organization, as plain JSON for --state.
 * Pending deliveries keep their body and due time, so a restarted sandbox re-arms them.
 */
import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '../webhooks/signature.js';

export const MAX_ENDPOINTS = 10;

/** Spec section 6: retried after these waits (simulated), 8 attempts in all. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 64_800_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Finished deliveries kept per endpoint for the deliveries listing; pending ones are never dropped. */
const KEEP_FINISHED = 500;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  secret: string;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  status: DeliveryStatus;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_retry_at: string | null;
  created_at: string;
  /** Internal: the exact body, identical on every retry; dropped once the delivery is final. */
  _body?: string;
  /** Internal: simulated ms when the next attempt is due, while pending. */
  _due?: number;
  /** Internal: creation order, for newest-first listings. */
  _seq: number;
}

export interface WebhookState {
  endpoints: Record<string, WebhookEndpoint>;
  deliveries: Record<string, Delivery>;
  seq: number;
}

export function emptyWebhooks(): WebhookState {
  return { endpoints: {}, deliveries: {}, seq: 0 };
}

/** Never seeded: a secret must not repeat between sandboxes started with the same --seed. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

export function endpointView(ep: WebhookEndpoint): Record<string, unknown> {
  return { id: ep.id, url: ep.url, events: [...ep.events], enabled: ep.enabled, created_at: ep.created_at, updated_at: ep.updated_at };
}

export function deliveryView(d: Delivery): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) if (!k.startsWith('_')) view[k] = v;
  return view;
}

/** Newest first. */
export function deliveriesOf(state: WebhookState, endpointId: string): Delivery[] {
  return Object.values(state.deliveries)
    .filter((d) => d.endpoint_id === endpointId)
    .sort((a, b) => b._seq - a._seq);
}

/** Keeps the listing and the state file bounded under long campaigns. */
export function pruneFinished(state: WebhookState, endpointId: string): void {
  const finished = deliveriesOf(state, endpointId).filter((d) => d.status !== 'pending');
  for (const d of finished.slice(KEEP_FINISHED)) delete state.deliveries[d.id];
}
