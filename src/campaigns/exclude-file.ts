/**
 * A suppression list: a CSV or .xlsx with a phone column (read by the same code as a
 * campaign's contacts), or plain text with one number a line. Every number is
 * normalized by the contacts' validator with the same default country, so "098765 43210",
 * "+91 98765-43210" and "919876543210" in the list all match the contact +919876543210.
 */
import type { Source } from '../contacts/source.js';
import { UsageError } from '../errors.js';
import { grouped, plural } from '../text/text.js';

export interface ExcludeList {
  path: string;
  name: string;
  /** E.164 number → the first row (spreadsheet row, or line number) it is on. */
  numbers: Map<string, number>;
  /** Entries that are not phone numbers: they can match no contact (contacts are valid numbers). */
  invalid: Array<{ row: number; value: string; message: string }>;
}

/** A line of a plain list holds one number: a longer one is not a list of numbers. */
const MAX_LINE_CHARS = 1024;

/** A first line that is a number and nothing else: "+91 98765 43210", "(212) 555-0123", "'098765 43210". */
const NUMBER_LINE = /^\s*['"]?\s*\+?[\d\s().\-/]{5,}['"]?\s*[,;]?\s*$/;

export async function readExcludeList(path: string, defaultCountry: string | undefined, signal?: AbortSignal): Promise<ExcludeList> {
  const { openSource } = await import('../contacts/source.js');
  const { resolveDefaultCountry, validateContactsFile } = await import('../contacts/index.js');
  const country = resolveDefaultCountry(defaultCountry);
  const source = await openSource(path);
  const list: ExcludeList = { path, name: source.name, numbers: new Map(), invalid: [] };

  let plain = false;
  if (source.kind === 'text') {
    // The first line that is not blank says which: a number (a plain list) or a header.
    let first: Line | undefined;
    for await (const line of lines(source, signal)) {
      if (!line.cut && line.text.trim() === '') continue;
      first = line;
      break;
    }
    if (first === undefined) throw new UsageError(`${source.name} is empty: it holds no numbers to exclude.`);
    plain = !first.cut && NUMBER_LINE.test(first.text);
  }
  if (plain && source.kind === 'text') {
    const { createPhoneCheck, isE164 } = await import('../contacts/index.js');
    const check = createPhoneCheck(country);
    for await (const { text, number, length, cut } of lines(source, signal)) {
      if (cut) {
        throw new UsageError(`${source.name}: line ${grouped(number)} is ${chars(length)} long; an exclude list holds one phone number a line (voicectl reads lines of up to ${chars(MAX_LINE_CHARS)}).`, {
          hint: 'Check that this is the list you meant; a CSV or .xlsx with a phone column is read as a spreadsheet.',
        });
      }
      const value = text.trim().replace(/^["']/, '').replace(/["']?\s*[,;]?$/, '').trim();
      if (value === '') continue;
      const result = check(value);
      if (isE164(result)) {
        if (!list.numbers.has(result)) list.numbers.set(result, number);
      } else {
        list.invalid.push({ row: number, value: clip(value), message: result });
      }
    }
  } else {
    // A spreadsheet with a header: the phone column is found as for contacts.
    const result = await validateContactsFile(path, { defaultCountry: country, collectInvalidRows: false, signal });
    for (const c of result.contacts) if (!list.numbers.has(c.phone_number)) list.numbers.set(c.phone_number, c.row);
    for (const e of result.report.errors) list.invalid.push({ row: e.row, value: clip(e.value), message: e.message });
  }
  // Without a default country, "98765 43210" could be anyone's number: guessing would
  // risk calling a person on the list, so say so instead.
  const noCountry = country === undefined ? list.invalid.filter((e) => !/^\s*['"]?\s*(\+|00)/.test(e.value) && /\d{6}/.test(e.value.replace(/\D/g, ''))) : [];
  if (noCountry.length > 0) {
    throw new UsageError(`${plural(noCountry.length, 'number')} in ${list.name} ${noCountry.length === 1 ? 'has' : 'have'} no country code (${where(noCountry)}), so voicectl cannot tell whose ${noCountry.length === 1 ? 'it is' : 'they are'}.`, {
      hint: 'Pass --default-country (for example --default-country IN) or set it with `voicectl config set default_country IN`, or write the numbers with +<country code>.',
    });
  }
  if (list.numbers.size === 0) {
    throw new UsageError(`${list.name} holds no phone numbers${list.invalid.length ? ` (${where(list.invalid)}: ${list.invalid[0]!.message})` : ''}.`, {
      hint: 'An exclude file is a CSV or .xlsx with a phone column, or plain text with one number a line.',
    });
  }
  return list;
}

function where(entries: Array<{ row: number }>): string {
  const rows = entries.slice(0, 5).map((e) => e.row).join(', ');
  return `${entries.length === 1 ? 'row' : 'rows'} ${rows}${entries.length > 5 ? ' …' : ''}`;
}

interface Line {
  /** The line, or its first MAX_LINE_CHARS + 1 characters when it is longer (cut). */
  text: string;
  /** From 1. */
  number: number;
  /** The whole line's length in characters. */
  length: number;
  cut: boolean;
}

/**
 * The lines of a text file as it streams (\r\n, \n or \r), never holding more than the
 * first MAX_LINE_CHARS + 1 characters of a line: a 10 MB line costs a pass, not 10 MB.
 */
async function* lines(source: Extract<Source, { kind: 'text' }>, signal?: AbortSignal): AsyncGenerator<Line> {
  const { readText } = await import('../contacts/source.js');
  const BREAK = /[\r\n]/g;
  let text = '';
  let length = 0;
  let number = 1;
  let afterCr = false;
  let first = true;
  const append = (part: string) => {
    length += part.length;
    if (text.length <= MAX_LINE_CHARS) text += part.slice(0, MAX_LINE_CHARS + 1 - text.length);
  };
  const line = (): Line => ({ text, number, length, cut: length > MAX_LINE_CHARS });
  for await (let piece of readText(source, signal)) {
    if (first) {
      piece = piece.replace(/^\uFEFF/, '');
      first = false;
    }
    let start = afterCr && piece.charCodeAt(0) === 10 ? 1 : 0;
    afterCr = false;
    for (;;) {
      BREAK.lastIndex = start;
      const found = BREAK.exec(piece);
      if (!found) {
        append(piece.slice(start));
        break;
      }
      const at = found.index;
      append(piece.slice(start, at));
      yield line();
      number++;
      text = '';
      length = 0;
      start = at + 1;
      if (piece.charCodeAt(at) === 13) {
        if (at + 1 === piece.length) afterCr = true;
        else if (piece.charCodeAt(at + 1) === 10) start = at + 2;
      }
    }
  }
  if (length > 0) yield line();
}

/** "10.0 MB", "1,024 characters". */
function chars(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${grouped(n)} characters`;
}

/** A value quoted in a warning: enough to recognise it. */
function clip(value: string): string {
  return value.length > 60 ? `${value.slice(0, 60)}…` : value;
}
