/**
 * One spelling of each small thing a person reads: a count with its noun, a line cut
 * to fit, a duration, a countdown clock, a size in bytes, a word quoted for the shell.
 * Pure functions of their arguments: every layer may use them (the api's error
 * messages included), so this module imports nothing but terminal-text.ts.
 *
 * Machine output (JSON, JSON lines, CSV) never goes through here: it keeps raw numbers.
 */
import { terminalLine } from './terminal-text.js';

/** "1 contact", "2 contacts", "12,000 contacts"; `many` for nouns that do not take an s. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${grouped(n)} ${noun(n, word, many)}`;
}

/**
 * `n.toLocaleString('en-US')` ("12,000"), with whole numbers grouped here: the first
 * Intl call of a process costs ~20 ms, a twentieth of a 10,000-row `contacts validate`.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** The word alone, for a count written another way: noun(1, 'call') is "call", noun(3, 'call') "calls". */
export function noun(n: number, word: string, many = `${word}s`): string {
  return n === 1 ? word : many;
}

/**
 * Text on one line: every run of whitespace (line breaks and tabs included) becomes one
 * space, the ends are trimmed, and with `max` it is cut to that many characters, the
 * last one an ellipsis. Other control characters are left as they are (JSON keeps them);
 * for a terminal, `truncate` also shows them as escapes.
 */
export function oneLine(text: string, max?: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return max !== undefined && flat.length > max ? `${flat.slice(0, Math.max(1, max - 1))}…` : flat;
}

/**
 * One line for a terminal, cut to `max` with an ellipsis (whole without one): line breaks
 * and tabs become a space and other control characters are shown as escapes first, so
 * they count.
 */
export function truncate(text: string, max: number | undefined): string {
  const line = terminalLine(text);
  if (!max || line.length <= max) return line;
  return `${line.slice(0, Math.max(1, max - 1))}…`;
}

/**
 * A line broken at spaces into lines of at most `width` characters, for a person reading
 * at a terminal. The lines after the first are indented by the line's own indent plus
 * two; a word longer than the width stands alone on its line.
 */
export function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const lead = /^ */.exec(text)![0].length;
  const hang = ' '.repeat(Math.min(lead + 2, Math.floor(width / 4)));
  const words = text.slice(lead).split(' ');
  const lines: string[] = [];
  let line = text.slice(0, lead);
  let start = true;
  for (const word of words) {
    if (!start && line.length + 1 + word.length > width) {
      lines.push(line);
      line = hang + word;
    } else {
      line += start ? word : ` ${word}`;
    }
    start = false;
  }
  lines.push(line);
  return lines;
}

export interface DurationOptions {
  /** What an unknown duration reads as (default: empty). */
  missing?: string;
  /** Below ten seconds, tenths are kept: a short wait reads "0.5s", not "1s". */
  tenths?: boolean;
  /** In words, rounded, for a sentence: "45 s", "10 minutes", "2 hours" (a clock's skew). */
  words?: boolean;
}

/**
 * How long something took or will take: "45s", "2m 05s", "1h 15m" (seconds are left out
 * beyond an hour). Negative durations read as 0s. `seconds` may be a numeric string,
 * as some services send it.
 */
export function duration(seconds: unknown, options: DurationOptions = {}): string {
  const n = typeof seconds === 'string' ? Number(seconds) : seconds;
  if (typeof n !== 'number' || !Number.isFinite(n)) return options.missing ?? '';
  if (options.tenths && n < 10) return `${Math.max(0, Number(n.toFixed(1)))}s`;
  const s = Math.max(0, Math.round(n));
  if (options.words) {
    if (s < 90) return `${s} s`;
    const minutes = Math.round(s / 60);
    return minutes < 90 ? `${minutes} minutes` : `${Math.round(minutes / 60)} hours`;
  }
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${pad(s % 60)}s`;
  return `${Math.floor(m / 60)}h ${pad(m % 60)}m`;
}

/** A countdown or an estimate on a progress line, as a clock reads: "0:42", "12:05", "1:02:05". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * An id on a line too narrow for it whole (a stream's line has no list to find a unique
 * prefix in): its kind (`evt_`, up to the first underscore) and its last eight
 * characters, "evt_…9f0a1b2c"; ids of 16 characters or fewer stay whole.
 */
export function lineId(id: string): string {
  if (id.length <= 16) return id;
  const kind = /^[a-z]{1,8}_/i.exec(id)?.[0] ?? '';
  return `${kind}…${id.slice(-8)}`;
}

/** A size: "512 B", "1.5 KB", "12.0 MB", "1.25 GB" (powers of 1024). */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * One shell word, for commands printed for a person to run: as is when it is safe,
 * otherwise single-quoted.
 */
export function shellQuote(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_./:@%+=,-]+$/.test(s)) return s;
  return singleQuote(s);
}

/** A word in single quotes, even a safe one, with `'\''` for a quote inside (sh, bash, zsh and fish all read it). */
export function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
