/**
 * A minimal zip writer for hostile workbooks no spreadsheet program would write: entries
 * whose directory declares any size, and bombs made of one small compressed part
 * repeated. Deflated entries only; sizes as given (or the truth by default).
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  /** The deflated bytes, and what they inflate to. */
  deflated: Buffer;
  crc: number;
  size: number;
  /** The size written in the headers (default: the true size). */
  declaredSize?: number;
}

export function part(name: string, text: string | Buffer): ZipPart {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return { name, deflated: deflateRawSync(data, { level: 9 }), crc: crc32(data), size: data.length };
}

export function zip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const size = p.declaredSize ?? p.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, p.deflated);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc >>> 0, 16);
    central.writeUInt32LE(p.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
  + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
  + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
  + '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const ROOT_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
  + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
  + '<sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
  + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

/** The XML of a sheet of inline-string rows. */
export function sheetXml(rows: string[][]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = rows.map((cells, r) => `<row r="${r + 1}">${cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${r + 1}" t="inlineStr"><is><t>${esc(c)}</t></is></c>`).join('')}</row>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

/** A one-sheet workbook; `sheet` replaces the sheet part (to make it lie about its size). */
export function workbook(rows: string[][], sheet: (p: ZipPart) => ZipPart = (p) => p, extra: ZipPart[] = []): Buffer {
  return zip([
    part('[Content_Types].xml', CONTENT_TYPES), part('_rels/.rels', ROOT_RELS), part('xl/workbook.xml', WORKBOOK),
    part('xl/_rels/workbook.xml.rels', WORKBOOK_RELS), sheet(part('xl/worksheets/sheet1.xml', sheetXml(rows))), ...extra,
  ]);
}
