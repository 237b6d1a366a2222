/**
 * Simulated time. The sandbox runs `scale` times faster than the wall clock, so a
 * four-minute call or a one-hour link expiry can pass in a test's few seconds.
 * Timers live in one queue ordered by (due time, creation), behind a single real
 * timer: events due at the same simulated instant run in the order they were set,
 * whatever the rounding of real delays, and close() leaves nothing behind.
 */
export type Cancel = () => void;

/** setTimeout refuses delays above 2^31-1 ms; longer waits re-arm. */
const MAX_DELAY = 2_147_000_000;

interface Entry {
  at: number;
  seq: number;
  fn: (() => void) | undefined;
}

export class SimClock {
  private scaleValue: number;
  private realStart: number;
  private simStart: number;
  private readonly heap: Entry[] = [];
  private seq = 0;
  private live = 0;
  private timer?: NodeJS.Timeout;
  private armedFor = Infinity;
  private closed = false;
  /** Simulated time while paused. */
  private pausedAt?: number;

  /**
   * `start` is the simulated time at this instant (default: the real time). A timer
   * that throws is reported to `onError` and the others still run.
   */
  constructor(scale = 1, start = Date.now(), private readonly onError: (err: unknown) => void = (err) => { throw err; }) {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`time scale must be a positive number, got ${scale}`);
    this.scaleValue = scale;
    this.realStart = Date.now();
    this.simStart = start;
  }

  get scale(): number {
    return this.scaleValue;
  }

  /**
   * Runs simulated time at another speed from this instant on, without a jump: a
   * rehearsal plans its run with the clock stopped, then picks the speed that fits the
   * plan's span.
   */
  rescale(scale: number): void {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`time scale must be a positive number, got ${scale}`);
    if (this.pausedAt === undefined) {
      this.simStart = this.now();
      this.realStart = Date.now();
    }
    this.scaleValue = scale;
    if (!this.closed && this.pausedAt === undefined) this.arm();
  }

  /**
   * Stops simulated time (timers wait) until resume(). A rehearsal runs the sandbox in
   * voicectl's own process and lets time pass only while voicectl waits, so the real
   * time its requests and journal writes take (longer on a loaded machine) never shows
   * up as simulated hours.
   */
  pause(): void {
    if (this.pausedAt !== undefined) return;
    this.pausedAt = this.now();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  resume(): void {
    if (this.pausedAt === undefined) return;
    this.simStart = this.pausedAt;
    this.realStart = Date.now();
    this.pausedAt = undefined;
    if (!this.closed) this.arm();
  }

  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  /** Simulated milliseconds since the epoch. */
  now(): number {
    return this.pausedAt ?? Math.floor(this.simStart + (Date.now() - this.realStart) * this.scaleValue);
  }

  /**
   * Where this clock started, in simulated and real time, and its scale: another process
   * (a voicectl run under test) computes exactly the same now() from them.
   */
  anchors(): { simStart: number; realStart: number; scale: number } {
    return { simStart: this.simStart, realStart: this.realStart, scale: this.scale };
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Runs fn after `simMs` of simulated time. */
  after(simMs: number, fn: () => void): Cancel {
    return this.at(this.now() + Math.max(0, simMs), fn);
  }

  /** Runs fn once simulated time reaches `simTime` (soon, if it already has). */
  at(simTime: number, fn: () => void): Cancel {
    if (this.closed) return () => {};
    const entry: Entry = { at: simTime, seq: this.seq++, fn };
    push(this.heap, entry);
    this.live++;
    if (simTime < this.armedFor) this.arm();
    return () => {
      if (entry.fn) {
        entry.fn = undefined;
        this.live--;
      }
    };
  }

  /** Real milliseconds for a simulated duration (for callers that need a wall-clock wait). */
  toReal(simMs: number): number {
    return simMs / this.scaleValue;
  }

  /** Clears every pending timer; later `at` calls are no-ops. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.heap.length = 0;
    this.live = 0;
  }

  /** Timers not yet run or cancelled. */
  get pending(): number {
    return this.live;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
    while (this.heap.length && !this.heap[0]!.fn) pop(this.heap);
    const next = this.heap[0];
    if (!next || this.closed || this.pausedAt !== undefined) return;
    const wait = Math.max(0, (next.at - this.now()) / this.scaleValue);
    this.armedFor = next.at;
    this.timer = setTimeout(() => this.fire(), Math.min(wait, MAX_DELAY));
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = this.now();
    while (!this.closed && this.heap.length && this.heap[0]!.at <= now) {
      const entry = pop(this.heap)!;
      const fn = entry.fn;
      if (!fn) continue;
      entry.fn = undefined;
      this.live--;
      try {
        fn();
      } catch (err) {
        this.onError(err);
      }
    }
    if (!this.closed) this.arm();
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

function push(heap: Entry[], e: Entry): void {
  heap.push(e);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function pop(heap: Entry[]): Entry | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length && last) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
}
