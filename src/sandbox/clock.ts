/**
 * Simulated time. The sandbox runs `scale` times faster than the wall clock, so a
 * four-minute call or a one-hour link expiry can pass in a test's few seconds.
 * Every timer is tracked, so close() leaves nothing behind to keep the process alive.
 */
export type Cancel = () => void;

/** setTimeout refuses delays above 2^31-1 ms; longer waits are chained. */
const MAX_DELAY = 2_147_000_000;

export class SimClock {
  readonly scale: number;
  private readonly realStart: number;
  private readonly simStart: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** `start` is the simulated time at this instant (default: the real time). */
  constructor(scale = 1, start = Date.now()) {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`time scale must be a positive number, got ${scale}`);
    this.scale = scale;
    this.realStart = Date.now();
    this.simStart = start;
  }

  /** Simulated milliseconds since the epoch. */
  now(): number {
    return Math.floor(this.simStart + (Date.now() - this.realStart) * this.scale);
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Runs fn after `simMs` of simulated time. */
  after(simMs: number, fn: () => void): Cancel {
    return this.at(this.now() + Math.max(0, simMs), fn);
  }

  /** Runs fn once simulated time reaches `simTime` (at once if it already has). */
  at(simTime: number, fn: () => void): Cancel {
    if (this.closed) return () => {};
    let handle: NodeJS.Timeout | undefined;
    const arm = () => {
      const wait = Math.max(0, (simTime - this.now()) / this.scale);
      handle = setTimeout(() => {
        this.timers.delete(handle!);
        if (this.closed) return;
        if (wait > MAX_DELAY && simTime > this.now()) return arm();
        fn();
      }, Math.min(wait, MAX_DELAY));
      this.timers.add(handle);
    };
    arm();
    return () => {
      if (handle) {
        clearTimeout(handle);
        this.timers.delete(handle);
      }
    };
  }

  /** Real milliseconds for a simulated duration (for callers that need a wall-clock wait). */
  toReal(simMs: number): number {
    return simMs / this.scale;
  }

  /** Clears every pending timer; later `after` calls are no-ops. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  get pending(): number {
    return this.timers.size;
  }
}
