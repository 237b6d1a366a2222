/**
 * A `campaign run` under the sandbox's clock: the context's now() is the sandbox's
 * simulated time and its sleeps are shortened by the time scale, so days of calling
 * windows pass in seconds. Contacts of three zones, and what the sandbox recorded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { localMinute } from '../../../src/hours/calling-hours.js';
import { zonesForNumber } from '../../../src/hours/phone-zones.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { run, start, type RunOptions } from '../../helpers/run.js';
import { clientFor, givenAgent } from '../../helpers/given.js';
import { tempDir } from '../../helpers/temp.js';

export const SCALE = 20_000;

export function simClock(sandbox: Sandbox): Pick<RunOptions, 'now' | 'sleep'> {
  const scale = sandbox.world.clock.scale;
  return {
    now: () => new Date(sandbox.world.clock.now()),
    sleep: (ms, signal) => new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(1, ms / scale));
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  };
}

/** n numbers in each of India (Asia/Kolkata), New York and the United Kingdom. */
export function threeZoneContacts(n: number): Array<{ phone_number: string; name: string }> {
  const out: Array<{ phone_number: string; name: string }> = [];
  for (let i = 0; i < n; i++) {
    out.push({ phone_number: `+9198765${String(10_000 + i).slice(-5)}`, name: `India ${i}` });
    out.push({ phone_number: `+1212555${String(1000 + (i % 9000)).padStart(4, '0')}`, name: `New York ${i}` });
    out.push({ phone_number: `+4479111${String(10_000 + i).slice(-5)}`, name: `London ${i}` });
  }
  return out;
}

export interface SimWorld {
  sandbox: Sandbox;
  agentId: string;
  env: Record<string, string>;
  run(args: string[], extra?: RunOptions): ReturnType<typeof run>;
  start(args: string[], extra?: RunOptions): ReturnType<typeof start>;
  close(): Promise<void>;
}

export async function simWorld(dir: string, options: SandboxOptions = {}): Promise<SimWorld> {
  const sandbox = await startSandbox({ port: 0, timeScale: SCALE, seed: 11, startAt: '2026-01-15T02:00:00Z', ...options });
  const agent = await givenAgent(clientFor(sandbox), { name: 'Runner' });
  const env = { VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey, VOICECTL_CONFIG_DIR: join(dir, 'config') };
  return {
    sandbox,
    agentId: agent.id,
    env,
    run: (args, extra = {}) => run(args, { env, ...simClock(sandbox), ...extra }),
    start: (args, extra = {}) => start(args, { env, ...simClock(sandbox), ...extra }),
    close: () => sandbox.close(),
  };
}

/**
 * One SimWorld for all the tests of a file, in a throwaway folder (`dir`): started before
 * the first test, closed and removed after the last.
 */
export function simWorldForFile(prefix: string, options: SandboxOptions): SimWorld & { dir: string } {
  const tmp = tempDir(prefix);
  let world: SimWorld | undefined;
  beforeAll(async () => {
    world = await simWorld(tmp.dir, options);
  });
  afterAll(async () => {
    await world?.close();
    tmp.remove();
  });
  const started = (): SimWorld => {
    if (!world) throw new Error('the sandbox of this file has not started');
    return world;
  };
  return {
    dir: tmp.dir,
    get sandbox() {
      return started().sandbox;
    },
    get agentId() {
      return started().agentId;
    },
    get env() {
      return started().env;
    },
    run: (args, extra) => started().run(args, extra),
    start: (args, extra) => started().start(args, extra),
    close: () => started().close(),
  };
}

export function writeContacts(dir: string, name: string, contacts: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(contacts));
  return path;
}

/** Every call the sandbox placed, from its records. */
export function placedCalls(sandbox: Sandbox): Array<{ phone: string; start: number; end?: number; campaign: string; outcome: string | null; status: string }> {
  const org = sandbox.world.org('org_sandbox');
  return Object.values(org.calls).map((c) => ({
    phone: c.phone_number, start: Date.parse(c.start_time), end: c.end_time ? Date.parse(c.end_time) : undefined,
    campaign: c.campaign_id ?? '', outcome: c.outcome, status: c.status,
  }));
}

/** The local minute of day of `ms` for a number (its first zone). */
export function localMinuteOf(phone: string, ms: number): number {
  return localMinute(zonesForNumber(phone)[0]!, ms);
}
