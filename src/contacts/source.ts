/**
 * Opening a contacts file: what it is (CSV text or an .xlsx workbook), how its text is
 * encoded, and the file-level problems a person can fix (missing, a directory, empty,
 * binary, not UTF-8), each as a UsageError before any row is read.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { UsageError } from '../errors.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export type Source =
  | { kind: 'xlsx'; path: string; name: string; size: number }
  | { kind: 'text'; path: string; name: string; size: number; encoding: TextEncoding };

const HEAD_BYTES = 64 * 1024;
/**
 * Small pieces keep the main thread's memory low: papaparse's rows for one piece are all
 * alive at once, and larger pieces made V8 grow its young generation to its maximum. With
 * the young generation kept small (src/util/short-run.ts), a collection during a piece
 * moves its rows to the old generation: 16 KB pieces touch 700 fewer fresh pages than
 * 32 KB ones in a 10,000-row check (353 against 360 ms; 85,000 rows the same).
 */
const READ_CHUNK_BYTES = 16 * 1024;

const SAVE_AS_UTF8 = 'In Excel use File > Save As > "CSV UTF-8 (Comma delimited)"; in Google Sheets use File > Download > CSV.';

export async function openSource(path: string): Promise<Source> {
  const name = basename(path);
  let size: number;
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw new UsageError(`${path} is a directory, not a contacts file.`, { hint: 'Pass a .csv or .xlsx file.' });
    if (!st.isFile()) throw new UsageError(`${path} is not a regular file.`, { hint: 'Pass a .csv or .xlsx file.' });
    size = st.size;
  } catch (err) {
    throw fileError(err, path);
  }
  if (size === 0) throw emptyFile(name);

  let head: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(Math.min(HEAD_BYTES, size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw fileError(err, path);
  }

  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { kind: 'xlsx', path, name, size };
  if (/\.xlsx$/i.test(path)) {
    throw new UsageError(`${name} is named .xlsx but is not an Excel workbook.`, { hint: 'Open it in Excel and save it again as .xlsx, or export it as CSV UTF-8.' });
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new UsageError(`${name} is an old Excel 97-2003 (.xls) workbook, which voicectl cannot read.`, {
      hint: 'Open it in Excel and save it as .xlsx or as "CSV UTF-8 (Comma delimited)".',
    });
  }
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { kind: 'text', path, name, size, encoding: 'utf-8' };
  if (startsWith(head, [0xff, 0xfe])) return { kind: 'text', path, name, size, encoding: 'utf-16le' };
  if (startsWith(head, [0xfe, 0xff])) return { kind: 'text', path, name, size, encoding: 'utf-16be' };

  if (head.includes(0)) {
    if (looksLikeUtf16WithoutBom(head)) {
      throw new UsageError(`${name} looks like UTF-16 text without a byte-order mark, which voicectl cannot read reliably.`, { hint: SAVE_AS_UTF8 });
    }
    throw binaryFile(name);
  }
  // A head that is mostly control characters is some binary format that happens to have no NUL in it.
  if (controlRatio(head) > 0.1) throw binaryFile(name);
  return { kind: 'text', path, name, size, encoding: 'utf-8' };
}

/**
 * The file's text in pieces, decoded strictly: a byte sequence that is not valid in the
 * file's encoding, or a NUL character, stops the read with a message that names the line.
 */
export async function* readText(source: Extract<Source, { kind: 'text' }>, signal?: AbortSignal): AsyncGenerator<string> {
  const decoder = new TextDecoder(source.encoding, { fatal: true });
  let line = 1;
  const stream = createReadStream(source.path, { highWaterMark: READ_CHUNK_BYTES, signal });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw notDecodable(source, line + countLines(new TextDecoder(source.encoding).decode(chunk), '\uFFFD'));
      }
      const nul = text.indexOf('\0');
      if (nul !== -1) throw binaryFile(source.name, line + countLines(text, '\0'));
      line += countLines(text);
      if (text.length > 0) yield text;
    }
    let rest: string;
    try {
      rest = decoder.decode();
    } catch {
      throw notDecodable(source, line);
    }
    if (rest.length > 0) yield rest;
  } catch (err) {
    if (err instanceof UsageError || signal?.aborted) throw err;
    throw fileError(err, source.path);
  } finally {
    stream.destroy();
  }
}

/** Newlines before the first `stop` character (all of them when there is none). */
function countLines(text: string, stop?: string): number {
  const end = stop === undefined ? text.length : (text.indexOf(stop) === -1 ? text.length : text.indexOf(stop));
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function notDecodable(source: Extract<Source, { kind: 'text' }>, line: number): UsageError {
  if (source.encoding === 'utf-8') {
    return new UsageError(`${source.name} is not UTF-8 text: line ${line} has bytes that are not valid UTF-8.`, {
      hint: `It was probably saved in a legacy encoding such as Windows-1252. ${SAVE_AS_UTF8}`,
    });
  }
  return new UsageError(`${source.name} starts with a ${source.encoding.toUpperCase()} byte-order mark, but line ${line} is not valid ${source.encoding.toUpperCase()}.`, {
    hint: SAVE_AS_UTF8,
  });
}

function binaryFile(name: string, line?: number): UsageError {
  const where = line === undefined ? '' : ` (line ${line} has a NUL byte)`;
  return new UsageError(`${name} is not a text spreadsheet: it looks like a binary file${where}.`, {
    hint: 'voicectl reads CSV files (comma, semicolon or tab separated, UTF-8 or UTF-16) and .xlsx workbooks.',
  });
}

export function emptyFile(name: string): UsageError {
  return new UsageError(`${name} is empty.`, { hint: 'Export the sheet again with a header row (for example name,phone) and one contact per row.' });
}

function fileError(err: unknown, path: string): unknown {
  if (err instanceof UsageError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new UsageError(`File not found: ${path}`, { hint: 'Check the path; it is read relative to the current directory.' });
    case 'EISDIR':
      return new UsageError(`${path} is a directory, not a contacts file.`, { hint: 'Pass a .csv or .xlsx file.' });
    case 'EACCES':
    case 'EPERM':
      return new UsageError(`Cannot read ${path}: permission denied.`);
    default:
      return new UsageError(`Cannot read ${path}: ${(err as Error)?.message ?? String(err)}`);
  }
}

function startsWith(buf: Buffer, bytes: number[]): boolean {
  return buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);
}

/** ASCII text in UTF-16 has a NUL in every other byte. */
function looksLikeUtf16WithoutBom(head: Buffer): boolean {
  const n = Math.min(head.length, 1024) & ~1;
  if (n < 8) return false;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZeros++;
    if (head[i + 1] === 0) oddZeros++;
  }
  const half = n / 2;
  return (oddZeros > half * 0.6 && evenZeros < half * 0.1) || (evenZeros > half * 0.6 && oddZeros < half * 0.1);
}

function controlRatio(head: Buffer): number {
  const n = Math.min(head.length, 4096);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control++;
  }
  return n === 0 ? 0 : control / n;
}
