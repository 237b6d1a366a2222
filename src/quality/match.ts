/**
 * Rule patterns against transcripts, with a deadline. The patterns are the user's, but
 * the text is what callers said: `(a+)+$` against forty `a`s and a `!` backtracks for
 * ages, and a regular expression running on the main thread cannot be stopped, not even
 * by Ctrl-C.
 *
 * Why V8's own engine in a `vm` context with a timeout, not a linear-time engine (RE2)
 * or a worker thread: rules files are written in JavaScript's syntax and some use what
 * RE2 lacks (lookarounds, backreferences, `\p{Script=…}`), so a linear engine would
 * refuse or change the meaning of patterns that work today; a worker thread is a second
 * JavaScript heap (10 MB and more, against `calls check`'s 200 MB budget) and every
 * transcript copied to it. A `vm` script with `timeout` runs in this heap and is
 * interrupted by V8 itself when the deadline passes, inside a backtracking match too;
 * `breakOnSigint` lets Ctrl-C interrupt it at once.
 *
 * A pattern whose work is bounded by its shape (no quantifier, no backreference, no
 * lookaround, few alternatives: what most rules are) is matched directly: the deadline
 * costs a watchdog thread per match, which a rule of plain phrases does not need.
 */
import { createContext, Script, type Context as VmContext } from 'node:vm';
import { InterruptedError } from '../errors.js';

/** Longest one rule may match one call's turns. */
export const MATCH_DEADLINE_MS = 1000;

/** A pattern that did not finish on a turn before the deadline. */
export class MatchTimeout extends Error {
  constructor(readonly pattern: RegExp, readonly index: number) {
    super(`the pattern /${pattern.source}/ took over ${MATCH_DEADLINE_MS / 1000}s`);
    this.name = 'MatchTimeout';
  }
}

export interface Match {
  /** Index into the texts. */
  index: number;
  /** Index into the patterns. */
  pattern: number;
}

const shapes = new WeakMap<RegExp, boolean>();

/**
 * Whether matching `source` is bounded by the text's length times a constant of the
 * pattern: no quantifier (*, +, ?, {n,m}), no backreference, no lookaround, no group in a
 * group, and at most 256 ways through its groups' alternatives. Conservative: anything
 * it is unsure of counts as unbounded, and is only slower for it.
 */
export function boundedShape(source: string): boolean {
  let depth = 0;
  let ways = 1;
  let alternatives = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return false;
      i++;
      continue;
    }
    if (c === '[') {
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') {
        if (source[i] === '\\') i++;
        i++;
      }
      continue;
    }
    if (c === '(') {
      if (depth > 0) return false;
      depth++;
      alternatives = 1;
      if (source[i + 1] === '?') {
        const kind = source.slice(i + 2, i + 4);
        if (kind[0] === '=' || kind[0] === '!' || kind === '<=' || kind === '<!') return false;
      }
      continue;
    }
    if (c === ')') {
      depth--;
      ways *= alternatives;
      if (ways > 256) return false;
      continue;
    }
    if (c === '|') {
      if (depth > 0) alternatives++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') return false;
    if (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i))) return false;
  }
  return true;
}

function bounded(re: RegExp): boolean {
  let b = shapes.get(re);
  if (b === undefined) shapes.set(re, (b = boundedShape(re.source)));
  return b;
}

let sandbox: VmContext | undefined;
const SEARCH = new Script(`(function () {
  for (let i = 0; i < texts.length; i++) {
    for (let p = 0; p < patterns.length; p++) {
      at = i;
      which = p;
      patterns[p].lastIndex = 0;
      if (patterns[p].test(texts[i])) return [i, p];
    }
  }
  return null;
})()`, { filename: 'voicectl-rule-pattern' });

/**
 * The first text that any pattern matches (patterns tried in order on each text), or
 * null. Throws MatchTimeout past MATCH_DEADLINE_MS, InterruptedError on Ctrl-C.
 */
export function firstMatch(patterns: readonly RegExp[], texts: readonly string[]): Match | null {
  if (patterns.length === 0 || texts.length === 0) return null;
  if (patterns.every(bounded)) {
    for (let i = 0; i < texts.length; i++) {
      for (let p = 0; p < patterns.length; p++) if (patterns[p]!.test(texts[i]!)) return { index: i, pattern: p };
    }
    return null;
  }
  sandbox ??= createContext(Object.create(null) as object);
  const box = sandbox as { patterns?: readonly RegExp[]; texts?: readonly string[]; at?: number; which?: number };
  box.patterns = patterns;
  box.texts = texts;
  box.at = 0;
  box.which = 0;
  try {
    const found = SEARCH.runInContext(sandbox, { timeout: MATCH_DEADLINE_MS, breakOnSigint: true }) as [number, number] | null;
    return found ? { index: found[0], pattern: found[1] } : null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new MatchTimeout(patterns[box.which ?? 0] ?? patterns[0]!, box.at ?? 0);
    }
    if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') {
      // breakOnSigint held Ctrl-C for this match: it still means "stop".
      process.emit('SIGINT');
      throw new InterruptedError();
    }
    throw err;
  } finally {
    box.patterns = undefined;
    box.texts = undefined;
  }
}
