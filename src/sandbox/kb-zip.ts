/**
 * Just enough of ZIP to read the XML inside DOCX and XLSX uploads with node:zlib,
 * so the sandbox can count real chunks without a document-parsing dependency.
 */
import { inflateRawSync } from 'node:zlib';

// An upload is at most 50 MB; cap what one entry may inflate to so a zip bomb fails the job instead of the process.
const MAX_ENTRY_BYTES = 200 * 1024 * 1024;

export class ZipError extends Error {}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

function findEndOfCentralDirectory(buf: Buffer): number {
  // The record is 22 bytes plus a comment of up to 65,535 bytes, at the very end.
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  }
  throw new ZipError('not a ZIP archive (no end of central directory)');
}

function listZipEntries(buf: Buffer): ZipEntry[] {
  if (buf.length < 22) throw new ZipError('not a ZIP archive (too short)');
  const eocd = findEndOfCentralDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > buf.length || buf.readUInt32LE(offset) !== 0x02014b50) {
      throw new ZipError('corrupt ZIP central directory');
    }
    const nameLength = buf.readUInt16LE(offset + 28);
    const extraLength = buf.readUInt16LE(offset + 30);
    const commentLength = buf.readUInt16LE(offset + 32);
    entries.push({
      method: buf.readUInt16LE(offset + 10),
      compressedSize: buf.readUInt32LE(offset + 20),
      localOffset: buf.readUInt32LE(offset + 42),
      name: buf.toString('utf8', offset + 46, offset + 46 + nameLength),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function readZipEntry(buf: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) throw new ZipError(`corrupt ZIP entry ${entry.name}`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) {
    try {
      return inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES });
    } catch (err) {
      throw new ZipError(`cannot inflate ${entry.name}: ${(err as Error).message}`);
    }
  }
  throw new ZipError(`unsupported ZIP compression method ${entry.method} in ${entry.name}`);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

function entryText(buf: Buffer, entries: ZipEntry[], name: string): string | undefined {
  const entry = entries.find((e) => e.name === name);
  return entry ? readZipEntry(buf, entry).toString('utf8') : undefined;
}

/** Paragraph text of a Word document, its headers, footers and notes. */
export function docxText(buf: Buffer): string {
  const entries = listZipEntries(buf);
  const parts = entries
    .map((e) => e.name)
    .filter((n) => /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/.test(n))
    .sort((a, b) => (a === 'word/document.xml' ? -1 : b === 'word/document.xml' ? 1 : a.localeCompare(b)));
  if (!parts.includes('word/document.xml')) throw new ZipError('not a Word document (no word/document.xml)');
  return parts
    .map((name) => {
      let out = '';
      // Only runs (<w:t>) are text; field codes and properties are not.
      for (const m of entryText(buf, entries, name)!.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:(tab|br|cr)\/>|<\/w:p>/g)) {
        if (m[1] !== undefined) out += decodeXmlText(m[1]);
        else if (m[2] === 'tab') out += '\t';
        else if (m[2]) out += '\n';
        else out += '\n\n';
      }
      return out;
    })
    .join('\n\n');
}

/** Cell values of every worksheet, one line per row and a tab between cells. */
export function xlsxText(buf: Buffer): string {
  const entries = listZipEntries(buf);
  const sheets = entries
    .map((e) => e.name)
    .filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (sheets.length === 0) throw new ZipError('not an Excel workbook (no worksheets)');
  const shared: string[] = [];
  const sst = entryText(buf, entries, 'xl/sharedStrings.xml');
  if (sst) {
    for (const si of sst.matchAll(/<si>([\s\S]*?)<\/si>/g)) {
      const runs = [...si[1]!.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((m) => decodeXmlText(m[1]!));
      shared.push(runs.join(''));
    }
  }
  const lines: string[] = [];
  for (const sheet of sheets) {
    const xml = entryText(buf, entries, sheet)!;
    for (const row of xml.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells: string[] = [];
      for (const cell of row[1]!.matchAll(/<c([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const attrs = cell[1] ?? '';
        const inner = cell[2] ?? '';
        const type = /\st="([^"]+)"/.exec(attrs)?.[1];
        if (type === 'inlineStr') {
          cells.push([...inner.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((m) => decodeXmlText(m[1]!)).join(''));
          continue;
        }
        const v = /<v>([^<]*)<\/v>/.exec(inner)?.[1];
        if (v === undefined) continue;
        cells.push(type === 's' ? (shared[Number(v)] ?? '') : decodeXmlText(v));
      }
      if (cells.some((c) => c.trim())) lines.push(cells.join('\t'));
    }
    lines.push('');
  }
  return lines.join('\n');
}
