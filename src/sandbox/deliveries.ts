/**
 * Webhook deliveries, for real (spec section 6): every event the simulation emits is
 * POSTed, signed, to each enabled endpoint subscribed to its type; failures are retried
 * on the simulated clock with the same event id; pending retries live in the org's state
 * as due times and are re-armed after a restart.
 */
import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, isWebhookEventType, sign, type WebhookEventType } from '../webhooks/signature.js';
import type { Cancel } from './clock.js';
import { PostClient } from './http-post.js';
import { addressProblem } from './webhook-url.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, pruneFinished, type Delivery, type WebhookEndpoint } from './webhook-store.js';
import type { OrgState, World } from './world.js';

/** The receiver must answer within 10 s; under a large time scale the wait is shortened, never below 2 s. */
export function attemptTimeoutMs(scale: number): number {
  return Math.max(2000, 10_000 / Math.max(1, scale));
}

const CONCURRENCY = 32;
const PRUNE_EVERY = 100;
const USER_AGENT = 'voicectl-sandbox-webhooks/1';

type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

const engines = new WeakMap<World, Deliveries>();

/** The delivery engine of a world (installed by the webhooks setup). */
export function deliveriesOf(world: World): Deliveries {
  const engine = engines.get(world);
  if (!engine) throw new Error('webhook deliveries are not installed in this sandbox');
  return engine;
}

export function installDeliveries(world: World): void {
  engines.set(world, new Deliveries(world));
}

export class Deliveries {
  private readonly timers = new Map<string, Cancel>();
  private readonly inflight = new Map<string, AbortController>();
  private readonly waiting: Array<() => void> = [];
  private readonly finishedSincePrune = new Map<string, number>();
  private readonly client = new PostClient();
  private readonly lookup: LookupFunction;
  private active = 0;
  private closed = false;

  constructor(private readonly world: World) {
    this.lookup = this.guardedLookup();
    world.onEvent((orgId, type, data) => {
      if (!isWebhookEventType(type) || type === 'ping') return;
      const org = world.orgs.get(orgId);
      if (!org) return;
      // Spec 6.6: an endpoint disabled when the event occurs never hears of it.
      const targets = Object.values(org.webhooks.endpoints).filter((ep) => ep.enabled && ep.events.includes(type));
      if (targets.length) this.publish(org, type, data, targets);
    });
    world.onResume(() => {
      for (const org of world.orgs.values()) {
        for (const d of Object.values(org.webhooks.deliveries)) if (d.status === 'pending') this.arm(org, d);
      }
    });
    world.onClose(() => this.close());
  }

  /** Creates one event and a delivery per endpoint; first attempts start at once. */
  publish(org: OrgState, type: WebhookEventType, data: unknown, targets: WebhookEndpoint[]): { eventId: string; attempts: Array<Promise<Delivery>> } {
    const state = org.webhooks;
    const now = this.world.clock.now();
    const created = new Date(now).toISOString();
    const eventId = `evt_${randomBytes(12).toString('hex')}`;
    const body = JSON.stringify({ id: eventId, type, created_at: created, data: publicData(data) });
    const attempts = targets.map((ep) => {
      const d: Delivery = {
        id: `dlv_${randomBytes(12).toString('hex')}`,
        endpoint_id: ep.id, event_id: eventId, event_type: type, status: 'pending', attempts: 0,
        last_response_code: null, last_error: null, last_attempt_at: null, next_retry_at: null, created_at: created,
        _body: body, _due: now, _seq: ++state.seq,
      };
      state.deliveries[d.id] = d;
      return this.attempt(org, d.id).catch((err: unknown) => this.report(err)).then(() => d);
    });
    this.world.changed();
    return { eventId, attempts };
  }

  /** Drops an endpoint's pending retries (spec 6.7) and any attempt in flight. */
  dropEndpoint(org: OrgState, endpointId: string): void {
    for (const d of Object.values(org.webhooks.deliveries)) {
      if (d.endpoint_id !== endpointId) continue;
      this.timers.get(d.id)?.();
      this.timers.delete(d.id);
      this.inflight.get(d.id)?.abort();
      delete org.webhooks.deliveries[d.id];
    }
    this.finishedSincePrune.delete(endpointId);
    this.world.changed();
  }

  private arm(org: OrgState, d: Delivery): void {
    this.timers.get(d.id)?.();
    this.timers.set(d.id, this.world.clock.at(d._due ?? this.world.clock.now(), () => {
      this.timers.delete(d.id);
      this.attempt(org, d.id).catch((err: unknown) => this.report(err));
    }));
  }

  private async attempt(org: OrgState, id: string): Promise<void> {
    const state = org.webhooks;
    const d = Object.hasOwn(state.deliveries, id) ? state.deliveries[id] : undefined;
    if (!d || d.status !== 'pending' || this.inflight.has(id) || this.closed) return;
    await this.slot();
    let result: AttemptResult;
    try {
      const ep = Object.hasOwn(state.endpoints, d.endpoint_id) ? state.endpoints[d.endpoint_id] : undefined;
      // Deleted or closed while waiting for a slot: nothing to send, nothing to record.
      if (!ep || this.closed || state.deliveries[id] !== d) return;
      // Disabled since the event: like an event occurring while disabled, the retry is not sent.
      if (!ep.enabled) return this.settle(org, d, 'failed', 'endpoint disabled; remaining retries dropped');
      result = await this.post(ep, d);
    } finally {
      this.release();
    }
    // A shutdown leaves the delivery pending with its due time, to be retried after a restart.
    if (this.closed || state.deliveries[id] !== d) return;
    const now = this.world.clock.now();
    d.attempts++;
    d.last_attempt_at = new Date(now).toISOString();
    d.last_response_code = result.status;
    if (result.ok) return this.settle(org, d, 'delivered', null);
    if (d.attempts >= MAX_ATTEMPTS) return this.settle(org, d, 'failed', result.error);
    d.last_error = result.error;
    d._due = now + RETRY_DELAYS_MS[d.attempts - 1]!;
    d.next_retry_at = new Date(d._due).toISOString();
    this.arm(org, d);
    this.world.changed();
  }

  private report(err: unknown): void {
    this.world.log(`sandbox: webhook delivery failed unexpectedly: ${(err as Error).stack ?? String(err)}`);
  }

  private settle(org: OrgState, d: Delivery, status: 'delivered' | 'failed', error: string | null): void {
    d.status = status;
    d.last_error = error;
    d.next_retry_at = null;
    delete d._body;
    delete d._due;
    this.finished(org, d.endpoint_id);
    this.world.changed();
  }

  private async post(ep: WebhookEndpoint, d: Delivery): Promise<AttemptResult> {
    const body = d._body!;
    const controller = new AbortController();
    this.inflight.set(d.id, controller);
    const timeoutMs = attemptTimeoutMs(this.world.clock.scale);
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref();
    try {
      // The answer's body is read (part of answering within the timeout), not used.
      const status = await this.client.post(ep.url, {
        signal: controller.signal,
        lookup: this.lookup,
        readLimit: 64 * 1024,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          [EVENT_ID_HEADER]: d.event_id,
          [EVENT_TYPE_HEADER]: d.event_type,
          // Signed now, with the endpoint's current secret and real seconds: receivers compare t with their clock.
          [SIGNATURE_HEADER]: sign(ep.secret, body, Math.floor(Date.now() / 1000)),
        },
        body,
      });
      // Redirects are not followed, so a 3xx is a failure like any other non-2xx.
      if (status >= 200 && status < 300) return { ok: true, status };
      return { ok: false, status, error: `HTTP ${status}` };
    } catch (err) {
      const reason = controller.signal.aborted ? (controller.signal.reason as Error | undefined)?.message ?? 'aborted' : describeError(err);
      return { ok: false, status: null, error: reason };
    } finally {
      clearTimeout(timer);
      this.inflight.delete(d.id);
    }
  }

  private finished(org: OrgState, endpointId: string): void {
    const n = (this.finishedSincePrune.get(endpointId) ?? 0) + 1;
    this.finishedSincePrune.set(endpointId, n % PRUNE_EVERY);
    if (n >= PRUNE_EVERY) pruneFinished(org.webhooks, endpointId);
  }

  private slot(): Promise<void> {
    if (this.active < CONCURRENCY) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** Hostnames are checked again when connecting, so one cannot re-point at a private address after registration. */
  private guardedLookup(): LookupFunction {
    const allowLocal = this.world.options.allowLocalWebhooks;
    return (host, options, cb) => {
      dnsLookup(host, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return cb(err, '', 0);
        const bad = addresses.find((a) => {
          const problem = addressProblem(a.address);
          return problem && !(allowLocal && problem === 'a loopback address');
        });
        if (bad) return cb(Object.assign(new Error(`${host} resolves to ${bad.address}, which is not a public address`), { code: 'EPRIVATE' }), '', 0);
        // net asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
        if (options.all) return (cb as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
        cb(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
  }

  private async close(): Promise<void> {
    this.closed = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    for (const c of this.inflight.values()) c.abort(new Error('sandbox closing'));
    for (const resolve of this.waiting.splice(0)) resolve();
    this.client.close();
  }
}

/** Event data as the API shows it: internal bookkeeping fields (leading underscore) never leave the sandbox. */
function publicData(data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (!k.startsWith('_')) out[k] = v;
  return out;
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
