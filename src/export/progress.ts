/**
 * A one-line progress bar on stderr (count of total, rate, time left), redrawn at most
 * ten times a second. It draws only on a terminal; elsewhere every call is a no-op.
 */
import type { OutStream } from '../context.js';

export interface ProgressOptions {
  /** What is counted: rows are shown as numbers, bytes as KB/MB. */
  unit: 'rows' | 'bytes';
  total?: number;
  label?: string;
  enabled: boolean;
  now?: () => number;
}

const WIDTH = 24;
const EVERY_MS = 100;

export class Progress {
  private done = 0;
  private total?: number;
  private readonly started: number;
  private lastDraw = 0;
  private drawn = false;
  private readonly now: () => number;

  constructor(private readonly stream: OutStream, private readonly opts: ProgressOptions) {
    this.total = opts.total;
    this.now = opts.now ?? (() => performance.now());
    this.started = this.now();
  }

  get enabled(): boolean {
    return this.opts.enabled;
  }

  setTotal(total: number | undefined): void {
    this.total = total;
  }

  add(n: number): void {
    this.done += n;
    this.tick();
  }

  private tick(force = false): void {
    if (!this.opts.enabled) return;
    const t = this.now();
    if (!force && t - this.lastDraw < EVERY_MS) return;
    this.lastDraw = t;
    this.drawn = true;
    this.stream.write(`\r${this.line(t)}\x1b[K`);
  }

  /** The bar's text, without escape codes (tests read it). */
  line(t = this.now()): string {
    const secs = Math.max(0.001, (t - this.started) / 1000);
    const rate = this.done / secs;
    const total = this.total !== undefined && this.total >= this.done ? this.total : undefined;
    const parts: string[] = [];
    if (this.opts.label) parts.push(this.opts.label);
    if (total !== undefined && total > 0) {
      const filled = Math.round((this.done / total) * WIDTH);
      parts.push(`[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}]`);
      parts.push(`${this.amount(this.done)}/${this.amount(total)}${this.opts.unit === 'rows' ? ' rows' : ''}`);
    } else {
      parts.push(`${this.amount(this.done)}${this.opts.unit === 'rows' ? ' rows' : ''}`);
    }
    parts.push(`${this.amount(Math.round(rate))}/s`);
    if (total !== undefined && rate > 0 && this.done > 0) parts.push(`${clock((total - this.done) / rate)} left`);
    return parts.join('  ');
  }

  private amount(n: number): string {
    return this.opts.unit === 'bytes' ? bytes(n) : n.toLocaleString('en-US');
  }

  /** Removes the bar so later lines start clean. */
  clear(): void {
    if (this.opts.enabled && this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
