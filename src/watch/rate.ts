/**
 * Calls per minute and time left, from how the campaign's finished-contact count moved
 * over the last couple of minutes of watching (the watcher's clock, not the server's:
 * "time left" is what the person at the terminal will wait).
 */

const WINDOW_MS = 120_000;
/** Below this much observed time a rate is noise. */
const MIN_SPAN_MS = 1_000;

export class RateMeter {
  private samples: Array<{ t: number; n: number }> = [];

  add(t: number, finished: number): void {
    const last = this.samples[this.samples.length - 1];
    // A count that went down (the server recounted) starts the measurement again.
    if (last && finished < last.n) this.samples = [];
    this.samples.push({ t, n: finished });
    while (this.samples.length > 2 && t - this.samples[1]!.t >= WINDOW_MS) this.samples.shift();
  }

  /** Finished contacts per minute, or undefined until enough time has been observed. */
  perMinute(): number | undefined {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.t - first.t < MIN_SPAN_MS) return undefined;
    return ((last.n - first.n) / (last.t - first.t)) * 60_000;
  }

  /** Seconds until `remaining` more contacts finish at the current rate. */
  etaSeconds(remaining: number): number | undefined {
    if (remaining <= 0) return 0;
    const rate = this.perMinute();
    if (rate === undefined || rate <= 0) return undefined;
    return Math.round((remaining / rate) * 60);
  }
}
