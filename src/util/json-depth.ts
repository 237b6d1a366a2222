/**
 * JSON from files people hand us (`--contacts`, `--file`, `trigger --data`) is parsed
 * only when it nests at most MAX_JSON_DEPTH arrays and objects. Deeper documents are
 * never real data, and the recursive code that later walks a value (JSON.stringify,
 * comparisons, the request body) would die with "Maximum call stack size exceeded".
 */

const MAX_JSON_DEPTH = 64;

export class JsonTooDeepError extends Error {
  constructor(readonly line: number, readonly column: number, readonly max: number) {
    super(`it nests arrays and objects more than ${max} levels deep (line ${line}, column ${column})`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * JSON.parse, after one pass over the text that counts the nesting (strings skipped).
 * Throws JsonTooDeepError past `max`, SyntaxError for text that is not JSON.
 */
export function parseJsonWithin(text: string, max = MAX_JSON_DEPTH): unknown {
  const at = tooDeepAt(text, max);
  if (at !== -1) {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    throw new JsonTooDeepError(line, at - before.lastIndexOf('\n'), max);
  }
  return JSON.parse(text);
}

/** The index of the bracket that goes past `max`, or -1. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}
