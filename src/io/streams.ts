/**
 * The terminal, decided in one place (as gh's IOStreams): the run's three streams and
 * every rule about them — whether a stream is a terminal and how wide, the output format,
 * colour, whether a person may be asked, whether progress may be drawn. Context holds one
 * (ctx.io) and keeps the clock, the settings and the API client; verbs and domain modules
 * ask ctx.io rather than read isTTY, columns, NO_COLOR or the format flags themselves
 * (test/structure/layers.test.ts holds them to it).
 */
import type { ChalkInstance } from 'chalk';

export type Env = Record<string, string | undefined>;

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}
export interface OutStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
}

export interface Streams {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
}

export type OutputFormat = 'table' | 'json' | 'jsonl' | 'csv';

/** The global options the terminal rules read, as commander parsed them. */
export interface TerminalOptions {
  json?: boolean;
  output?: OutputFormat;
  color?: boolean;
  yes?: boolean;
  input?: boolean;
  /** --jq and --template: the JSON output, filtered or laid out (src/io/filter.ts). */
  jq?: string;
  template?: string;
  accessible?: boolean;
}

let chalkClass: (typeof import('chalk'))['Chalk'] | undefined;

/** Stands in for chalk before it is loaded: every style, chained or called, returns the text. */
const PLAIN: ChalkInstance = new Proxy(((...text: unknown[]) => text.join(' ')) as unknown as ChalkInstance, {
  get: (_target, prop) => (prop === 'level' ? 0 : PLAIN),
});

export class IOStreams implements Streams {
  private chalkCache?: ChalkInstance;

  /**
   * `opts` is read at each question: the program sets the options after the streams exist.
   * The streams are read from `streams` when used, so a getter there (main.ts's stdin,
   * which costs a stream most commands never read) stays lazy.
   */
  constructor(private readonly streams: Streams, private readonly env: Env, private readonly opts: () => TerminalOptions) {}

  get stdin(): InStream {
    return this.streams.stdin;
  }

  get stdout(): OutStream {
    return this.streams.stdout;
  }

  get stderr(): OutStream {
    return this.streams.stderr;
  }

  /** Output format: -o wins, then --json, then a table. */
  get format(): OutputFormat {
    const o = this.opts();
    // --jq and --template work on the JSON output, so they imply it.
    if (o.jq !== undefined || o.template !== undefined) return 'json';
    if (o.output) return o.output;
    if (o.json) return 'json';
    return 'table';
  }

  get machineOutput(): boolean {
    return this.format !== 'table';
  }

  /** --jq's expression, when the JSON output is filtered. */
  get jq(): string | undefined {
    return this.opts().jq;
  }

  /** Whether one of the streams is a terminal. */
  isTerminal(which: keyof Streams): boolean {
    return Boolean(this[which].isTTY);
  }

  /** The columns a stream says it has (a terminal's width), undefined when it says none. */
  columns(which: 'stdout' | 'stderr'): number | undefined {
    return this[which].columns;
  }

  /** The rows a stream says it has (a terminal's height), undefined when it says none. */
  rows(which: 'stdout' | 'stderr'): number | undefined {
    return (this[which] as { rows?: number }).rows;
  }

  /**
   * The width lines are fitted to: stdout's columns on a terminal (`fallback` when it does
   * not say), undefined in a pipe or file, where lines are printed whole.
   */
  lineWidth(fallback?: number): number | undefined {
    return this.stdout.isTTY ? this.stdout.columns || fallback : undefined;
  }

  /** The width help is wrapped to: the terminal's, else 80. */
  helpWidth(which: 'stdout' | 'stderr'): number {
    return (this[which].isTTY && this[which].columns) || 80;
  }

  /** A person is there to answer: stdin and stdout are terminals and nobody said --no-input. */
  canPrompt(): boolean {
    if (this.opts().input === false) return false;
    if (isTrue(this.env.CI)) return false;
    return Boolean(this.stdin.isTTY && this.stdout.isTTY);
  }

  /** Why no one may be asked: --no-input, or no terminal to answer at. */
  whyNoPrompt(): string {
    return this.opts().input === false ? '--no-input is set' : 'no one is at a terminal to confirm';
  }

  /**
   * Accessible mode (--accessible, VOICECTL_ACCESSIBLE=1): for screen readers. No spinner
   * and no redrawn line: progress and live views as plain lines; questions as numbered
   * choices typed as text; no colour (every status is also a word).
   */
  get accessible(): boolean {
    return this.opts().accessible === true || isTrue(this.env.VOICECTL_ACCESSIBLE);
  }

  /** Whether lines on `stream` may be redrawn (\r, cursor moves): a terminal, not TERM=dumb, not accessible mode. */
  redraws(stream: OutStream): boolean {
    return Boolean(stream.isTTY) && this.env.TERM !== 'dumb' && !this.accessible;
  }

  /** Interactive progress (spinners, bars, redraws) goes to stderr only when it is a terminal that may be redrawn. */
  get interactiveStderr(): boolean {
    return this.redraws(this.stderr) && !this.machineOutput;
  }

  /**
   * Colours for stdout. chalk is loaded by loadColors() before any action runs (and
   * before an error is reported), not at start-up: `--version` and `--help` never need
   * it, and neither does output that is not coloured. Until then, text passes through as is.
   */
  get color(): ChalkInstance {
    if (!chalkClass) return PLAIN;
    this.chalkCache ??= new chalkClass({ level: this.colorLevel(this.stdout) });
    return this.chalkCache;
  }

  /** Loads chalk if some output will be coloured; for pipes, files and NO_COLOR it is not needed. */
  async loadColors(): Promise<void> {
    if (chalkClass || (this.colorLevel(this.stdout) === 0 && this.colorLevel(this.stderr) === 0)) return;
    chalkClass = (await import('chalk')).Chalk;
  }

  /** Colours for stderr, which may be a terminal when stdout is not. */
  get errColor(): ChalkInstance {
    if (!chalkClass) return PLAIN;
    return new chalkClass({ level: this.colorLevel(this.stderr) });
  }

  private colorLevel(stream: OutStream): 0 | 1 | 2 | 3 {
    if (this.opts().color === false || this.env.NO_COLOR !== undefined && this.env.NO_COLOR !== '') return 0;
    const force = this.env.FORCE_COLOR;
    if (force !== undefined) {
      if (force === '0' || force === 'false') return 0;
      const n = Number(force);
      return (n >= 1 && n <= 3 ? n : 1) as 1 | 2 | 3;
    }
    // A dumb terminal shows escape codes as text; a screen reader reads them out.
    if (this.env.TERM === 'dumb' || this.accessible) return 0;
    return stream.isTTY ? 1 : 0;
  }
}

/**
 * What the printers, prompts and progress indicators of src/io take: the run's streams
 * and terminal rules (io), and the few things of the run they also need. Context is one;
 * src/io names only this, so it imports nothing from the layers above it.
 */
export interface IoContext {
  readonly io: IOStreams;
  readonly env: Env;
  readonly opts: TerminalOptions;
  readonly signal: AbortSignal;
  readonly now: () => Date;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The zone of the times a person reads. */
  readonly timeZone: string;
  readonly color: ChalkInstance;
  readonly errColor: ChalkInstance;
  /** Runs when the command ends, whatever the outcome. */
  onClose(fn: () => Promise<void> | void): void;
  out(line?: string): void;
  info(line?: string): void;
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}
