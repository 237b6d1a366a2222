/**
 * CSV through papaparse in streaming mode. Records reach the sink in file order with
 * their spreadsheet row numbers: a quoted field with line breaks is one row, and a blank
 * line is a record of its own, so the rows after it keep their numbers.
 */
import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { readText } from './source.js';
/**
 * A record still open after this many characters has a quote that never closes. (Past
 * it, papaparse would re-read the growing record on every chunk: quadratic time.)
 */
const MAX_OPEN_RECORD_CHARS = 4 * 1024 * 1024;
export async function readCsv(source, sink, signal) {
    // papaparse is needed only for CSV files, so it loads here, not when voicectl starts.
    const { default: Papa } = await import('papaparse');
    const text = readText(source, signal);
    const first = await text.next();
    if (first.done)
        return { delimiter: ',' };
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
        const fail = (err, parser) => {
            if (failed)
                return;
            failed = true;
            parser?.abort();
            input.destroy();
            reject(err);
        };
        const onAbort = () => fail(signal.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        Papa.parse(input, {
            delimiter,
            skipEmptyLines: false,
            chunk(results, parser) {
                if (failed)
                    return;
                const quoteError = results.errors.find((e) => e.type === 'Quotes' && e.row !== undefined && e.row < results.data.length);
                if (quoteError)
                    return fail(unbalancedQuote(source.name, row + quoteError.row), parser);
                if (fed - results.meta.cursor > MAX_OPEN_RECORD_CHARS)
                    return fail(unbalancedQuote(source.name, row + results.data.length), parser);
                const firstRow = row;
                row += results.data.length;
                let wait;
                try {
                    wait = sink.records(results.data, firstRow);
                }
                catch (err) {
                    return fail(err, parser);
                }
                if (wait) {
                    input.pause();
                    wait.then(() => { if (!failed)
                        input.resume(); }, (err) => fail(err, parser));
                }
            },
            complete() {
                signal?.removeEventListener('abort', onAbort);
                if (!failed)
                    resolve({ delimiter });
            },
            error(err) {
                signal?.removeEventListener('abort', onAbort);
                fail(err);
            },
        });
    });
}
function unbalancedQuote(name, row) {
    return new UsageError(`${name}: the quote that opens in row ${row} is never closed, so every row after it would be read as one cell.`, {
        hint: `Fix the quotes in row ${row} (a quote inside a quoted value is written twice: ""), or export the file again.`,
    });
}
/**
 * The delimiter that splits the header line most: comma, semicolon (Excel in many
 * European locales) or tab (Excel's "Unicode text"). A comma when none occurs.
 */
export function detectDelimiter(text) {
    const counts = { ',': 0, ';': 0, '\t': 0 };
    let inQuotes = false;
    let seenContent = false;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (ch === '"')
            inQuotes = !inQuotes;
        else if (!inQuotes && (ch === '\n' || ch === '\r')) {
            // The header is the first line with something on it; blank lines before it are skipped.
            if (seenContent)
                break;
        }
        else if (!inQuotes && (ch === ',' || ch === ';' || ch === '\t')) {
            counts[ch]++;
            seenContent = true;
        }
        else if (ch.trim() !== '')
            seenContent = true;
    }
    let best = ',';
    for (const d of ['\t', ';'])
        if (counts[d] > counts[best])
            best = d;
    return best;
}
