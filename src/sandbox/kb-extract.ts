/**
 * What the sandbox's indexing worker does with an upload: accept only the spec's formats,
 * extract the text really present, and count the chunks it would index. A file with no
 * readable text fails, as on the service.
 */
import { PdfError, pdfText } from './kb-pdf.js';
import { ZipError, docxText, xlsxText } from './kb-zip.js';

export const KB_FORMATS = ['pdf', 'docx', 'xlsx', 'xls', 'csv', 'txt', 'md', 'rst'] as const;
export type KbFormat = (typeof KB_FORMATS)[number];

/** Spec section 8: 50 MB per upload. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Characters per indexed chunk; chunks break at paragraphs, then lines, then words. */
export const CHUNK_CHARS = 1000;

export function formatOf(fileName: string): KbFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 && !fileName.startsWith('.')) return undefined;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return (KB_FORMATS as readonly string[]).includes(ext) ? (ext as KbFormat) : undefined;
}

/** Plain-text formats: honour a BOM, otherwise UTF-8 (invalid bytes become U+FFFD and count against readability). */
function decodeText(buf: Buffer): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.toString('utf8', 3);
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) {
    const be = Buffer.from(buf.subarray(2, buf.length - (buf.length % 2)));
    return be.swap16().toString('utf16le');
  }
  return new TextDecoder('utf-8').decode(buf);
}

// Names every legacy Excel file carries in its container and styles; not the user's text.
const XLS_NOISE = /^(Root Entry|Workbook|Book|SummaryInformation|DocumentSummaryInformation|CompObj|Microsoft Excel.*|Biff\d|Excel\.Sheet\.\d+|Calibri|Arial|Cambria|General|Sheet\d+|Normal)$/;

/** Legacy .xls (BIFF in an OLE2 container): the printable runs, which is where its strings live. */
function xlsText(buf: Buffer): string {
  if (buf.length < 8 || buf.readUInt32BE(0) !== 0xd0cf11e0 || buf.readUInt32BE(4) !== 0xa1b11ae1) {
    throw new ExtractError('not an Excel 97-2003 workbook (no OLE2 header)');
  }
  const runs: string[] = [];
  for (const m of buf.toString('latin1').matchAll(/[\x20-\x7e\xa0-\xff]{4,}/g)) runs.push(m[0]);
  for (const m of buf.toString('utf16le').matchAll(/[\x20-\x7e\u00a0-\u024f\u0900-\u097f]{4,}/g)) runs.push(m[0]);
  return runs
    .map((r) => r.trim())
    .filter((r) => r && !XLS_NOISE.test(r) && /[\p{L}\p{N}]{2}/u.test(r))
    .join('\n');
}

class ExtractError extends Error {}

export interface Extracted {
  text: string;
  /** Why a file with no text may have none, appended to the job's error. */
  hint?: string;
}

export function extractText(format: KbFormat, buf: Buffer): Extracted {
  try {
    switch (format) {
      case 'txt':
      case 'md':
      case 'rst':
      case 'csv':
        return { text: decodeText(buf) };
      case 'docx':
        return { text: docxText(buf) };
      case 'xlsx':
        return { text: xlsxText(buf) };
      case 'xls':
        return { text: xlsText(buf) };
      case 'pdf': {
        const { text, images } = pdfText(buf);
        return images > 0 ? { text, hint: 'it looks like a scanned PDF (images only), and the sandbox does not run OCR' } : { text };
      }
    }
  } catch (err) {
    if (err instanceof ZipError || err instanceof PdfError || err instanceof ExtractError) {
      throw new ExtractError(`cannot read ${format.toUpperCase()}: ${err.message}`);
    }
    throw err;
  }
}

function splitToFit(text: string, size: number, separators: readonly string[]): string[] {
  if (text.length <= size) return [text];
  const [sep, ...rest] = separators;
  if (sep === undefined) {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
    return out;
  }
  return text
    .split(sep)
    .filter((part) => part.trim() !== '')
    .flatMap((part) => splitToFit(part, size, rest));
}

/** Greedy chunks of at most `size` characters, never breaking inside a word that fits. */
export function chunkText(text: string, size: number = CHUNK_CHARS): string[] {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!clean) return [];
  const chunks: string[] = [];
  let current = '';
  for (const piece of splitToFit(clean, size, ['\n\n', '\n', ' '])) {
    const p = piece.trim();
    if (!p) continue;
    if (current && current.length + 1 + p.length > size) {
      chunks.push(current);
      current = p;
    } else {
      current = current ? `${current}\n${p}` : p;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

// Control characters (other than whitespace) and replacement characters: what binary or
// glyph-encoded bytes turn into when read as text.
const JUNK = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/g;

export type IndexOutcome = { ok: true; chunks: number; characters: number } | { ok: false; error: string };

/** The whole indexing job, run once at upload; the job's visible states then follow the clock. */
export function indexDocument(format: KbFormat, buf: Buffer): IndexOutcome {
  let extracted: Extracted;
  try {
    extracted = extractText(format, buf);
  } catch (err) {
    if (err instanceof ExtractError) return { ok: false, error: err.message };
    return { ok: false, error: `cannot read ${format.toUpperCase()}: ${(err as Error).message}` };
  }
  const visible = extracted.text.replace(/\s+/g, '');
  const junk = visible.match(JUNK)?.length ?? 0;
  const clean = extracted.text.replace(JUNK, '');
  const readable = visible.length > 0 && junk / visible.length < 0.1 && /[\p{L}\p{N}]/u.test(clean);
  const chunks = readable ? chunkText(clean) : [];
  if (chunks.length === 0) {
    const why = extracted.hint ? `: ${extracted.hint}` : '';
    return { ok: false, error: `no readable text found in the file${why}` };
  }
  return { ok: true, chunks: chunks.length, characters: chunks.reduce((n, c) => n + c.length, 0) };
}
