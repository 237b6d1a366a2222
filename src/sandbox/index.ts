/**
 * startSandbox: the emulator of the whole service on node:http, for `voicectl sandbox`,
 * `voicectl demo` and tests (port 0, a large time scale).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { routes, setups } from './routes/index.js';
import { createSandboxServer, type LoggedRequest } from './server.js';
import { installSimulation } from './simulation.js';
import { loadState, Persister, snapshot } from './state.js';
import { variantRoutes, type SandboxVariant } from './variant.js';
import { ALL_SCOPES, DEFAULT_PLAN, World, type KeyDef, type Plan } from './world.js';

export type { SandboxVariant } from './variant.js';

export type { KeyDef, Plan } from './world.js';
export { World } from './world.js';
export { parseDegrade, describeDegrade, type DegradeRule } from './degrade.js';
import type { DegradeRule } from './world.js';
import type { LearnedRates } from './learned.js';
export { learn, LearnError, type LearnedRates } from './learned.js';

export interface SandboxOptions {
  /** Default 4010; tests pass 0 for a free port. */
  port?: number;
  host?: string;
  timeScale?: number;
  seed?: number;
  keys?: KeyDef[];
  plan?: Partial<Plan>;
  stateFile?: string;
  allowLocalWebhooks?: boolean;
  latencyMs?: number;
  /** Compress JSON answers for clients that accept gzip or br (default true; the export benchmark turns it off). */
  compress?: boolean;
  /** Simulated time at start (ms or ISO string; default now): tests pin it to stay clear of midnight. */
  startAt?: number | string;
  /** Where the sandbox reports internal trouble (failed state writes, listener errors). */
  log?: (line: string) => void;
  /** Answer the way another implementation of the spec might (see variant.ts). */
  variant?: SandboxVariant;
  /** `--degrade`: the sandbox drops answers or raises failures on cue (degrade.ts). */
  degrade?: DegradeRule[];
  /** `--learn`: answer with the account's own rates (learned.ts). */
  learned?: LearnedRates;
}

export interface Sandbox {
  url: string;
  port: number;
  /** A full-scope key (the generated default, or the first full-scope key of `keys`). */
  apiKey: string;
  world: World;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

function startTime(at: number | string | undefined): number | undefined {
  if (at === undefined) return undefined;
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new RangeError(`startAt is not a time: ${String(at)}`);
  return ms;
}

/**
 * The full-scope key made when none is given: random, or with --seed the same on every
 * start, so a script or a saved profile keeps working across restarts.
 */
export function sandboxKey(seed: number | undefined): string {
  const hex = seed === undefined ? randomBytes(16).toString('hex') : createHash('sha256').update(`voicectl sandbox key ${seed}`).digest('hex').slice(0, 32);
  return `sk_sandbox_${hex}`;
}

/** Raised when the port is taken, with a message a user can act on. */
export class PortInUseError extends Error {}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const saved = opts.stateFile ? await loadState(opts.stateFile) : undefined;
  const keys = opts.keys ? opts.keys.map((k) => ({ ...k, scopes: [...k.scopes] })) : [];
  let defaultKey = keys.find((k) => ALL_SCOPES.every((s) => k.scopes.includes(s)));
  let generated: KeyDef | undefined;
  if (!defaultKey) {
    generated = saved?.default_key && !keys.some((k) => k.key === saved.default_key!.key)
      ? saved.default_key
      : { key: sandboxKey(opts.seed), org: keys[0]?.org ?? 'org_sandbox', scopes: [...ALL_SCOPES] };
    keys.push(generated);
    defaultKey = generated;
  }
  const plan: Plan = { ...DEFAULT_PLAN, ...opts.plan };
  const world = new World({
    timeScale: opts.timeScale,
    seed: opts.seed ?? saved?.seed,
    keys,
    plan,
    allowLocalWebhooks: opts.allowLocalWebhooks,
    // Simulated time never runs backwards: a reloaded state continues from where it stopped (or later).
    startAt: saved ? Math.max(saved.saved_at, startTime(opts.startAt) ?? Date.now()) : startTime(opts.startAt),
    secret: saved?.secret,
    log: opts.log,
    degrade: opts.degrade,
    learned: opts.learned,
  });
  if (saved) {
    world.loadOrgs(saved.orgs);
    // The same seed continues its sequence; a different --seed starts its own.
    if (saved.rng && saved.seed === world.seed) world.rngState = saved.rng;
  }

  let persister: Persister | undefined;
  if (opts.stateFile) {
    persister = new Persister(opts.stateFile, () => snapshot(world, generated), (err) => world.log(`sandbox: could not write state: ${err.message}`));
    const p = persister;
    world.onChange(() => p.markDirty());
  }

  installSimulation(world);
  for (const setup of setups) setup(world);

  const requests: LoggedRequest[] = [];
  const server = createSandboxServer(world, variantRoutes(routes, opts.variant), { latencyMs: opts.latencyMs, publicOrg: defaultKey.org, compress: opts.compress }, requests);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new PortInUseError(`port ${opts.port ?? 4010} on ${host} is already in use; pick another with --port`));
      else if (err.code === 'EACCES') reject(new PortInUseError(`not allowed to listen on port ${opts.port ?? 4010} on ${host}; pick a port above 1024 with --port`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(opts.port ?? 4010, host, () => {
      server.off('error', onError);
      resolve();
    });
  }).catch(async (err) => {
    await world.close();
    throw err;
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}`;
  world.baseUrl = url;
  world.resume();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await world.close();
      await persister?.close();
    })();
    return closing;
  };
  return { url, port, apiKey: defaultKey.key, world, requests, close };
}

export { seedCalls, type SeedOptions } from './seed.js';
