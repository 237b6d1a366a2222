/**
 * The sandbox's whole state: keys, plan, organizations, simulated clock, seeded
 * randomness and the event bus. Organization data is plain JSON (records and arrays)
 * so --state can write it with JSON.stringify; fast lookups live in derived indexes
 * (CallIndex) rebuilt on load.
 */
import { randomUUID } from 'node:crypto';
import { SimClock } from './clock.js';
import { CallIndex } from './call-index.js';
import { Rng, randomSeed } from './rng.js';
import { emptyKb, type KbState } from './kb-store.js';
import { emptyWebhooks, type WebhookState } from './webhook-store.js';

export * from './records.js';
import type { Agent, Call, Campaign, DegradeRule, KeyDef, LearnedRates, Plan, Script } from './records.js';

export interface OrgState {
  id: string;
  agents: Record<string, Agent>;
  campaigns: Record<string, Campaign>;
  calls: Record<string, Call>;
  scripts: Record<string, Script>;
  /** Calls placed so far, part of each call's seed, so re-running a campaign varies. */
  seq: number;
  /** Dispatches per key per simulated UTC day, for daily_dispatch_cap. */
  dispatched: Record<string, { day: string; count: number }>;
  /** Knowledge-base files, folders and indexing jobs (kb-store.ts). */
  kb: KbState;
  /** Webhook endpoints and deliveries (webhook-store.ts). */
  webhooks: WebhookState;
}

function newOrg(id: string): OrgState {
  return { id, agents: {}, campaigns: {}, calls: {}, scripts: {}, seq: 0, dispatched: {}, kb: emptyKb(), webhooks: emptyWebhooks() };
}

export type EventType = 'call.ended' | 'call.recording_ready' | 'campaign.completed' | (string & {});
export type EventListener = (orgId: string, type: EventType, data: unknown) => void;

export interface WorldOptions {
  timeScale?: number;
  seed?: number;
  keys: KeyDef[];
  plan: Plan;
  allowLocalWebhooks?: boolean;
  /** Simulated time to start from (a reloaded state continues where it stopped). */
  startAt?: number;
  /** Secret signing recording links; kept in --state so links survive a restart. */
  secret?: string;
  log?: (line: string) => void;
  /** `--degrade` rules: the sandbox misbehaves on cue (degrade.ts). */
  degrade?: DegradeRule[];
  /** `--learn`: the account's own rates (learned.ts). */
  learned?: LearnedRates;
}

export class World {
  readonly clock: SimClock;
  readonly keys = new Map<string, KeyDef>();
  readonly plan: Plan;
  readonly orgs = new Map<string, OrgState>();
  readonly options: { allowLocalWebhooks: boolean; seed?: number };
  readonly seed: number;
  readonly secret: string;
  /** Base URL of the running server, set by startSandbox. */
  baseUrl = '';
  private readonly rng: Rng;
  private readonly indexes = new Map<string, CallIndex>();
  private readonly listeners: EventListener[] = [];
  private readonly resumers: Array<() => void> = [];
  private readonly closers: Array<() => Promise<void> | void> = [];
  private readonly dirtyListeners: Array<() => void> = [];
  readonly log: (line: string) => void;
  readonly degrade: readonly DegradeRule[];
  readonly learned?: LearnedRates;

  constructor(opts: WorldOptions) {
    this.degrade = opts.degrade ?? [];
    this.learned = opts.learned;
    this.log = opts.log ?? (() => {});
    this.clock = new SimClock(opts.timeScale ?? 1, opts.startAt ?? Date.now(), (err) => {
      this.log(`sandbox: a simulated event failed: ${(err as Error)?.stack ?? String(err)}`);
    });
    this.seed = opts.seed ?? randomSeed();
    this.options = { allowLocalWebhooks: opts.allowLocalWebhooks ?? false, seed: opts.seed };
    this.rng = new Rng(`world:${this.seed}`);
    this.plan = opts.plan;
    this.secret = opts.secret ?? randomUUID().replace(/-/g, '');
    for (const k of opts.keys) {
      this.keys.set(k.key, k);
      this.org(k.org);
    }
  }

  /** Seeded when --seed is given, so ids and outcomes repeat run to run. */
  random(): number {
    return this.rng.next();
  }

  /** Saved with --state: a reloaded seeded world must not hand out the ids it already gave. */
  get rngState(): [number, number, number, number] {
    return this.rng.state;
  }

  set rngState(s: [number, number, number, number]) {
    this.rng.state = s;
  }

  uuid(): string {
    return this.options.seed === undefined ? randomUUID() : this.rng.uuid();
  }

  /** The organization, created empty on first use. */
  org(id: string): OrgState {
    let org = this.orgs.get(id);
    if (!org) {
      org = newOrg(id);
      this.orgs.set(id, org);
    }
    return org;
  }

  /** Replaces the organizations with reloaded ones; indexes are rebuilt. */
  loadOrgs(orgs: OrgState[]): void {
    for (const o of orgs) this.orgs.set(o.id, { ...newOrg(o.id), ...o });
    this.indexes.clear();
  }

  /** The derived call indexes of an organization (built lazily, kept in step by the simulation). */
  calls(org: OrgState): CallIndex {
    let idx = this.indexes.get(org.id);
    if (!idx) {
      idx = new CallIndex(org);
      this.indexes.set(org.id, idx);
    }
    return idx;
  }

  /** After bulk changes: the index is rebuilt from the plain data on next use. */
  dropCallIndex(org: OrgState): void {
    this.indexes.delete(org.id);
  }

  emit(orgId: string, type: EventType, data: unknown): void {
    for (const l of this.listeners) {
      try {
        l(orgId, type, data);
      } catch (err) {
        this.log(`event listener failed on ${type}: ${(err as Error).message}`);
      }
    }
  }

  onEvent(fn: EventListener): void {
    this.listeners.push(fn);
  }

  /** Runs after --state is loaded (or at start without it): re-arm timers from stored due times. */
  onResume(fn: () => void): void {
    this.resumers.push(fn);
  }

  resume(): void {
    for (const fn of this.resumers) fn();
  }

  onClose(fn: () => Promise<void> | void): void {
    this.closers.push(fn);
  }

  /** Something persistent changed; --state schedules a write. */
  changed(): void {
    for (const fn of this.dirtyListeners) fn();
  }

  onChange(fn: () => void): void {
    this.dirtyListeners.push(fn);
  }

  async close(): Promise<void> {
    this.clock.close();
    for (const fn of this.closers.splice(0).reverse()) await fn();
  }
}
