/**
 * When the service still rejects a contact that passed local validation, its message
 * names a position in the array sent (`contacts[7]`, `contacts.7`, "row 8", or an
 * error object with `index`/`row`). The user knows the spreadsheet, not the array:
 * this finds the contact and says which row of which file it came from.
 */
import { ApiError } from '../api/errors.js';
import { UsageError } from '../errors.js';
import type { InputContact } from './input.js';
import { isObject } from '../util/is-object.js';

/** `contacts[7]`, `contacts.7`, `contacts/7` (JSON pointer), `body.contacts.7.phone_number`. */
const ARRAY_PATH = /contacts\s*(?:\[\s*(\d+)\s*\]|[./](\d+)\b)/i;
/** "row 8", "row #8", "contact 8", "item 8": ordinals as people write them. */
const ORDINAL = /\b(?:row|contact|item|record)\s*(?:#|no\.?|number)?\s*(\d+)\b/i;

/**
 * The index (from 0) in `sent` that the error names, or undefined when it names none
 * or one out of range. Array paths and `index` fields count from 0. A bare "row N" is
 * ambiguous: it is read as counting from 1, unless the contact at N (from 0) is the one
 * whose number the message quotes.
 */
export function rejectedIndex(err: ApiError, sent: ReadonlyArray<{ phone_number: string }>): number | undefined {
  const body = parse(err.body);
  const texts = [err.message, ...stringsIn(body)].join('\n');
  const inRange = (i: number | undefined) => (i !== undefined && Number.isInteger(i) && i >= 0 && i < sent.length ? i : undefined);

  const path = ARRAY_PATH.exec(texts);
  if (path) return inRange(Number(path[1] ?? path[2]));
  for (const obj of objectsIn(body)) {
    for (const key of ['index', 'contact_index', 'item_index']) {
      const n = int(obj[key]);
      if (n !== undefined) return inRange(n);
    }
    const loc = Array.isArray(obj.loc) ? obj.loc : undefined;
    const at = loc ? loc.findIndex((p) => p === 'contacts') : -1;
    if (loc && at !== -1) {
      const n = int(loc[at + 1]);
      if (n !== undefined) return inRange(n);
    }
  }
  let ordinal: number | undefined;
  for (const obj of objectsIn(body)) {
    ordinal = int(obj.row) ?? int(obj.row_number);
    if (ordinal !== undefined) break;
  }
  if (ordinal === undefined) {
    const m = ORDINAL.exec(texts);
    if (m) ordinal = Number(m[1]);
  }
  if (ordinal === undefined) return undefined;
  if (ordinal === 0) return inRange(0);
  const fromOne = inRange(ordinal - 1);
  const fromZero = inRange(ordinal);
  if (fromZero !== undefined && texts.includes(sent[fromZero]!.phone_number) && (fromOne === undefined || !texts.includes(sent[fromOne]!.phone_number))) {
    return fromZero;
  }
  return fromOne;
}

/**
 * The error to show for a rejected create: the row, its number and the service's own
 * words; the original error when the service named no contact (or answered 5xx).
 */
export function mapRejection(
  err: unknown,
  sent: ReadonlyArray<InputContact>,
  where: (row: number) => string,
  fileName: string,
): unknown {
  if (!(err instanceof ApiError) || err.kind !== 'http') return err;
  const status = err.status ?? 0;
  if (status < 400 || status >= 500 || [401, 402, 403, 404].includes(status)) return err;
  const i = rejectedIndex(err, sent);
  if (i === undefined) return err;
  const c = sent[i]!;
  const who = [c.phone_number, c.name].filter(Boolean).join(', ');
  return new UsageError(
    `The service rejected ${where(c.row)} of ${fileName} (${who}), sent as contacts[${i}]: ${err.message} (HTTP ${status}).`,
    { hint: `Fix ${where(c.row)} of ${fileName}, or remove it, and run the command again.`, cause: err },
  );
}

function parse(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The body and the objects nested in it (error, details, errors[] ...), a few levels deep. */
function objectsIn(v: unknown, depth = 0, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (depth > 4) return out;
  if (Array.isArray(v)) for (const x of v) objectsIn(x, depth + 1, out);
  else if (isObject(v)) {
    out.push(v);
    for (const x of Object.values(v)) if (typeof x === 'object') objectsIn(x, depth + 1, out);
  }
  return out;
}

function stringsIn(v: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 5) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsIn(x, depth + 1, out);
  else if (isObject(v)) for (const x of Object.values(v)) stringsIn(x, depth + 1, out);
  return out;
}

function int(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
