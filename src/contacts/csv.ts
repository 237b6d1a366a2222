/**
 * CSV through papaparse in streaming mode. Records reach the sink in file order with
 * their spreadsheet row numbers: a quoted field with line breaks is one row, and a blank
 * line is a record of its own, so the rows after it keep their numbers.
 */
import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
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
 * A record still open after this many characters has a quote that never closes. (Past
 * it, papaparse would re-read the growing record on every chunk: quadratic time.)
 */
const MAX_OPEN_RECORD_CHARS = 4 * 1024 * 1024;

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
        if (fed - results.meta.cursor > MAX_OPEN_RECORD_CHARS) return fail(unbalancedQuote(source.name, row + results.data.length), parser);
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
