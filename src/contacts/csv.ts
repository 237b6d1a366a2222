/**
 * CSV through papaparse in streaming mode. Records reach the sink in file order with
 * their spreadsheet row numbers: a quoted field with line breaks is one row, and a blank
 * line is a record of its own, so the rows after it keep their numbers.
 */
import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { bytes } from '../text/text.js';
import { readText, type Source } from './source.js';

export type Delimiter = ',' | ';' | '\t';

export interface RecordSink {
  /**
   * Records in file order; the first one is spreadsheet row `firstRow`. A returned
   * promise means "wait": reading pauses until it settles.
   */
  records(records: string[][], firstRow: number): Promise<void> | void;
}

/**
 * The longest row (and so the longest cell) voicectl reads: 4 Mi characters, far more
 * than any contacts file needs. Past it papaparse would re-read the growing row on every
 * chunk (quadratic time), so the row is examined on its own instead: a cell that long,
 * or a quote that never closes.
 */
export const MAX_ROW_CHARS = 4 * 1024 * 1024;

export async function readCsv(source: Extract<Source, { kind: 'text' }>, sink: RecordSink, signal?: AbortSignal): Promise<{ delimiter: Delimiter }> {
  // papaparse is needed only for CSV files, so it loads here, not when voicectl starts.
  const { default: Papa } = await import('papaparse');
  const text = readText(source, signal);
  const first = await text.next();
  if (first.done) return { delimiter: ',' };
  const delimiter = detectDelimiter(first.value);
  let fed = 0;
  const input = Readable.from((async function* () {
    fed += first.value.length;
    yield first.value;
    for await (const piece of text) {
      fed += piece.length;
      yield piece;
    }
  })(), { objectMode: true, highWaterMark: 1 });

  return new Promise((resolve, reject) => {
    let row = 1;
    let parsedTo = 0;
    let failed = false;
    const fail = (err: unknown, parser?: { abort(): void }) => {
      if (failed) return;
      failed = true;
      parser?.abort();
      input.destroy();
      reject(err);
    };
    const onAbort = () => fail(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    Papa.parse<string[]>(input as unknown as File, {
      delimiter,
      skipEmptyLines: false,
      chunk(results, parser) {
        if (failed) return;
        const quoteError = results.errors.find((e) => e.type === 'Quotes' && e.row !== undefined && e.row < results.data.length);
        if (quoteError) return fail(unbalancedQuote(source.name, row + quoteError.row!), parser);
        if (fed - results.meta.cursor > MAX_ROW_CHARS) {
          const at = row + results.data.length;
          // Stopped as a failure now (so completion does not resolve), rejected once the row is examined.
          failed = true;
          parser.abort();
          input.destroy();
          return void openRow(source, delimiter, results.meta.cursor, signal).then(
            (found) => reject(found.closed ? tooLong(source.name, at, found) : unbalancedQuote(source.name, at)),
            reject,
          );
        }
        // Rows that closed within this chunk can be over the limit too, when the chunk spans more than it.
        if (results.meta.cursor - parsedTo > MAX_ROW_CHARS) {
          const long = longRow(results.data);
          if (long) return fail(tooLong(source.name, row + long.index, long), parser);
        }
        parsedTo = results.meta.cursor;
        const firstRow = row;
        row += results.data.length;
        let wait: Promise<void> | void;
        try {
          wait = sink.records(results.data, firstRow);
        } catch (err) {
          return fail(err, parser);
        }
        if (wait) {
          input.pause();
          wait.then(() => { if (!failed) input.resume(); }, (err) => fail(err, parser));
        }
      },
      complete() {
        signal?.removeEventListener('abort', onAbort);
        if (!failed) resolve({ delimiter });
      },
      error(err: Error) {
        signal?.removeEventListener('abort', onAbort);
        fail(err);
      },
    });
  });
}

interface OpenRow {
  /** Whether the row ends (its quotes close) before the end of the file. */
  closed: boolean;
  /** The longest cell: its length and 0-based column. */
  longest: number;
  column: number;
}

/**
 * Reads the row that starts at character `start` of the file, quotes as RFC 4180 (and
 * papaparse) read them, without keeping it: where it ends, if it does, and its longest cell.
 */
async function openRow(source: Extract<Source, { kind: 'text' }>, delimiter: Delimiter, start: number, signal?: AbortSignal): Promise<OpenRow> {
  let skip = start;
  let cell = 0;
  let column = 0;
  let longest = 0;
  let longestColumn = 0;
  let inQuotes = false;
  let fieldStart = true;
  // A quote inside quotes, waiting for the next character: "" is a quote; a delimiter or
  // a line end closes the cell; anything else leaves the quote in the text, as papaparse does.
  let quoteSeen = false;
  const endCell = () => {
    if (cell > longest) {
      longest = cell;
      longestColumn = column;
    }
  };
  for await (const piece of readText(source, signal)) {
    let i = 0;
    if (skip > 0) {
      i = Math.min(skip, piece.length);
      skip -= i;
    }
    for (; i < piece.length; i++) {
      const c = piece[i]!;
      if (quoteSeen) {
        quoteSeen = false;
        if (c === delimiter || c === '\n' || c === '\r') inQuotes = false;
        else {
          cell++;
          if (c === '"') continue;
        }
      }
      if (inQuotes) {
        if (c === '"') quoteSeen = true;
        else cell++;
      } else if (c === '"' && fieldStart) {
        inQuotes = true;
        fieldStart = false;
      } else if (c === delimiter) {
        endCell();
        column++;
        cell = 0;
        fieldStart = true;
      } else if (c === '\n' || c === '\r') {
        endCell();
        return { closed: true, longest, column: longestColumn };
      } else {
        cell++;
        fieldStart = false;
      }
    }
  }
  endCell();
  return { closed: !inQuotes || quoteSeen, longest, column: longestColumn };
}

/** The first record whose cells together exceed the limit, with its longest cell. */
function longRow(records: string[][]): (OpenRow & { index: number }) | undefined {
  for (let index = 0; index < records.length; index++) {
    const cells = records[index]!;
    let total = 0;
    let longest = 0;
    let column = 0;
    for (let i = 0; i < cells.length; i++) {
      const n = cells[i]!.length;
      total += n;
      if (n > longest) {
        longest = n;
        column = i;
      }
    }
    if (total > MAX_ROW_CHARS) return { index, closed: true, longest, column };
  }
  return undefined;
}

function tooLong(name: string, row: number, found: OpenRow): UsageError {
  const limit = `${MAX_ROW_CHARS / 1024 / 1024} MB`;
  if (found.longest > MAX_ROW_CHARS) {
    return new UsageError(`${name}: row ${row} has a cell that is too long: column ${columnLetters(found.column)} holds ${bytes(found.longest)} of text, and voicectl reads cells of up to ${limit}.`, {
      hint: `Shorten or empty that cell (a pasted document, or data that belongs elsewhere?) and run the command again.`,
    });
  }
  return new UsageError(`${name}: row ${row} is too long: its cells hold more than ${limit} of text together, and voicectl reads rows of up to ${limit}.`, {
    hint: 'Shorten the long cells of that row and run the command again.',
  });
}

/** 0 → A, 25 → Z, 26 → AA: the column as a spreadsheet labels it. */
function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function unbalancedQuote(name: string, row: number): UsageError {
  return new UsageError(`${name}: the quote that opens in row ${row} is never closed, so every row after it would be read as one cell.`, {
    hint: `Fix the quotes in row ${row} (a quote inside a quoted value is written twice: ""), or export the file again.`,
  });
}

/**
 * The delimiter that splits the header line most: comma, semicolon (Excel in many
 * European locales) or tab (Excel's "Unicode text"). A comma when none occurs.
 */
export function detectDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let inQuotes = false;
  let seenContent = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) {
      // The header is the first line with something on it; blank lines before it are skipped.
      if (seenContent) break;
    } else if (!inQuotes && (ch === ',' || ch === ';' || ch === '\t')) {
      counts[ch]++;
      seenContent = true;
    } else if (ch.trim() !== '') seenContent = true;
  }
  let best: Delimiter = ',';
  for (const d of ['\t', ';'] as const) if (counts[d] > counts[best]) best = d;
  return best;
}
