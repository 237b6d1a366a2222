/**
 * A workbook is a zip archive, and a small one can inflate to gigabytes (a 412 KB file
 * once took a minute and 2.3 GB of memory). Before the sheet is read, the zip's central
 * directory says how large its XML parts are when inflated: past the bound the file is
 * refused without inflating anything. A directory can lie, so each part is then inflated
 * once into a buffer no larger than the directory declared (zlib stops there): a part that
 * needs more is refused. The reader (read-excel-file's fflate build) inflates each part into
 * a buffer of exactly the declared size, so what was checked is what is read.
 *
 * The inflated XML is also scanned, once, for what no spreadsheet program writes and the
 * reader's XML parser handles in quadratic time: it parses in chunks and parses an
 * unfinished token again with every chunk, so one tag or one text run of a few MB (a
 * 100 KB file of whitespace took 88 s and 664 MB, then overflowed the stack).
 */
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import type { Entry, Options, ZipFile } from 'yauzl';
import { UsageError } from '../errors.js';
import { firstEvent } from '../util/first-event.js';
import { MAX_CONTACTS_PER_CAMPAIGN } from './report.js';
import { grouped } from '../text/text.js';

/**
 * Inflated size of a workbook's XML parts that voicectl reads: a 10,000-row sheet is a few
 * MB, 100,000 rows of four columns about 25 MB.
 */
export const MAX_WORKBOOK_INFLATED_BYTES = 64 * 1024 * 1024;
/**
 * The longest text between two tags: a cell holds at most 32,767 characters (Excel's
 * limit, and what voicectl's own exports cut to), at most ~200 KB written as XML.
 */
const MAX_XML_TEXT_BYTES = 256 * 1024;
/** The longest tag: a spreadsheet program writes tags of a few dozen bytes. */
const MAX_XML_TAG_BYTES = 64 * 1024;
/** Whitespace inside tags, as a share of the part (a space between attributes is ~10%). */
const MAX_TAG_SPACE_SHARE = 0.25;

/** The parts the sheet reader inflates; images and other media are never inflated. */
function isReadPart(name: string): boolean {
  return name.endsWith('.xml') || name.endsWith('.xml.rels');
}

export async function checkWorkbook(data: Buffer, fileName: string, limit = MAX_WORKBOOK_INFLATED_BYTES): Promise<void> {
  // yauzl loads only for workbooks.
  const { default: yauzl } = await import('yauzl');
  const options: Options = { lazyEntries: true, validateEntrySizes: true, strictFileNames: false };
  let zip: ZipFile;
  try {
    zip = await promisify<Buffer, Options, ZipFile>(yauzl.fromBuffer)(data, options);
  } catch (err) {
    throw unreadable(fileName, err);
  }
  try {
    const parts: Entry[] = [];
    let declared = 0;
    for await (const entry of entries(zip, fileName)) {
      if (!isReadPart(entry.fileName)) continue;
      declared += entry.uncompressedSize;
      if (declared > limit) throw tooLarge(fileName, limit, `its parts declare more than ${mb(limit)}`);
      parts.push(entry);
    }
    for (const entry of parts) inflateWithin(data, entry, await localDataStart(zip, entry, fileName), fileName, limit);
  } finally {
    zip.close();
  }
}

async function localDataStart(zip: ZipFile, entry: Entry, fileName: string): Promise<number> {
  try {
    return (await zip.readLocalFileHeaderPromise(entry, { minimal: true })).fileDataStart;
  } catch (err) {
    throw unreadable(fileName, err);
  }
}

/**
 * Inflates one part into at most the size its directory entry declares (zlib stops
 * there: maxOutputLength), and throws the output away. One native call per part: a
 * streamed inflate cost several times as much for a 100,000-row sheet.
 */
function inflateWithin(data: Buffer, entry: Entry, start: number, fileName: string, limit: number): void {
  const end = start + entry.compressedSize;
  if (end > data.length) throw unreadable(fileName, new Error(`${entry.fileName} runs past the end of the file`));
  const stored = data.subarray(start, end);
  let xml: Buffer;
  if (entry.compressionMethod === 0) xml = stored;
  else if (entry.compressionMethod === 8) {
    try {
      xml = inflateRawSync(stored, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw tooLarge(fileName, limit, `${entry.fileName} inflates to more than the size its zip directory declares`);
      }
      throw unreadable(fileName, err);
    }
  } else {
    throw unreadable(fileName, new Error(`${entry.fileName} uses compression method ${entry.compressionMethod}, which Excel does not write`));
  }
  const size = xml.length;
  if (size > entry.uncompressedSize) throw tooLarge(fileName, limit, `${entry.fileName} is larger than the size its zip directory declares`);
  if (size < entry.uncompressedSize) throw unreadable(fileName, new Error(`${entry.fileName} is shorter than its zip directory says`));
  scanXml(xml, entry.fileName, fileName);
  if (/^xl\/worksheets\/[^/]+\.xml$/i.test(entry.fileName)) countRows(xml, fileName);
}

/**
 * Rows a workbook's sheet may have: the reader holds a sheet's every cell at once, and an
 * 800,000-row sheet (6.5 MB on disk, under the size bound) exhausted the heap. Ten
 * campaigns' worth with --split; a CSV is read as a stream and has no such bound.
 */
export const MAX_WORKBOOK_ROWS = 100_000;
const ROW_TAG = Buffer.from('<row');

/** Counts the sheet's rows (`<row …>` tags) in the XML already inflated, and stops past the bound. */
function countRows(xml: Buffer, fileName: string): void {
  let rows = 0;
  for (let i = xml.indexOf(ROW_TAG); i !== -1; i = xml.indexOf(ROW_TAG, i + ROW_TAG.length)) {
    const next = xml[i + ROW_TAG.length];
    // `<row ` or `<row>`, not `<rowBreaks`.
    if (next !== 0x20 && next !== 0x3e && next !== 0x09 && next !== 0x0a && next !== 0x0d) continue;
    if (++rows > MAX_WORKBOOK_ROWS) {
      throw new UsageError(`${fileName} has a sheet of more than ${grouped(MAX_WORKBOOK_ROWS)} rows, more than voicectl reads from a workbook (a campaign takes ${grouped(MAX_CONTACTS_PER_CAMPAIGN)} contacts; --split makes several).`, {
        hint: `Save the sheet as "CSV UTF-8" (read as a stream, with no such bound) and pass it with --split, or split the workbook into files of at most ${grouped(MAX_WORKBOOK_ROWS)} rows.`,
      });
    }
  }
}

/**
 * One pass over a part's XML, linear in its size: refuses a text run or a tag past the
 * bounds above, and a part whose tags are mostly whitespace (linear for the reader, but
 * 8 s for 60 MB). '<' cannot appear in text or in an attribute value, so it starts every
 * token; comments, CDATA and processing instructions run to their own terminators.
 */
function scanXml(xml: Buffer, part: string, fileName: string): void {
  const n = xml.length;
  let tagSpace = 0;
  let i = 0;
  while (i < n) {
    const lt = xml.indexOf(0x3c, i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd - i > MAX_XML_TEXT_BYTES) throw notWritten(fileName, part, `${size(textEnd - i)} of ${allSpace(xml, i) ? 'whitespace' : 'text'} between two tags`, `text runs of up to ${size(MAX_XML_TEXT_BYTES)}`);
    if (lt === -1) break;
    let end: number;
    const next = xml[lt + 1];
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const close = next === 0x3f ? '?>' : xml.subarray(lt, lt + 4).toString('latin1') === '<!--' ? '-->' : xml.subarray(lt, lt + 9).toString('latin1') === '<![CDATA[' ? ']]>' : '>';
      const at = xml.indexOf(close, lt + 2, 'latin1');
      end = at === -1 ? n : at + close.length;
      if (end - lt > MAX_XML_TEXT_BYTES) throw notWritten(fileName, part, `a ${size(end - lt)} ${close === '-->' ? 'comment' : close === ']]>' ? 'CDATA section' : 'declaration'}`, `text runs of up to ${size(MAX_XML_TEXT_BYTES)}`);
    } else {
      // A tag: to the '>' outside quotes (an attribute value may hold '>').
      let quote = 0;
      let j = lt + 1;
      for (; j < n; j++) {
        if (j - lt > MAX_XML_TAG_BYTES) throw notWritten(fileName, part, `a tag longer than ${size(MAX_XML_TAG_BYTES)}${allSpace(xml, j - MAX_XML_TAG_BYTES / 2, MAX_XML_TAG_BYTES / 2) ? ', of whitespace' : ''}`, `tags of up to ${size(MAX_XML_TAG_BYTES)}`);
        const b = xml[j]!;
        if (quote !== 0) {
          if (b === quote) quote = 0;
        } else if (b === 0x3e) {
          break;
        } else if (b === 0x22 || b === 0x27) {
          quote = b;
        } else if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
          tagSpace++;
        }
      }
      end = j + 1;
    }
    i = end;
  }
  if (tagSpace > 1024 * 1024 && tagSpace > n * MAX_TAG_SPACE_SHARE) {
    throw notWritten(fileName, part, `${size(tagSpace)} of whitespace inside its tags, ${Math.round((tagSpace / n) * 100)}% of the part`, 'no more than a space between attributes');
  }
}

function allSpace(xml: Buffer, from: number, length = 64 * 1024): boolean {
  const end = Math.min(xml.length, from + length);
  for (let k = Math.max(0, from); k < end; k++) {
    const b = xml[k];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

function notWritten(fileName: string, part: string, what: string, bound: string): UsageError {
  return new UsageError(`${fileName}: no spreadsheet program wrote this workbook: ${part} holds ${what} (voicectl reads ${bound}).`, {
    hint: 'Open it in Excel and save it again as .xlsx, or export the sheet as CSV UTF-8 and use that.',
  });
}

/** "96.0 MB", "300 KB". */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** The central directory's entries, one at a time (lazyEntries). */
async function* entries(zip: ZipFile, fileName: string): AsyncGenerator<Entry> {
  for (;;) {
    const next = firstEvent(zip, ['entry', 'end', 'error']);
    zip.readEntry();
    const { name, args } = await next;
    if (name === 'error') throw unreadable(fileName, args[0]);
    if (name === 'end') return;
    yield args[0] as Entry;
  }
}

function tooLarge(fileName: string, limit: number, why: string): UsageError {
  return new UsageError(`${fileName}: the workbook is too large when uncompressed (${why}; voicectl reads at most ${mb(limit)}).`, {
    hint: 'A contacts sheet of 10,000 rows is a few MB. Save just the sheet with the contacts as CSV UTF-8 (or a new .xlsx) and use that.',
  });
}

function unreadable(fileName: string, err: unknown): UsageError {
  return new UsageError(`${fileName} is not a readable .xlsx workbook: ${(err as Error)?.message ?? String(err)}`, {
    hint: 'Open it in Excel and save it again as .xlsx, or export the sheet as CSV UTF-8.',
  });
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MB`;
}
