/**
 * Helpers for the sandbox contract tests: a sandbox pinned to a morning, and checks of
 * its recordings. The client and the given* factories are test/helpers/given.ts.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { clientFor, type Client } from '../helpers/given.js';
import { ALL_SCOPES, type KeyDef } from '../../src/sandbox/world.js';

export { AGENT, allCalls, campaignDone, clientFor, contacts, givenAgent, givenCampaign, givenFinishedCampaign, waitFor, type Client, type Res } from '../helpers/given.js';

export const FULL = (key: string, org: string, extra: Partial<KeyDef> = {}): KeyDef => ({ key, org, scopes: [...ALL_SCOPES], ...extra });

/** Pinned far from midnight, so the daily dispatch cap never resets mid-test by accident. */
export const MORNING = '2025-03-10T09:00:00.000Z';

export async function sandbox(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; api: Client }> {
  const sb = await startSandbox({ port: 0, timeScale: 20_000, seed: 11, startAt: MORNING, ...opts });
  return { sb, api: clientFor(sb) };
}

/** A sandbox for the tests of the enclosing describe block (or file): `use` gets it before the first, and it is closed after the last. */
export function sandboxForBlock(opts: SandboxOptions, use: (sb: Sandbox) => void): void {
  let sb: Sandbox | undefined;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, ...opts });
    use(sb);
  });
  afterAll(async () => {
    await sb?.close();
  });
}

/** Reads a RIFF/WAVE header independently of the sandbox's writer. */
function parseWav(buf: Buffer) {
  return {
    riff: buf.toString('ascii', 0, 4),
    riffSize: buf.readUInt32LE(4),
    wave: buf.toString('ascii', 8, 12),
    fmt: buf.toString('ascii', 12, 16),
    format: buf.readUInt16LE(20),
    channels: buf.readUInt16LE(22),
    rate: buf.readUInt32LE(24),
    byteRate: buf.readUInt32LE(28),
    bits: buf.readUInt16LE(34),
    data: buf.toString('ascii', 36, 40),
    dataSize: buf.readUInt32LE(40),
  };
}

export function expectValidWav(buf: Buffer, minSeconds: number) {
  const h = parseWav(buf);
  expect(h).toMatchObject({ riff: 'RIFF', wave: 'WAVE', fmt: 'fmt ', format: 1, data: 'data' });
  expect(h.riffSize).toBe(buf.length - 8);
  expect(h.dataSize).toBe(buf.length - 44);
  expect(h.byteRate).toBe(h.rate * h.channels * (h.bits / 8));
  expect(h.dataSize / h.byteRate).toBeGreaterThanOrEqual(minSeconds);
  // Not silence: some sample is loud.
  let peak = 0;
  for (let i = 44; i < buf.length; i += 2) peak = Math.max(peak, Math.abs(buf.readInt16LE(i)));
  expect(peak).toBeGreaterThan(1000);
}
