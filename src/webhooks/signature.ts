/**
 * Signing and verifying webhook deliveries (spec section 6), exported as `voicectl/webhooks`
 * for users' own Node receivers. Only node:crypto: a receiver should not pull in the CLI.
 *
 *   const result = verify(process.env.WEBHOOK_SECRET!, rawBody, req.headers['service-signature']);
 *   if (!result.ok) return res.writeHead(400).end(result.message);
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header names as the service sends them; Node lower-cases incoming names, so look them up lower-case. */
export const SIGNATURE_HEADER = 'Service-Signature';
export const EVENT_ID_HEADER = 'Service-Event-Id';
export const EVENT_TYPE_HEADER = 'Service-Event-Type';

/** Receivers reject a `t` further than this from their clock, in either direction. */
export const DEFAULT_TOLERANCE_SEC = 300;

export const EVENT_TYPES = ['call.ended', 'call.recording_ready', 'campaign.completed', 'ping'] as const;
export type WebhookEventType = (typeof EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** `data` of call.ended and call.recording_ready: the call as `GET /calls` returns it. */
export interface CallEventData {
  call_id: string;
  campaign_id: string | null;
  agent_id: string | null;
  agent_name: string | null;
  direction: string;
  phone_number: string;
  status: string;
  end_reason: string | null;
  outcome: string | null;
  summary: string | null;
  error: string | null;
  duration_seconds: number | null;
  start_time: string | null;
  end_time: string | null;
  has_recording: boolean;
  contact: { name?: string | null; extra?: unknown } | null;
  [field: string]: unknown;
}

/** `data` of campaign.completed: the campaign as `GET /campaigns/{id}` returns it. */
export interface CampaignEventData {
  id: string;
  name: string;
  agent_id: string | null;
  status: string;
  contacts_by_status: Record<string, number>;
  campaign_prompt?: string;
  kb_item_ids?: string[];
  [field: string]: unknown;
}

/** The spec leaves ping's `data` open; the sandbox sends these fields. */
export interface PingEventData {
  endpoint_id?: string;
  message?: string;
  [field: string]: unknown;
}

interface Envelope<T extends WebhookEventType, D> {
  /** Begins with `evt_`; identical on every retry, so receivers dedupe on it. */
  id: string;
  type: T;
  /** ISO 8601 UTC with milliseconds. */
  created_at: string;
  data: D;
}

export type CallEndedEvent = Envelope<'call.ended', CallEventData>;
export type CallRecordingReadyEvent = Envelope<'call.recording_ready', CallEventData & { has_recording: true }>;
export type CampaignCompletedEvent = Envelope<'campaign.completed', CampaignEventData>;
export type PingEvent = Envelope<'ping', PingEventData>;
export type WebhookEvent = CallEndedEvent | CallRecordingReadyEvent | CampaignCompletedEvent | PingEvent;

/** Lowercase hex HMAC-SHA256 over `t`, a period, then the raw body bytes. */
export function computeSignature(secret: string, timestampSec: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret)
    .update(`${timestampSec}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** The `Service-Signature` header value for `body`: `t=<unix seconds>,v1=<hex>`. */
export function sign(secret: string, body: string | Uint8Array, timestampSec: number = Math.floor(Date.now() / 1000)): string {
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) {
    throw new TypeError(`timestamp must be whole unix seconds, got ${timestampSec}`);
  }
  return `t=${timestampSec},v1=${computeSignature(secret, timestampSec, body)}`;
}

export interface ParsedSignatureHeader {
  timestamp: number;
  /** Every v1 value, in order; during a rotation there may be several. */
  signatures: string[];
}

/** Parses `t=…,v1=…[,v1=…]`; unknown schemes are ignored. Null when it cannot be used at all. */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,15}$/.test(value) || timestamp !== undefined) return null;
      timestamp = Number(value);
    } else if (key === 'v1' && value) {
      signatures.push(value);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export type VerifyFailureReason = 'missing_header' | 'malformed_header' | 'timestamp_out_of_range' | 'signature_mismatch';

export type VerifyResult =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason: VerifyFailureReason;
      /** A sentence for logs and receivers' 4xx bodies. */
      message: string;
      /** The header's `t`, when it could be read. */
      timestamp?: number;
      /** Receiver clock minus `t`, in seconds, for timestamp_out_of_range. */
      skewSec?: number;
    };

export interface VerifyOptions {
  /** Allowed distance between `t` and now, either direction. Default 300. */
  toleranceSec?: number;
  /** The receiver's clock: a Date or epoch milliseconds. Default Date.now(). */
  now?: Date | number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Verifies a delivery. Pass every secret that may be current (old and new during a
 * rotation). The body must be the raw bytes received: re-serialized JSON will not match.
 */
export function verify(
  secret: string | readonly string[],
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  options: VerifyOptions = {},
): VerifyResult {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('verify() needs at least one non-empty secret');
  }
  // Node joins repeated headers into an array; treat them as one list of parts.
  const value = Array.isArray(header) ? header.join(',') : (header as string | null | undefined);
  if (value == null || value.trim() === '') {
    return { ok: false, reason: 'missing_header', message: `no ${SIGNATURE_HEADER} header` };
  }
  const parsed = parseSignatureHeader(value);
  if (!parsed) {
    return { ok: false, reason: 'malformed_header', message: `${SIGNATURE_HEADER} is not of the form t=<unix seconds>,v1=<hex>` };
  }
  const toleranceSec = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const skewSec = Math.round(nowMs / 1000 - parsed.timestamp);
  if (Math.abs(nowMs / 1000 - parsed.timestamp) > toleranceSec) {
    return {
      ok: false,
      reason: 'timestamp_out_of_range',
      message: `signature timestamp is ${Math.abs(skewSec)} s in the ${skewSec > 0 ? 'past' : 'future'} (tolerance ${toleranceSec} s)`,
      timestamp: parsed.timestamp,
      skewSec,
    };
  }
  const candidates = parsed.signatures.filter((s) => HEX_SHA256.test(s)).map((s) => Buffer.from(s, 'hex'));
  let matched = false;
  // Check every pair without stopping early, so timing says nothing about which one matched.
  for (const s of secrets) {
    const expected = Buffer.from(computeSignature(s, parsed.timestamp, rawBody), 'hex');
    for (const candidate of candidates) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
    }
  }
  if (!matched) {
    return { ok: false, reason: 'signature_mismatch', message: 'no v1 signature matches the body with this secret', timestamp: parsed.timestamp };
  }
  return { ok: true, timestamp: parsed.timestamp };
}
