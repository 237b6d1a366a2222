/**
 * End-to-end helpers: run the built bin/voicectl.js with execa against a sandbox on a
 * free loopback port, with a throwaway config directory and no terminal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options } from 'execa';
import { afterAll, beforeAll, expect } from 'vitest';
import { clientFor, type Client } from './given.js';
import type { RunResult } from './run.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const BIN = fileURLToPath(new URL('../../bin/voicectl.js', import.meta.url));

export type { RunResult };

export interface Harness {
  sandbox: Sandbox;
  /** The sandbox's HTTP API, for the factories in given.ts. */
  api: Client;
  configDir: string;
  env: Record<string, string>;
  run(args: string[], options?: { input?: string; env?: Record<string, string | undefined>; timeout?: number }): Promise<RunResult>;
  close(): Promise<void>;
}

export function baseEnv(configDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: configDir,
    FORCE_COLOR: '0',
    CI: 'true',
    VOICECTL_CONFIG_DIR: configDir,
    // The system's zone, which times are shown in unless --tz says otherwise: the same on every machine.
    TZ: 'UTC',
  };
}

/** Runs the CLI once with exactly the given environment (nothing inherited). */
export async function runCli(args: string[], env: Record<string, string | undefined>, options: Options = {}): Promise<RunResult> {
  const r = await execa(process.execPath, [BIN, ...args], { reject: false, extendEnv: false, env, timeout: 60_000, ...options });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

export async function harness(opts: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 7, ...opts });
  const configDir = mkdtempSync(join(tmpdir(), 'voicectl-test-'));
  const env = { ...baseEnv(configDir), VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey };
  return {
    sandbox,
    api: clientFor(sandbox),
    configDir,
    env,
    run: (args, o = {}) => runCli(args, { ...env, ...o.env }, { input: o.input, timeout: o.timeout }),
    async close() {
      await sandbox.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** `voicectl sandbox` as a process, stopped with SIGINT (Ctrl-C) once it says it is serving. */
export async function interruptedSandbox(env: Record<string, string | undefined>): Promise<RunResult> {
  const child = execa(process.execPath, [BIN, 'sandbox', '--port', '0'], { reject: false, env, extendEnv: false });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
  child.stdout?.on('data', (d: Buffer) => { out += d.toString(); });
  for (let i = 0; i < 100 && !out.includes('VOICECTL_BASE_URL'); i++) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGINT');
  const r = await child;
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/**
 * A sandbox for the exit-code tests: a plan of one agent (so a second is refused, exit 5),
 * a key with every scope (`sk_full`) and one that may only read agents (`sk_readonly`).
 */
export function limitedHarness(): Promise<Harness> {
  return harness({
    plan: { agent_limit: 1 },
    keys: [
      { key: 'sk_full', org: 'org_a', scopes: ['agents:read', 'agents:write', 'calls:read', 'calls:write', 'calls:dispatch', 'webhooks:manage'] },
      { key: 'sk_readonly', org: 'org_a', scopes: ['agents:read'] },
    ],
  });
}

/**
 * Runs `args`, which voicectl must refuse with exit `exitCode` (saying `says` on stderr,
 * when given) before it sends the sandbox any request: the result, for further checks.
 */
export async function refusedBeforeRequest(h: Pick<Harness, 'run' | 'sandbox'>, args: string[], exitCode: number, says?: string): Promise<RunResult> {
  const before = h.sandbox.requests.length;
  const r = await h.run(args);
  expect(r.exitCode).toBe(exitCode);
  if (says !== undefined) expect(r.stderr).toContain(says);
  expect(h.sandbox.requests.length).toBe(before);
  return r;
}

/**
 * One harness for the tests of a file (or of the describe it is called in): started
 * before them, closed after them. `h.dir` is a throwaway folder of theirs.
 */
export function sharedHarness(make: SandboxOptions | (() => Promise<Harness>) = {}): Harness & { dir: string } {
  const h = {} as Harness & { dir: string };
  beforeAll(async () => {
    Object.assign(h, await (typeof make === 'function' ? make() : harness(make)));
    h.dir = mkdtempSync(join(tmpdir(), 'voicectl-files-'));
  });
  afterAll(async () => {
    await h.close();
    rmSync(h.dir, { recursive: true, force: true });
  });
  return h;
}
