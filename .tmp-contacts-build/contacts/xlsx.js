/**
 * .xlsx workbooks, first sheet, through read-excel-file: every cell becomes the text a
 * person sees, so a customer id stored as text stays "007" and a long number keeps all
 * its digits (numbers are taken as written in the file, not as floating point).
 */
import { UsageError } from '../errors.js';
export async function readXlsx(source, sink) {
    // read-excel-file (and its unzip and XML parser) load only for workbooks.
    const { readSheet } = await import('read-excel-file/node');
    let rows;
    try {
        rows = await readSheet(source.path, { parseNumber: (s) => s, trim: false });
    }
    catch (err) {
        throw new UsageError(`${source.name} is not a readable .xlsx workbook: ${err?.message ?? String(err)}`, {
            hint: 'Open it in Excel and save it again as .xlsx, or export the sheet as CSV UTF-8.',
        });
    }
    // read-excel-file returns sheet rows from row 1, empty rows included, so index + 1 is the row number.
    const BATCH = 5000;
    for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH).map((r) => r.map(cellText));
        await sink.records(batch, i + 1);
    }
}
function cellText(value) {
    if (value === null || value === undefined)
        return '';
    if (typeof value === 'string')
        return value;
    if (typeof value === 'boolean')
        return value ? 'TRUE' : 'FALSE';
    if (value instanceof Date) {
        const iso = value.toISOString();
        return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
    }
    return String(value);
}
