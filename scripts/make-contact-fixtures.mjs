#!/usr/bin/env node
// Writes the contact fixtures that are awkward to keep as text: UTF-16 files (Excel's
// "Unicode text") and a small .xlsx workbook. Run it again after changing the rows below:
//   node scripts/make-contact-fixtures.mjs
// The output is committed; tests read the files, not this script.
import { writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../fixtures/contacts/', import.meta.url));

// Excel's "Unicode text": UTF-16LE with a byte-order mark, tab separated, CRLF.
const unicodeText = [
  ['Name', 'Mobile Number', 'City', 'Notes'],
  ['Anjali Deshmukh', '098765 43210', 'Pune', 'prefers मराठी'],
  ['Rahul Verma', '+91-99887-76655', 'Delhi', ''],
  ['', '', '', ''],
  ['Sunita Rao', '12345', 'Chennai', 'typo in number'],
  ['Vikram Singh', '+44 20 7946 0958', 'London', 'UK office'],
].map((r) => r.join('\t')).join('\r\n') + '\r\n';
writeFileSync(`${dir}unicode-text-utf16le.txt`, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(unicodeText, 'utf16le')]));

// The same idea big-endian, comma separated, as some Mac tools write it.
const be = 'name,phone,city\n"Meera Iyer",+91 98450 12345,Bengaluru\nKaran Mehta,0 80 2222 3333,Bengaluru\nNoor Khan,abc,Hyderabad\n';
writeFileSync(`${dir}utf16be.csv`, Buffer.concat([Buffer.from([0xfe, 0xff]), swap16(Buffer.from(be, 'utf16le'))]));

// UTF-16LE without a byte-order mark: refused with a message, not misread.
writeFileSync(`${dir}utf16-no-bom.csv`, Buffer.from('name,phone\nAsha,9876543210\n', 'utf16le'));

// Windows-1252 (Excel's plain "CSV" on Windows): é and ü are single bytes, not UTF-8.
writeFileSync(`${dir}windows-1252.csv`, Buffer.from('name,phone\nAsha,9876543210\nJos\xe9 M\xfcller,+49 30 901820\n', 'latin1'));

// Binary junk with a .csv name.
const junk = Buffer.alloc(512);
for (let i = 0; i < junk.length; i++) junk[i] = (i * 73 + 11) % 256;
writeFileSync(`${dir}binary.csv`, junk);

// An Excel 97-2003 workbook starts with the OLE2 signature; the rest does not matter here.
writeFileSync(`${dir}old-excel.xls`, Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]));

writeXlsx(`${dir}workbook.xlsx`, [
  // [row number, cells]; a row left out is an empty row in the sheet.
  [1, ['Full Name', 'Phone', 'Customer ID', 'Pincode', 'Signed up', 'Plan']],
  [2, ['Priya Sharma', { n: '919876543210' }, '007', { n: '560001' }, { date: '2024-03-15' }, 'Gold']],
  [3, ['Arjun Nair', '098470 12345', '0042', { n: '682001' }, null, 'Silver']],
  [5, ['Fatima Sheikh', '9.19876E+11', '0100', null, null, 'Gold']],
  [6, ['John Carter', '+1 415 555 2671', '0101', null, null, '']],
  [7, ['Duplicate Priya', '+91 98765 43210', '0102', null, null, 'Gold']],
]);

function swap16(buf) {
  for (let i = 0; i + 1 < buf.length; i += 2) [buf[i], buf[i + 1]] = [buf[i + 1], buf[i]];
  return buf;
}

function col(i) {
  return String.fromCharCode(65 + i);
}

function esc(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A minimal workbook as Excel writes it: shared strings, one sheet, a date style. */
function writeXlsx(path, rows) {
  const strings = [];
  const index = new Map();
  const sid = (s) => {
    if (!index.has(s)) {
      index.set(s, strings.length);
      strings.push(s);
    }
    return index.get(s);
  };
  const sheetRows = rows.map(([r, cells]) => {
    const cs = cells.map((v, i) => {
      const ref = `${col(i)}${r}`;
      if (v === null || v === '') return '';
      if (typeof v === 'string') return `<c r="${ref}" t="s"><v>${sid(v)}</v></c>`;
      if (v.n !== undefined) return `<c r="${ref}"><v>${v.n}</v></c>`;
      // Excel stores a date as days since 1899-12-30, with a date number format.
      const days = (Date.parse(`${v.date}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
      return `<c r="${ref}" s="1"><v>${days}</v></c>`;
    }).join('');
    return `<row r="${r}">${cs}</row>`;
  }).join('');
  const files = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Leads" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
  };
  files['xl/sharedStrings.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`;
  writeFileSync(path, zip(Object.entries(files).map(([name, text]) => [name, Buffer.from(text, 'utf8')])));
}

/** A ZIP archive with stored (uncompressed) entries: all an .xlsx reader needs. */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00, so the bytes never change
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    locals.push(local, nameBuf, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
