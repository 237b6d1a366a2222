/**
 * The one progress indicator: a line on stderr redrawn in place, as a spinner, a
 * counter, a bar or a countdown. Every progress display of voicectl is one of these, so
 * they look alike and follow one rule for when they draw:
 *
 * - stderr is a terminal whose line may be redrawn (ctx.io.redraws: not TERM=dumb,
 *   not --accessible), and
 * - nothing a script reads shares that terminal: no machine output (--json, -o), or,
 *   for a command whose data goes to a file or stdout while it draws (export, a
 *   recording's download), `data: 'file'` or `data: 'stdout'` (then stdout must not be
 *   that terminal).
 *
 * Elsewhere (a pipe, a log, CI, --json) every method does nothing, so the output of
 * scripts never changes. In accessible mode, a spinner's text is said once as a plain
 * line instead, after the same delay.
 */
import type { IoContext } from './streams.js';
import { bytes, clock, grouped } from '../text/text.js';

export interface DrawRule {
  /** Where the command's data goes while the indicator draws (default: stdout, after it). */
  data?: 'after' | 'stdout' | 'file';
}

/** Whether an indicator draws on this run's stderr: the one rule, described above. */
export function drawsProgress(ctx: IoContext, rule: DrawRule = {}): boolean {
  if (!ctx.io.redraws(ctx.io.stderr)) return false;
  switch (rule.data ?? 'after') {
    case 'after': return !ctx.io.machineOutput;
    case 'stdout': return !ctx.io.stdout.isTTY;
    case 'file': return true;
  }
}

/** Accessible mode at a terminal, and a person reads the output: a wait is said once, as a line. */
function saysWaits(ctx: IoContext): boolean {
  return ctx.io.accessible && Boolean(ctx.io.stderr.isTTY) && !ctx.io.machineOutput;
}

const CLEAR_LINE = '\r\x1b[K';

/**
 * One line on stderr, redrawn in place; lines written with `print` stay above it. The
 * base of every indicator below; on its own for live status lines.
 */
export class ProgressLine {
  readonly live: boolean;
  private drawn = false;
  private last = '';

  constructor(private readonly ctx: IoContext, rule: DrawRule = {}) {
    this.live = drawsProgress(ctx, rule);
  }

  /** Redraws the line, cut to the terminal's width. */
  draw(text: string): void {
    if (!this.live) return;
    const width = Math.max(20, (this.ctx.io.stderr.columns ?? 80) - 1);
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    const line = plain.length > width ? `${plain.slice(0, width - 1)}…` : text;
    this.last = line;
    this.ctx.io.stderr.write(`${CLEAR_LINE}${line}`);
    this.drawn = true;
  }

  /** A line that stays, printed above the indicator, which is drawn again under it. */
  print(line: string): void {
    const redraw = this.drawn;
    this.clear();
    this.ctx.info(line);
    if (redraw) this.draw(this.last);
  }

  /** Removes the line, so later output starts clean. */
  clear(): void {
    if (this.drawn) this.ctx.io.stderr.write(CLEAR_LINE);
    this.drawn = false;
  }

  /** Leaves the last line drawn on the screen and moves below it. */
  keep(): void {
    if (this.drawn) this.ctx.io.stderr.write('\n');
    this.drawn = false;
  }
}

/** A spinner and its text; `stop()` removes it. */
export interface Spinner {
  text: string;
  stop(): void;
}

/** The wait shown only once it is long enough to notice. */
const SPIN_AFTER_MS = 250;

/**
 * A spinner with `text` until `stop()`: drawn (by ora, loaded then) after a short delay,
 * so quick work shows nothing; in accessible mode the text once, as a plain line.
 */
export function startSpinner(ctx: IoContext, text: string): Spinner {
  let stopped = false;
  let ora: { text: string; stop(): void } | undefined;
  const state: Spinner = {
    get text() { return text; },
    set text(t: string) {
      text = t;
      if (ora) ora.text = t;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      ora?.stop();
    },
  };
  const timer = setTimeout(() => {
    if (drawsProgress(ctx)) {
      void import('ora').then(({ default: makeOra }) => {
        if (stopped) return;
        ora = makeOra({ text, stream: ctx.io.stderr as NodeJS.WriteStream, color: 'cyan', discardStdin: false }).start();
      });
    } else if (saysWaits(ctx)) {
      ctx.info(`${text}…`);
    }
  }, SPIN_AFTER_MS);
  if (!drawsProgress(ctx) && !saysWaits(ctx)) clearTimeout(timer);
  return state;
}

/** Runs `work` behind a spinner (see startSpinner). */
export async function withSpinner<T>(ctx: IoContext, text: string, work: () => Promise<T>): Promise<T> {
  const spinner = startSpinner(ctx, text);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}

export interface CounterOptions extends DrawRule {
  /** Nothing is drawn before this much time has passed (quick work shows nothing). */
  quietMs?: number;
  /** At most one redraw in this many milliseconds. */
  everyMs?: number;
  now?: () => number;
}

/**
 * Milliseconds on a clock that only moves forward. Not performance.now(): on Node 20 the
 * `performance` global loads perf_hooks (a dozen modules) into every command that counts.
 */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** A count redrawn as it grows: "Checked 120,000 rows…", "Transcripts 3/10". */
export class Counter {
  private readonly line: ProgressLine;
  private readonly started: number;
  private lastDraw = -Infinity;
  private readonly now: () => number;

  constructor(ctx: IoContext, private readonly text: (n: number) => string, private readonly options: CounterOptions = {}) {
    this.line = new ProgressLine(ctx, options);
    this.now = options.now ?? monotonicMs;
    this.started = this.now();
  }

  get live(): boolean {
    return this.line.live;
  }

  update(n: number, force = false): void {
    if (!this.line.live) return;
    const t = this.now();
    if (!force && (t - this.started < (this.options.quietMs ?? 0) || t - this.lastDraw < (this.options.everyMs ?? 0))) return;
    this.lastDraw = t;
    this.line.draw(this.text(n));
  }

  /** Removes the count. */
  clear(): void {
    this.line.clear();
  }

  /** Leaves the last count on the screen. */
  keep(): void {
    this.line.keep();
  }
}

export interface BarOptions extends DrawRule {
  /** What is counted: rows are shown as numbers, bytes as KB/MB. */
  unit: 'rows' | 'bytes';
  total?: number;
  label?: string;
  now?: () => number;
}

const BAR_WIDTH = 24;
const BAR_EVERY_MS = 100;

/** A bar: count of total, rate and time left, redrawn at most ten times a second. */
export class ProgressBar {
  private done = 0;
  private total?: number;
  private readonly started: number;
  private lastDraw = -Infinity;
  private readonly now: () => number;
  private readonly out: ProgressLine;

  constructor(ctx: IoContext, private readonly opts: BarOptions) {
    this.out = new ProgressLine(ctx, opts);
    this.total = opts.total;
    this.now = opts.now ?? monotonicMs;
    this.started = this.now();
  }

  get live(): boolean {
    return this.out.live;
  }

  setTotal(total: number | undefined): void {
    this.total = total;
  }

  add(n: number): void {
    this.done += n;
    if (!this.out.live) return;
    const t = this.now();
    if (t - this.lastDraw < BAR_EVERY_MS) return;
    this.lastDraw = t;
    this.out.draw(this.line(t));
  }

  /** The bar's text, without escape codes (tests read it). */
  line(t = this.now()): string {
    const secs = Math.max(0.001, (t - this.started) / 1000);
    const rate = this.done / secs;
    const total = this.total !== undefined && this.total >= this.done ? this.total : undefined;
    const parts: string[] = [];
    if (this.opts.label) parts.push(this.opts.label);
    const unit = this.opts.unit === 'rows' ? ' rows' : '';
    if (total !== undefined && total > 0) {
      const filled = Math.round((this.done / total) * BAR_WIDTH);
      parts.push(`[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`);
      parts.push(`${this.amount(this.done)}/${this.amount(total)}${unit}`);
    } else {
      parts.push(`${this.amount(this.done)}${unit}`);
    }
    parts.push(`${this.amount(Math.round(rate))}/s`);
    if (total !== undefined && rate > 0 && this.done > 0) parts.push(`${clock((total - this.done) / rate)} left`);
    return parts.join('  ');
  }

  private amount(n: number): string {
    return this.opts.unit === 'bytes' ? bytes(n) : grouped(n);
  }

  /** A line that stays above the bar. */
  print(line: string): void {
    this.out.print(line);
  }

  /** Removes the bar so later lines start clean. */
  clear(): void {
    this.out.clear();
  }
}

/**
 * A countdown to `at` on the context's clock and sleep: redrawn each second on a
 * terminal as `text(clock)`; elsewhere `plain(left ms)` as a line each minute (CI logs
 * stay short). Ctrl-C (the context's signal) stops it.
 */
export async function countdown(ctx: IoContext, at: number, text: { live: (clock: string) => string; plain: (leftMs: number) => string }): Promise<void> {
  const line = new ProgressLine(ctx);
  let lastMinute = -1;
  try {
    for (;;) {
      const left = at - ctx.now().getTime();
      if (left <= 0) break;
      if (line.live) {
        line.draw(text.live(clock(Math.ceil(left / 1000))));
        await ctx.sleep(Math.min(left, 1000), ctx.signal);
      } else {
        const minute = Math.ceil(left / 60_000);
        if (minute !== lastMinute) ctx.info(text.plain(left));
        lastMinute = minute;
        await ctx.sleep(Math.min(left, left % 60_000 || 60_000), ctx.signal);
      }
    }
  } finally {
    line.clear();
  }
}
