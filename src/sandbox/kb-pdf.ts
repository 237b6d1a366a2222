/**
 * Text from a PDF's page content streams (uncompressed or FlateDecode), for counting
 * chunks. No fonts, no OCR: text drawn through custom glyph encodings or only present as
 * scanned images comes out empty or unreadable, and the indexing job fails as it should.
 */
import { inflateRawSync, inflateSync } from 'node:zlib';

const MAX_STREAM_BYTES = 200 * 1024 * 1024;

export class PdfError extends Error {}

export interface PdfText {
  text: string;
  /** Image streams seen: a PDF with images and no text is most likely a scan. */
  images: number;
}

function inflate(data: Buffer): Buffer | undefined {
  for (const fn of [inflateSync, inflateRawSync]) {
    try {
      return fn(data, { maxOutputLength: MAX_STREAM_BYTES });
    } catch {
      // try the next framing; some writers omit the zlib header
    }
  }
  return undefined;
}

function decodeBytes(bytes: number[]): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const be = Buffer.from(bytes.slice(2, bytes.length - (bytes.length % 2)));
    return be.swap16().toString('utf16le');
  }
  return Buffer.from(bytes).toString('latin1');
}

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };

/** Walks a content stream's operators and returns what Tj, TJ, ' and " draw. */
function contentStreamText(src: string): string {
  let out = '';
  let operands: Array<string | number | Array<string | number>> = [];
  let array: Array<string | number> | null = null;
  let i = 0;
  const push = (v: string | number) => (array ? array.push(v) : operands.push(v));
  while (i < src.length) {
    const c = src[i]!;
    if (c === '(') {
      const bytes: number[] = [];
      let depth = 1;
      i++;
      while (i < src.length && depth > 0) {
        const ch = src[i]!;
        if (ch === '\\') {
          const next = src[i + 1] ?? '';
          if (/[0-7]/.test(next)) {
            const oct = /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4))![0];
            bytes.push(parseInt(oct, 8) & 0xff);
            i += 1 + oct.length;
            continue;
          }
          if (next === '\r' || next === '\n') {
            i += next === '\r' && src[i + 2] === '\n' ? 3 : 2;
            continue;
          }
          bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
          i += 2;
          continue;
        }
        if (ch === '(') depth++;
        if (ch === ')' && --depth === 0) break;
        bytes.push(ch.charCodeAt(0));
        i++;
      }
      i++;
      push(decodeBytes(bytes));
    } else if (c === '<' && src[i + 1] !== '<') {
      const end = src.indexOf('>', i);
      if (end < 0) break;
      const hex = src.slice(i + 1, end).replace(/\s+/g, '');
      const bytes: number[] = [];
      for (let k = 0; k < hex.length; k += 2) bytes.push(parseInt(hex.slice(k, k + 2).padEnd(2, '0'), 16) || 0);
      push(decodeBytes(bytes));
      i = end + 1;
    } else if (c === '[') {
      array = [];
      i++;
    } else if (c === ']') {
      if (array) operands.push(array);
      array = null;
      i++;
    } else if (c === '%') {
      while (i < src.length && src[i] !== '\n' && src[i] !== '\r') i++;
    } else if (/[-+.\d]/.test(c)) {
      const m = /^[-+]?\d*\.?\d+/.exec(src.slice(i, i + 32));
      if (m) {
        push(Number(m[0]));
        i += m[0].length;
      } else i++;
    } else if (/[A-Za-z'"*]/.test(c)) {
      const m = /^[A-Za-z'"*]+/.exec(src.slice(i, i + 16))!;
      const op = m[0];
      i += op.length;
      if (op === 'Tj' || op === "'" || op === '"') {
        const s = operands.at(-1);
        if (op !== 'Tj') out += '\n';
        if (typeof s === 'string') out += s;
      } else if (op === 'TJ') {
        const arr = operands.at(-1);
        if (Array.isArray(arr)) {
          // A large negative adjustment is how many writers draw a space between words.
          for (const part of arr) out += typeof part === 'string' ? part : part < -200 ? ' ' : '';
        }
      } else if (op === 'T*' || op === 'ET') {
        out += '\n';
      } else if (op === 'Td' || op === 'TD') {
        const ty = operands.at(-1);
        out += typeof ty === 'number' && ty !== 0 ? '\n' : ' ';
      }
      operands = [];
    } else {
      i++;
    }
  }
  return out;
}

export function pdfText(buf: Buffer): PdfText {
  if (buf.subarray(0, 1024).indexOf('%PDF-') < 0) throw new PdfError('not a PDF file (no %PDF- header)');
  // latin1 keeps one char per byte, so offsets in the string are offsets in the buffer.
  const src = buf.toString('latin1');
  const texts: string[] = [];
  let images = 0;
  const streamRe = /stream(\r\n|\n|\r)/g;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(src))) {
    if (src.slice(m.index - 3, m.index) === 'end') continue;
    const start = m.index + m[0].length;
    const end = src.indexOf('endstream', start);
    if (end < 0) break;
    streamRe.lastIndex = end + 9;
    const objAt = src.lastIndexOf(' obj', m.index);
    const dict = src.slice(objAt < 0 ? Math.max(0, m.index - 2048) : objAt, m.index);
    if (/\/Subtype\s*\/Image|\/(DCTDecode|JPXDecode|CCITTFaxDecode|JBIG2Decode)/.test(dict)) {
      images++;
      continue;
    }
    // Fonts, cross-reference and metadata streams hold no page text.
    if (/\/Length[123]\b|\/Type\s*\/(XRef|Metadata|ObjStm)|\/Subtype\s*\/(Type1C|CIDFontType0C|OpenType)/.test(dict)) continue;
    let data: Buffer | undefined = buf.subarray(start, end);
    if (/\/FlateDecode|\/Fl\b/.test(dict)) data = inflate(data);
    else if (/\/Filter/.test(dict)) continue;
    if (!data) continue;
    const content = data.toString('latin1');
    if (!/\bBT\b/.test(content) || !/(Tj|TJ|')/.test(content)) continue;
    texts.push(contentStreamText(content));
  }
  return { text: texts.join('\n\n'), images };
}
