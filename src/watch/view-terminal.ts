/**
 * The live view on a terminal: the frame is redrawn in place (cursor up over the last
 * frame, rewrite, clear what is left below) in one write per frame, with the cursor
 * hidden. The cursor comes back on every way out: completion, error, Ctrl-C, and a
 * forced exit (a second Ctrl-C calls process.exit, hence the 'exit' hook).
 */
import type { Context, OutStream } from '../context.js';
import type { ListedCall } from '../calls/model.js';
import { describeResult, type ConditionResult } from './fail-if.js';
import { buildFrame, type FrameLine } from './frame.js';
import { formatSummary, type Summary } from './summary.js';
import type { Snapshot, WatchView } from './view.js';

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const CLEAR_LINE_RIGHT = '\x1b[K';
const CLEAR_BELOW = '\x1b[J';

export class TerminalView implements WatchView {
  private readonly out: OutStream;
  private last?: Snapshot;
  private problemText?: string;
  /** Widths of the lines on screen, to know how far up the previous frame starts. */
  private drawn: FrameLine[] = [];
  private closed = false;
  private readonly restoreOnExit = () => {
    this.out.write(SHOW_CURSOR);
  };
  private readonly onResize = () => {
    // Narrower than the frame: the terminal re-wraps the old lines and may scroll some
    // out of reach of cursor-up, so start again from the top of a clear screen.
    const width = this.ctx.io.columns('stdout') ?? 80;
    if (this.drawn.some((l) => l.width > width - 1)) {
      this.out.write('\x1b[H\x1b[2J');
      this.drawn = [];
    }
    this.draw();
  };

  constructor(private readonly ctx: Context, private readonly campaignId: string) {
    this.out = ctx.io.stdout;
    this.out.write(HIDE_CURSOR);
    process.once('exit', this.restoreOnExit);
    this.out.on('resize', this.onResize);
    this.draw();
  }

  update(snapshot: Snapshot, _finished: ListedCall[]): void {
    this.last = snapshot;
    this.draw();
  }

  problem(message: string | undefined): void {
    if (message === this.problemText) return;
    this.problemText = message;
    this.draw();
  }

  finish(summary: Summary, failIf: ConditionResult[]): void {
    this.problemText = undefined;
    this.draw();
    // Below the last frame, outside the redrawn area: it stays on screen after exit.
    const lines = ['', ...formatSummary(summary, this.ctx.color)];
    const c = this.ctx.color;
    for (const r of failIf) {
      const text = `--fail-if ${describeResult(r, summary.total_contacts)}`;
      lines.push(r.crossed ? c.red(`✗ ${text}`) : c.green(`✓ ${text}`));
    }
    this.out.write(`${lines.join('\n')}\n`);
    this.drawn = [];
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.out.removeListener('resize', this.onResize);
    process.removeListener('exit', this.restoreOnExit);
    this.out.write(SHOW_CURSOR);
  }

  private draw(): void {
    if (this.closed) return;
    const width = Math.max(20, this.ctx.io.columns('stdout') ?? 80);
    const height = Math.max(5, this.ctx.io.rows('stdout') ?? 24);
    const frame = buildFrame(this.last, { width, height, color: this.ctx.color, problem: this.problemText, campaignId: this.campaignId, zone: this.ctx.timeZone });
    // After a resize the old lines may have wrapped: count the rows they take now.
    const up = this.drawn.reduce((n, l) => n + Math.max(1, Math.ceil(l.width / width)), 0);
    let buf = up > 0 ? `\r\x1b[${up}A` : '';
    for (const line of frame) buf += `${line.text}${CLEAR_LINE_RIGHT}\n`;
    buf += CLEAR_BELOW;
    this.out.write(buf);
    this.drawn = frame;
  }
}
