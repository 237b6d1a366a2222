/**
 * The clock a run decides and shows times on, and the one it guards the machine with.
 *
 * Given a clock at construction (tests, the demo), it keeps it. Otherwise it starts on this
 * machine's clock and moves onto a loopback sandbox's simulated clock (sandbox-clock.ts):
 * from VOICECTL_SANDBOX_CLOCK while the base URL is on this machine, and from the
 * Voicectl-Sandbox-Clock header of the first answer that carries one (the API client calls
 * follow()). Waits then last real time divided by the sandbox's scale. realNow() and
 * realSleep() stay on the machine's clock whatever the run decides on.
 */
import { isLoopbackHost, parseSandboxClockEnv, type SandboxClock } from './sandbox-clock.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ClockInit {
  now?: () => Date;
  sleep?: Sleep;
  /** VOICECTL_SANDBOX_CLOCK as set in the environment. */
  sandboxClockEnv: () => string | undefined;
  /** The base URL as far as it is known (--base-url, else VOICECTL_BASE_URL): the environment's clock is honoured only on loopback. */
  baseUrl: () => string | undefined;
}

interface Following {
  sim: number;
  real: number;
  scale: number;
}

export class Clock {
  /** Now on the clock the run decides on (the sandbox's once it follows one). */
  readonly now: () => Date;
  /** A wait on the clock the run decides on: real time divided by the sandbox's scale. */
  readonly sleep: Sleep;
  /** The clock and sleep as given (or the machine's): request deadlines and retries stay on them. */
  private readonly baseNow: () => Date;
  private readonly baseSleep: Sleep;
  private readonly given: boolean;
  /** A loopback sandbox's simulated clock, once one has answered. */
  private following?: Following;

  constructor(private readonly init: ClockInit) {
    this.baseNow = init.now ?? (() => new Date());
    this.baseSleep = init.sleep ?? defaultSleep;
    this.given = init.now !== undefined;
    this.now = () => {
      const s = this.following ?? this.envClock();
      return s ? new Date(Math.floor(s.sim + (Date.now() - s.real) * s.scale)) : this.baseNow();
    };
    this.sleep = (ms, signal) => {
      const scale = this.scale;
      return this.baseSleep(scale !== 1 ? Math.max(1, ms / scale) : ms, signal);
    };
  }

  /**
   * Moves this run onto a loopback sandbox's simulated clock (the API client calls it
   * with every answer that carries one): every time decided or shown from here on is the
   * sandbox's, and waits last real time divided by its scale. A clock given at
   * construction (tests, the demo) is kept.
   */
  follow(clock: SandboxClock): void {
    if (this.given) return;
    this.following = { sim: clock.now, real: Date.now(), scale: clock.scale };
  }

  /** VOICECTL_SANDBOX_CLOCK, while the base URL is on this machine and no sandbox has answered yet. */
  private envClock(): Following | undefined {
    if (this.given) return undefined;
    const c = parseSandboxClockEnv(this.init.sandboxClockEnv());
    if (!c) return undefined;
    const base = this.init.baseUrl();
    try {
      if (!base || !isLoopbackHost(new URL(base).hostname)) return undefined;
    } catch {
      return undefined;
    }
    return { sim: c.now, real: c.real, scale: c.scale };
  }

  /**
   * This machine's clock, never the sandbox's: for what another machine compares with its
   * own real clock (webhook signatures' timestamps, the clock-skew check).
   */
  realNow(): Date {
    return this.baseNow();
  }

  /** A wait on this machine's clock, whatever clock the run decides on. */
  realSleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.baseSleep(ms, signal);
  }

  /** The sandbox's scale when this run is on its clock (1 otherwise). */
  get scale(): number {
    return (this.following ?? this.envClock())?.scale ?? 1;
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
