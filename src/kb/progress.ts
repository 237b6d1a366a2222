/**
 * Upload progress on stderr: one redrawn status line with the files done and the bytes
 * sent, and a line per finished file above it. Only on a terminal and never with machine
 * output; elsewhere every method does nothing.
 */
import type { Context } from '../context.js';
import { ProgressLine } from '../io/progress.js';
import { bytes as formatBytes } from '../text/text.js';

const REDRAW_MS = 100;

export class UploadProgress {
  private readonly line: ProgressLine;
  private readonly sent = new Map<number, number>();
  private done = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly ctx: Context, private readonly totalFiles: number, private readonly totalBytes: number) {
    this.line = new ProgressLine(ctx);
  }

  start(): void {
    if (!this.line.live) return;
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
    if (!this.line.live) return;
    this.line.print(line);
    this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.line.clear();
  }

  private draw(): void {
    let bytes = 0;
    for (const n of this.sent.values()) bytes += n;
    const pct = this.totalBytes > 0 ? Math.min(100, Math.floor((bytes / this.totalBytes) * 100)) : 100;
    const c = this.ctx.errColor;
    const barWidth = 20;
    const filled = Math.round((pct / 100) * barWidth);
    const bar = `${c.cyan('█'.repeat(filled))}${c.dim('░'.repeat(barWidth - filled))}`;
    const text = `Uploading ${this.done}/${this.totalFiles} files  ${formatBytes(bytes)} of ${formatBytes(this.totalBytes)} (${pct}%)`;
    this.line.draw(`${bar} ${text}`);
  }
}
