import { describe, expect, it } from 'vitest';
import { chunkText, CHUNK_CHARS, extractText, formatOf, indexDocument } from '../../src/sandbox/kb-extract.js';
import { docx, paragraphs, pdf, scannedPdf, xlsx } from './kb-fixtures.js';

describe('formatOf', () => {
  it('accepts the spec formats case-insensitively and nothing else', () => {
    for (const n of ['a.pdf', 'b.DOCX', 'c.xlsx', 'd.xls', 'e.csv', 'f.txt', 'g.Md', 'h.rst']) expect(formatOf(n)).toBeDefined();
    for (const n of ['a.png', 'b.doc', 'c.json', 'README', 'archive.tar.gz', 'x.pdf.exe']) expect(formatOf(n)).toBeUndefined();
  });
});

describe('chunkText', () => {
  it('keeps short text in one chunk and splits at paragraphs', () => {
    expect(chunkText('hello world')).toEqual(['hello world']);
    expect(chunkText('   \n\n  ')).toEqual([]);
    // Two 600-character paragraphs do not fit one 1000-character chunk together.
    expect(chunkText(paragraphs(5, 600).join('\n\n'))).toHaveLength(5);
    // Ten 90-character paragraphs do.
    expect(chunkText(paragraphs(10, 90).join('\n\n'))).toHaveLength(1);
  });

  it('splits a long paragraph at words, never above the chunk size', () => {
    const chunks = chunkText(paragraphs(1, 3500)[0]!);
    expect(chunks.length).toBe(4);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_CHARS);
  });
});

describe('extractText and indexDocument', () => {
  it('reads plain text formats, honouring a BOM', () => {
    const text = paragraphs(3, 700).join('\n\n');
    expect(indexDocument('txt', Buffer.from(text))).toMatchObject({ ok: true, chunks: 3 });
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('नमस्ते, refund policy', 'utf16le')]);
    expect(extractText('txt', bom).text).toBe('नमस्ते, refund policy');
    expect(indexDocument('md', Buffer.from('# Title\n\nSome *markdown* text.'))).toMatchObject({ ok: true, chunks: 1 });
  });

  it('counts CSV rows into chunks', () => {
    const rows = Array.from({ length: 100 }, (_, i) => `row ${i},+9198765${String(i).padStart(5, '0')},"Some note for row ${i}"`);
    const csv = ['id,phone,note', ...rows].join('\n');
    const longest = Math.max(...csv.split('\n').map((l) => l.length));
    const out = indexDocument('csv', Buffer.from(csv));
    // Whole rows are packed greedily: at least total/size chunks, and at most one row's length wasted per chunk.
    expect(out.ok && out.chunks).toBeGreaterThanOrEqual(Math.ceil(csv.length / CHUNK_CHARS));
    expect(out.ok && out.chunks).toBeLessThanOrEqual(Math.ceil(csv.length / (CHUNK_CHARS - longest)));
  });

  it('fails a file with no readable text', () => {
    expect(indexDocument('txt', Buffer.alloc(0))).toMatchObject({ ok: false, error: expect.stringMatching(/no readable text/) });
    expect(indexDocument('txt', Buffer.from(' \n\t\n'))).toMatchObject({ ok: false });
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    expect(indexDocument('txt', binary)).toMatchObject({ ok: false, error: expect.stringMatching(/no readable text/) });
  });

  it('reads a DOCX body and not its field codes', () => {
    const text = extractText('docx', docx(['Refunds take 5 days.', 'Call us & <ask>.'])).text;
    expect(text).toContain('Refunds take 5 days.');
    expect(text).toContain('Call us & <ask>.');
    expect(text).not.toContain('HYPERLINK');
    expect(indexDocument('docx', docx(paragraphs(4, 800)))).toMatchObject({ ok: true, chunks: 4 });
  });

  it('reads XLSX shared strings and numbers by row', () => {
    const text = extractText('xlsx', xlsx([['Plan', 'Price'], ['Gold', 999], ['Silver', 499]])).text;
    expect(text.split('\n').slice(0, 3)).toEqual(['Plan\tPrice', 'Gold\t999', 'Silver\t499']);
  });

  it('reads PDF text from deflated and plain content streams', () => {
    expect(extractText('pdf', pdf(['Refund (policy) v2', 'Second line'])).text).toMatch(/Refund \(policy\) v2\s+Second line/);
    expect(extractText('pdf', pdf(['Plain stream text'], { plain: true })).text).toContain('Plain stream text');
    expect(indexDocument('pdf', pdf(['Hello world']))).toMatchObject({ ok: true, chunks: 1 });
  });

  it('fails a scanned PDF with a reason, and a corrupt file with what is wrong', () => {
    expect(indexDocument('pdf', scannedPdf())).toMatchObject({ ok: false, error: expect.stringMatching(/scanned.*OCR/) });
    expect(indexDocument('docx', Buffer.from('not a zip'))).toMatchObject({ ok: false, error: expect.stringMatching(/cannot read DOCX/) });
    expect(indexDocument('pdf', Buffer.from('hello'))).toMatchObject({ ok: false, error: expect.stringMatching(/not a PDF/) });
    expect(indexDocument('xls', Buffer.from('hello'))).toMatchObject({ ok: false, error: expect.stringMatching(/OLE2/) });
  });

  it('reads the strings of a legacy XLS container', () => {
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504), Buffer.from('Root Entry\0\0Workbook\0\0Customer Name\0\0Priority support plan\0'), Buffer.from('Hindi नमस्ते text', 'utf16le')]);
    const text = extractText('xls', ole).text;
    expect(text).toContain('Customer Name');
    expect(text).toContain('Priority support plan');
    expect(text).not.toContain('Root Entry');
  });
});
