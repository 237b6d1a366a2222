/**
 * Upload progress on stderr: one redrawn status line with the files done and the bytes
 * sent, and a line per finished file above it. Only on a terminal and never with machine
 * output; elsewhere every method does nothing.
 */
import type { Context } from '../context.js';
import { formatBytes } from './formats.js';

const REDRAW_MS = 100;

export class UploadProgress {
  private readonly live: boolean;
  private readonly sent = new Map<number, number>();
  private done = 0;
  private timer?: NodeJS.Timeout;
  private drawn = false;

  constructor(private readonly ctx: Context, private readonly totalFiles: number, private readonly totalBytes: number) {
    this.live = ctx.interactiveStderr;
  }

  start(): void {
    if (!this.live) return;
    this.draw();
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
    this.timer.unref();
  }

  bytes(index: number, sent: number): void {
    this.sent.set(index, sent);
  }

  /** A finished file: its line stays on screen above the status line. */
  finished(index: number, size: number, line: string): void {
    this.sent.set(index, size);
    this.done++;
    if (!this.live) return;
    this.clear();
    this.ctx.io.stderr.write(`${line}\n`);
    this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.live) this.clear();
  }

  private clear(): void {
    if (this.drawn) this.ctx.io.stderr.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(): void {
    let bytes = 0;
    for (const n of this.sent.values()) bytes += n;
    const pct = this.totalBytes > 0 ? Math.min(100, Math.floor((bytes / this.totalBytes) * 100)) : 100;
    const c = this.ctx.errColor;
    const width = Math.max(20, (this.ctx.io.stderr.columns ?? 80) - 1);
    const barWidth = 20;
    const filled = Math.round((pct / 100) * barWidth);
    const bar = `${c.cyan('█'.repeat(filled))}${c.dim('░'.repeat(barWidth - filled))}`;
    const text = `Uploading ${this.done}/${this.totalFiles} files  ${formatBytes(bytes)} of ${formatBytes(this.totalBytes)} (${pct}%)`;
    // The bar's escape codes do not take columns; the text is cut to fit the rest.
    const line = `${bar} ${text.slice(0, Math.max(0, width - barWidth - 1))}`;
    this.ctx.io.stderr.write(`\r\x1b[2K${line}`);
    this.drawn = true;
  }
}
