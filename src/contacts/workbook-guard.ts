/**
 * A workbook is a zip archive, and a small one can inflate to gigabytes (a 412 KB file
 * once took a minute and 2.3 GB of memory). Before the sheet is read, the zip's central
 * directory says how large its XML parts are when inflated: past the bound the file is
 * refused without inflating anything. A directory can lie, so each part is then inflated
 * once into a buffer no larger than the directory declared (zlib stops there) and thrown
 * away: a part that needs more is refused. The reader (read-excel-file's fflate build) inflates each part into
 * a buffer of exactly the declared size, so what was checked is what is read.
 */
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import type { Entry, Options, ZipFile } from 'yauzl';
import { UsageError } from '../errors.js';

/** Inflated size of a workbook's XML parts that voicectl reads (a 10,000-row sheet is a few MB). */
export const MAX_WORKBOOK_INFLATED_BYTES = 200 * 1024 * 1024;

/** The parts the sheet reader inflates; images and other media are never inflated. */
export function isReadPart(name: string): boolean {
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
  let size: number;
  if (entry.compressionMethod === 0) size = stored.length;
  else if (entry.compressionMethod === 8) {
    try {
      size = inflateRawSync(stored, { maxOutputLength: Math.max(1, entry.uncompressedSize) }).length;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw tooLarge(fileName, limit, `${entry.fileName} inflates to more than the size its zip directory declares`);
      }
      throw unreadable(fileName, err);
    }
  } else {
    throw unreadable(fileName, new Error(`${entry.fileName} uses compression method ${entry.compressionMethod}, which Excel does not write`));
  }
  if (size > entry.uncompressedSize) throw tooLarge(fileName, limit, `${entry.fileName} is larger than the size its zip directory declares`);
  if (size < entry.uncompressedSize) throw unreadable(fileName, new Error(`${entry.fileName} is shorter than its zip directory says`));
}

/** The central directory's entries, one at a time (lazyEntries). */
async function* entries(zip: ZipFile, fileName: string): AsyncGenerator<Entry> {
  for (;;) {
    const next = await new Promise<Entry | undefined>((resolve, reject) => {
      const onEntry = (e: Entry) => done(() => resolve(e));
      const onEnd = () => done(() => resolve(undefined));
      const onError = (err: unknown) => done(() => reject(unreadable(fileName, err)));
      const done = (f: () => void) => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
        f();
      };
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
    if (!next) return;
    yield next;
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
