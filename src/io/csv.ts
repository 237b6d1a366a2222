/**
 * voicectl's one CSV escaper, for every CSV it writes: lists (-o csv), `call export`,
 * the --errors-out file of bad contact rows. RFC 4180 quoting, and formula-injection
 * escaping: text a spreadsheet would run as a formula (starting with = + - @, tab or CR)
 * gets a leading quote. A plain number (an E.164 phone number, -3.5) is left as it is by
 * default, since a spreadsheet reads it as a number, never as a formula; `escapeNumbers`
 * escapes those too, for files whose cells are meant to come back as text.
 */

export interface CsvOptions {
  delimiter?: string;
  escapeNumbers?: boolean;
}

const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /["\r\n]/;

/** = + - @ tab CR. */
function isFormulaStart(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/** One cell: text as is, numbers and booleans as written, anything else as JSON; always formula-safe. */
export function csvCell(value: unknown, options: CsvOptions = {}): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const delimiter = options.delimiter ?? ',';
  // Most cells need neither escaping nor quotes: one test, and out (100,000 rows add up).
  const formula = text.length > 0 && isFormulaStart(text.charCodeAt(0)) && (options.escapeNumbers || !PLAIN_NUMBER.test(text));
  const s = formula ? `'${text}` : text;
  return NEEDS_QUOTES.test(s) || s.includes(delimiter) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (no line ending). */
export function csvLine(cells: readonly unknown[], options: CsvOptions = {}): string {
  return cells.map((c) => csvCell(c, options)).join(options.delimiter ?? ',');
}
