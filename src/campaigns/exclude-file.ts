/**
 * A suppression list: a CSV or .xlsx with a phone column (read by the same code as a
 * campaign's contacts), or plain text with one number a line. Every number is
 * normalized by the contacts' validator with the same default country, so "098765 43210",
 * "+91 98765-43210" and "919876543210" in the list all match the contact +919876543210.
 */
import { UsageError } from '../errors.js';

export interface ExcludeList {
  path: string;
  name: string;
  /** E.164 number → the first row (spreadsheet row, or line number) it is on. */
  numbers: Map<string, number>;
  /** Entries that are not phone numbers: they can match no contact (contacts are valid numbers). */
  invalid: Array<{ row: number; value: string; message: string }>;
}

/** A first line that is a number and nothing else: "+91 98765 43210", "(212) 555-0123", "'098765 43210". */
const NUMBER_LINE = /^\s*['"]?\s*\+?[\d\s().\-/]{5,}['"]?\s*[,;]?\s*$/;

export async function readExcludeList(path: string, defaultCountry: string | undefined, signal?: AbortSignal): Promise<ExcludeList> {
  const { openSource, readText } = await import('../contacts/source.js');
  const { resolveDefaultCountry, validateContactsFile } = await import('../contacts/index.js');
  const country = resolveDefaultCountry(defaultCountry);
  const source = await openSource(path);
  const list: ExcludeList = { path, name: source.name, numbers: new Map(), invalid: [] };

  let text: string | undefined;
  if (source.kind === 'text') {
    text = '';
    for await (const piece of readText(source, signal)) text += piece;
    const first = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/).find((l) => l.trim() !== '');
    if (first === undefined) throw new UsageError(`${source.name} is empty: it holds no numbers to exclude.`);
    if (!NUMBER_LINE.test(first)) text = undefined;
  }
  if (text !== undefined) {
    const { createPhoneCheck, isE164 } = await import('../contacts/index.js');
    const check = createPhoneCheck(country);
    text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/).forEach((line, i) => {
      const value = line.trim().replace(/^["']|["']?\s*[,;]?$/g, '').trim();
      if (value === '') return;
      const result = check(value);
      if (isE164(result)) {
        if (!list.numbers.has(result)) list.numbers.set(result, i + 1);
      } else {
        list.invalid.push({ row: i + 1, value, message: result });
      }
    });
  } else {
    // A spreadsheet with a header: the phone column is found as for contacts.
    const result = await validateContactsFile(path, { defaultCountry: country, collectInvalidRows: false, signal });
    for (const c of result.contacts) if (!list.numbers.has(c.phone_number)) list.numbers.set(c.phone_number, c.row);
    for (const e of result.report.errors) list.invalid.push({ row: e.row, value: e.value, message: e.message });
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

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
