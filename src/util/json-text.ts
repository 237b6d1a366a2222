/**
 * The service's JSON text kept beside what JSON.parse made of it, so `--jq` reads the
 * numbers as the service wrote them: JavaScript's numbers turn `100000000000000000001`
 * into `100000000000000000000` and `1.000` into `1`, jq 1.7 keeps both.
 *
 * A body parsed with parseKeepingText remembers its own text, and so do the items of its
 * lists (the elements of a top-level array, and of an array that is a top-level field, as
 * in `{calls: [...], total}`). jsonText writes a value back as JSON from those texts
 * where it can: a list gathered from many pages is the pages' item texts joined, never
 * reformatted. A kept object whose fields were added or removed since is written anew.
 */

interface Kept {
  text: string;
  /** How many fields the object had when parsed: a changed object is not the text any more. */
  size: number;
}

const KEPT = new WeakMap<object, Kept>();

/** A whole body that may be a scalar (`1.000`), which a WeakMap cannot hold: its text and its value. */
export class JsonText {
  constructor(readonly text: string, readonly value: unknown) {}

  /** JSON.stringify sees the value: only jsonText uses the text. */
  toJSON(): unknown {
    return this.value;
  }
}

function sizeOf(value: object): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

function keep(value: unknown, text: string): void {
  if (typeof value === 'object' && value !== null) KEPT.set(value, { text, size: sizeOf(value) });
}

/** JSON.parse, remembering the text of the body and of its lists' items. A BOM is dropped. */
export function parseKeepingText(source: string): unknown {
  const text = source.replace(/^\uFEFF/, '');
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) return value;
  keep(value, text);
  const start = skipWs(text, 0);
  if (Array.isArray(value)) {
    keepElements(value, text, start);
  } else {
    for (const [key, from, to] of members(text, start)) {
      const field = (value as Record<string, unknown>)[key];
      if (Array.isArray(field) && text.charCodeAt(from) === 91) {
        keep(field, text.slice(from, to));
        keepElements(field, text, from);
      }
    }
  }
  return value;
}

function keepElements(list: unknown[], text: string, open: number): void {
  let i = 0;
  for (const [from, to] of elements(text, open)) keep(list[i++], text.slice(from, to));
}

/**
 * `value` as JSON text: kept texts as they came, everything else as JSON.stringify
 * writes it (undefined fields left out, toJSON honoured).
 */
export function jsonText(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const kept = KEPT.get(value);
  if (kept && kept.size === sizeOf(value)) return kept.text;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : jsonText(v))).join(',')}]`;
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(k)}:${jsonText(v)}`);
  }
  return `{${parts.join(',')}}`;
}

// A scanner over text JSON.parse has already accepted: it finds where values start and
// end, without recursion (nesting depth is the input's), and checks nothing.

function skipWs(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** From an opening quote to just past the closing one. */
function skipString(t: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = t.indexOf('"', from);
    let slashes = 0;
    for (let b = q - 1; t.charCodeAt(b) === 92; b--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 34) return skipString(t, i);
  if (c === 91 || c === 123) {
    let depth = 0;
    for (;;) {
      const ch = t.charCodeAt(i);
      if (ch === 34) {
        i = skipString(t, i);
        continue;
      }
      if (ch === 91 || ch === 123) depth++;
      else if ((ch === 93 || ch === 125) && --depth === 0) return i + 1;
      i++;
    }
  }
  for (;;) {
    const ch = t.charCodeAt(i);
    if (Number.isNaN(ch) || ch === 44 || ch === 93 || ch === 125 || ch === 32 || ch === 10 || ch === 13 || ch === 9) return i;
    i++;
  }
}

/** The [start, end) of each element of the array opening at `open`. */
function* elements(t: string, open: number): Generator<[number, number]> {
  let i = skipWs(t, open + 1);
  if (t.charCodeAt(i) === 93) return;
  for (;;) {
    const end = skipValue(t, i);
    yield [i, end];
    i = skipWs(t, end);
    if (t.charCodeAt(i) !== 44) return;
    i = skipWs(t, i + 1);
  }
}

/** Each member of the object opening at `open`: its key, and its value's [start, end). */
function* members(t: string, open: number): Generator<[string, number, number]> {
  let i = skipWs(t, open + 1);
  if (t.charCodeAt(i) === 125) return;
  for (;;) {
    const keyEnd = skipString(t, i);
    const key = JSON.parse(t.slice(i, keyEnd)) as string;
    const from = skipWs(t, skipWs(t, keyEnd) + 1);
    const to = skipValue(t, from);
    yield [key, from, to];
    i = skipWs(t, to);
    if (t.charCodeAt(i) !== 44) return;
    i = skipWs(t, i + 1);
  }
}
