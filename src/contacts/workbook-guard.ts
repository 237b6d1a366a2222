/**
 * A workbook is a zip archive, and a small one can inflate to gigabytes (a 412 KB file
 * once took a minute and 2.3 GB of memory). Before the sheet is read, the zip's central
 * directory says how large its XML parts are when inflated: past the bound the file is
 * refused without inflating anything. A directory can lie, so each part is then inflated
 * once, counted and thrown away: yauzl stops a part the moment it yields more than the
 * directory declared. The reader (read-excel-file's fflate build) inflates each part into
 * a buffer of exactly the declared size, so what was checked is what is read.
 */
import { promisify } from 'node:util';
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
    let inflated = 0;
    for (const entry of parts) {
      let stream: NodeJS.ReadableStream;
      try {
        stream = await promisify<Entry, NodeJS.ReadableStream>(zip.openReadStream.bind(zip))(entry);
      } catch (err) {
        throw unreadable(fileName, err);
      }
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          inflated += chunk.length;
          // Unreachable while yauzl checks each part against its declared size; kept so the bound never depends on that.
          if (inflated > limit) throw tooLarge(fileName, limit, `it inflates past ${mb(limit)}`);
        }
      } catch (err) {
        if (err instanceof UsageError) throw err;
        if (/too many bytes/i.test((err as Error)?.message ?? '')) {
          throw tooLarge(fileName, limit, `${entry.fileName} inflates to more than the size its zip directory declares`);
        }
        throw unreadable(fileName, err);
      }
    }
  } finally {
    zip.close();
  }
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
