/** Small real documents built in memory for the knowledge-base tests. */
import { deflateSync } from 'node:zlib';
import { part, zip as zipParts } from '../helpers/zip.js';

/** A ZIP archive of text files, deflated as Office writes them. */
function zip(files: Record<string, string>): Buffer {
  return zipParts(Object.entries(files).map(([name, text]) => part(name, text)));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function docx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  return zip({
    '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="x"><w:body>${body}<w:p><w:r><w:instrText>HYPERLINK "x"</w:instrText></w:r></w:p></w:body></w:document>`,
  });
}

export function xlsx(rows: Array<Array<string | number>>): Buffer {
  const shared: string[] = [];
  const sheetRows = rows.map((row, r) => `<row r="${r + 1}">${row.map((v, c) => {
    const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
    if (typeof v === 'number') return `<c r="${ref}"><v>${v}</v></c>`;
    shared.push(v);
    return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
  }).join('')}</row>`).join('');
  return zip({
    'xl/workbook.xml': '<workbook/>',
    'xl/sharedStrings.xml': `<sst count="${shared.length}">${shared.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`,
    'xl/worksheets/sheet1.xml': `<worksheet><sheetData>${sheetRows}</sheetData></worksheet>`,
  });
}

/** A one-page PDF whose content stream draws `lines`, deflated unless `plain`. */
export function pdf(lines: string[], { plain = false } = {}): Buffer {
  const ops = lines.map((l, i) => `BT /F1 12 Tf 72 ${720 - i * 14} Td (${l.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`).join('\n');
  const content = plain ? Buffer.from(ops, 'latin1') : deflateSync(Buffer.from(ops, 'latin1'));
  const filter = plain ? '' : ' /Filter /FlateDecode';
  return Buffer.concat([
    Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n', 'latin1'),
    Buffer.from(`4 0 obj << /Length ${content.length}${filter} >>\nstream\n`, 'latin1'),
    content,
    Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

/** A "scanned" PDF: one page that is only an image. */
export function scannedPdf(): Buffer {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 0xff, 0xd9]);
  return Buffer.concat([
    Buffer.from('%PDF-1.4\n1 0 obj << /Type /XObject /Subtype /Image /Width 1 /Height 1 /Filter /DCTDecode /Length 11 >>\nstream\n', 'latin1'),
    jpeg,
    Buffer.from('\nendstream\nendobj\n2 0 obj << /Length 22 >>\nstream\nq 612 0 0 792 0 0 cm Q\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);
}

/** Paragraphs of distinct words, `n` of them, each `len` characters long. */
export function paragraphs(n: number, len: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    let s = `Paragraph ${i + 1}.`;
    while (s.length < len) s += ' refund policy words';
    return s.slice(0, len);
  });
}
