/**
 * The sandbox's clock on the wire. Every answer of `voicectl sandbox` carries
 *
 *   Voicectl-Sandbox-Clock: now=2026-12-01T02:30:00.000Z; scale=3600
 *
 * and voicectl, when its base URL is on this machine (loopback) and only then, moves its
 * own clock onto it: every time it decides (calling hours, waves, caps, deadlines) and
 * every time it shows is the sandbox's simulated time, and its waits last real time
 * divided by the scale. The service never sends this header, and an answer from any
 * other host is never read for it, so no real service can move voicectl's clock. What
 * guards the machine stays on real time: request deadlines, retries, lock staleness,
 * judges' timeouts and signals. docs/sandbox.md says the same for users.
 */
export const SANDBOX_CLOCK_HEADER = 'voicectl-sandbox-clock';

export interface SandboxClock {
  /** Simulated time when the answer was made (ms). */
  now: number;
  scale: number;
}

export function sandboxClockValue(now: number, scale: number): string {
  return `now=${new Date(now).toISOString()}; scale=${scale}`;
}

export function parseSandboxClock(value: string | string[] | undefined): SandboxClock | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v || v.length > 200) return undefined;
  const m = /^now=(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z);\s*scale=(\d+(?:\.\d+)?)$/.exec(v.trim());
  if (!m) return undefined;
  const now = Date.parse(m[1]!);
  const scale = Number(m[2]);
  if (!Number.isFinite(now) || !(scale > 0) || scale > 1e7) return undefined;
  return { now, scale };
}

/** Hosts whose answers may move the clock: this machine only. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * VOICECTL_SANDBOX_CLOCK, printed by `voicectl sandbox` in its export line: the same
 * clock with the real moment it was read (`now=…; real=<ms since 1970>; scale=N`), so a
 * time typed before any answer (`--since 2h`) is already read on the sandbox's clock.
 * Honoured, like the header, only while the base URL is on this machine.
 */
export function sandboxClockEnvValue(now: number, real: number, scale: number): string {
  return `${sandboxClockValue(now, scale)}; real=${real}`;
}

export function parseSandboxClockEnv(value: string | undefined): (SandboxClock & { real: number }) | undefined {
  if (!value) return undefined;
  const m = /^(.*);\s*real=(\d{10,16})$/.exec(value.trim());
  if (!m) return undefined;
  const clock = parseSandboxClock(m[1]);
  return clock ? { ...clock, real: Number(m[2]) } : undefined;
}
