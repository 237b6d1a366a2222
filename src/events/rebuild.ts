/**
 * Events rebuilt from the API: the spec defines each event's `data` as exactly what the
 * API returns for the object (the call as `GET /calls` lists it, the campaign as
 * `GET /campaigns/{id}` returns it), so an event the service never delivered can be made
 * again. Two honest limits: `data` is the object's state when it was read, not when the
 * event happened, and `created_at` is the time it was rebuilt.
 *
 * The id is stable, `evt_reconciled_` plus a hash of type and object id, so a receiver
 * that dedupes on `Service-Event-Id` takes a rebuilt event once however often it is sent.
 */
import { createHash } from 'node:crypto';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, sign } from '../webhooks/signature.js';

const SYNTHESIZED_HEADER = 'Service-Event-Synthesized';
const RECONCILED_PREFIX = 'evt_reconciled_';

export type RebuiltType = 'call.ended' | 'call.recording_ready' | 'campaign.completed';

export function reconciledId(type: string, objectId: string): string {
  return `${RECONCILED_PREFIX}${createHash('sha256').update(`${type}\n${objectId}`).digest('hex').slice(0, 32)}`;
}

export interface RebuiltEvent {
  id: string;
  type: RebuiltType;
  created_at: string;
  data: Record<string, unknown>;
}

/** The call as the list returns it: a single-call read's transcript is not part of `data`. */
function callData(call: Record<string, unknown>): Record<string, unknown> {
  if (!('transcript' in call)) return call;
  const { transcript: _omitted, ...rest } = call;
  return rest;
}

export function rebuildEvent(type: RebuiltType, objectId: string, data: Record<string, unknown>, now: Date): RebuiltEvent {
  return { id: reconciledId(type, objectId), type, created_at: now.toISOString(), data: type === 'campaign.completed' ? data : callData(data) };
}

/** The headers a delivery of `body` carries, signed in the service's scheme when a secret is given. */
export function deliveryHeaders(event: { id: string; type: string }, body: Uint8Array, secret: string | undefined, now: Date, userAgent: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    [EVENT_ID_HEADER]: event.id,
    [EVENT_TYPE_HEADER]: event.type,
    [SYNTHESIZED_HEADER]: 'true',
    ...(secret !== undefined ? { [SIGNATURE_HEADER]: sign(secret, body, Math.floor(now.getTime() / 1000)) } : {}),
  };
}

/** A call the service is done with: it has an end time, or a status no call stays in. */
export function callFinished(call: Record<string, unknown>): boolean {
  if (typeof call.end_time === 'string' && call.end_time !== '') return true;
  const status = typeof call.status === 'string' ? call.status.toLowerCase() : '';
  return ['completed', 'no_answer', 'failed', 'busy', 'canceled', 'cancelled', 'voicemail', 'ended'].includes(status);
}
