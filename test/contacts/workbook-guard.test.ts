import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateContactsFile } from '../../src/contacts/validate.js';
import { checkWorkbook, MAX_WORKBOOK_INFLATED_BYTES } from '../../src/contacts/workbook-guard.js';
import { UsageError } from '../../src/errors.js';
import { run } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';
import { part, sheetXml, workbook, type ZipPart } from './zip-writer.js';

const { file } = scratch();

const ROWS = [['name', 'phone'], ['Asha', '+919876543210'], ['Ravi', '09876543211']];
const MiB = 1024 * 1024;

/** 250 parts, each one MiB of XML when inflated and about 1 KB in the file. */
function bomb(): Buffer {
  const filler = part('x', `<a>${'x'.repeat(MiB / 4 - 7)}</a>`.repeat(4));
  const parts: ZipPart[] = Array.from({ length: 250 }, (_, i) => ({ ...filler, name: `xl/fill/part${i}.xml` }));
  return workbook(ROWS, (p) => p, parts);
}

describe('workbooks that inflate past the bound', () => {
  it('reads a small hand-made workbook (the control for the cases below)', async () => {
    const r = await validateContactsFile(file('ok.xlsx', workbook(ROWS)), { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts.map((c) => [c.name, c.phone_number])).toEqual([['Asha', '+919876543210'], ['Ravi', '+919876543211']]);
  });

  it('refuses a zip bomb from its directory, before inflating it (exit 2)', async () => {
    const path = file('bomb.xlsx', bomb());
    expect(statSync(path).size).toBeLessThan(600 * 1024);
    for (const argv of [
      ['contacts', 'validate', path],
      ['campaign', 'create', '--name', 'Bomb', '--agent', '00000000-0000-0000-0000-000000000000', '--csv', path, '--dry-run'],
    ]) {
      const r = await run(argv, { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('bomb.xlsx: the workbook is too large when uncompressed');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('counts only the parts the reader inflates: media can be large', async () => {
    const image = { ...part('x', Buffer.alloc(MiB, 1)), name: 'xl/media/image1.png' };
    await expect(checkWorkbook(workbook(ROWS, (p) => p, [image]), 'pic.xlsx', MiB / 2)).resolves.toBeUndefined();
    await expect(checkWorkbook(bomb(), 'bomb.xlsx', 300 * MiB)).resolves.toBeUndefined();
  });

  it('refuses a part that inflates to more than its directory declares', async () => {
    const many = [['name', 'phone'], ...Array.from({ length: 20_000 }, (_, i) => [`Lead ${i}`, `+9198765${String(10_000 + i)}`])];
    const lying = (p: ZipPart): ZipPart => ({ ...p, declaredSize: 1000 });
    const data = workbook(many, lying);
    expect(sheetXml(many).length).toBeGreaterThan(100 * 1000);
    const err = await checkWorkbook(data, 'lies.xlsx').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('lies.xlsx: the workbook is too large when uncompressed (xl/worksheets/sheet1.xml inflates to more than the size its zip directory declares; voicectl reads at most 64 MB).');
    const r = await run(['contacts', 'validate', file('lies.xlsx', data)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the workbook is too large when uncompressed');
  });

  it('the reader behind the check inflates no part past its declared size either', async () => {
    // What xlsx.ts relies on: read-excel-file's universal build (fflate) inflates into a
    // buffer of the declared size, so a lie the check missed could only cut the sheet short.
    const { readSheet } = await import('read-excel-file/universal');
    const many = [['name', 'phone'], ...Array.from({ length: 5000 }, (_, i) => [`Lead ${i}`, `+9198765${String(10_000 + i)}`])];
    const honest = workbook(many);
    const lying = workbook(many, (p) => ({ ...p, declaredSize: 2000 }));
    const asArrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    expect(await readSheet(asArrayBuffer(honest))).toHaveLength(5001);
    const read = await readSheet(asArrayBuffer(lying)).then((rows) => rows.length, () => 0);
    expect(read).toBeLessThan(100);
  });

  it('refuses a part shorter than its directory declares: a damaged file', async () => {
    const err = await checkWorkbook(workbook(ROWS, (p) => ({ ...p, declaredSize: p.size + 100 })), 'short.xlsx').catch((e: unknown) => e);
    expect((err as Error).message).toBe('short.xlsx is not a readable .xlsx workbook: xl/worksheets/sheet1.xml is shorter than its zip directory says');
  });

  it('says a damaged zip is not a readable workbook (exit 2)', async () => {
    const good = workbook(ROWS);
    const cut = good.subarray(0, good.length - 30);
    const r = await run(['contacts', 'validate', file('cut.xlsx', cut)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cut.xlsx is not a readable .xlsx workbook');
  });
});

/** The one-sheet workbook of ROWS with its sheet's XML edited. */
function edited(edit: (xml: string) => string): Buffer {
  return workbook(ROWS, (p) => part(p.name, edit(sheetXml(ROWS))));
}
const AGENT = '00000000-0000-4000-8000-000000000000';
const OFFLINE = { env: { VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'sk_x' } };

describe('whitespace bombs under and over the cap', () => {
  it('a 100 KB workbook of 96 MB of whitespace is refused from its directory, naming the file and the cap (exit 2)', async () => {
    const path = file('spaces.xlsx', edited((xml) => xml.replace('</row>', `</row>${' '.repeat(96 * MiB)}`)));
    expect(statSync(path).size).toBeLessThan(150 * 1024);
    expect(MAX_WORKBOOK_INFLATED_BYTES).toBe(64 * MiB);
    const leads = file('leads.csv', Buffer.from('name,phone\nAsha,+919876543210\n'));
    for (const argv of [
      ['contacts', 'validate', path],
      ['campaign', 'create', '--name', 'X', '--agent', AGENT, '--csv', leads, '--exclude', path, '--dry-run'],
    ]) {
      const r = await run(argv, OFFLINE);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('spaces.xlsx: the workbook is too large when uncompressed (its parts declare more than 64 MB; voicectl reads at most 64 MB).');
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    }
  });

  it.each([
    ['between two rows', (ws: string) => (xml: string) => xml.replace('</row>', `</row>${ws}`), 16 * MiB, 'spaces.xlsx: no spreadsheet program wrote this workbook: xl/worksheets/sheet1.xml holds 16.0 MB of whitespace between two tags (voicectl reads text runs of up to 256 KB).'],
    ['inside a cell', (ws: string) => (xml: string) => xml.replace('<t>Asha</t>', `<t>Asha${ws}</t>`), 16 * MiB, 'spaces.xlsx: no spreadsheet program wrote this workbook: xl/worksheets/sheet1.xml holds 16.0 MB of text between two tags (voicectl reads text runs of up to 256 KB).'],
    ['inside a tag', (ws: string) => (xml: string) => xml.replace('<row r="2"', `<row${ws}r="2"`), 2 * MiB, 'spaces.xlsx: no spreadsheet program wrote this workbook: xl/worksheets/sheet1.xml holds a tag longer than 64 KB, of whitespace (voicectl reads tags of up to 64 KB).'],
  ])('one run of whitespace %s, under the cap, is refused in one linear pass (exit 2)', async (_where, edit, bytes, message) => {
    const path = file('spaces.xlsx', edited(edit(' '.repeat(bytes))));
    const r = await run(['contacts', 'validate', path]);
    expect(r.stderr).toContain(message);
    expect(r.exitCode).toBe(2);
  });

  it('tags padded with whitespace throughout are refused: linear for the reader, but seconds of work', async () => {
    const many = [['name', 'phone'], ...Array.from({ length: 2000 }, (_, i) => [`Lead ${i}`, `+9198765${String(10_000 + i)}`])];
    const xml = sheetXml(many).replace(/<c r=/g, `<c${' '.repeat(1000)}r=`);
    const r = await run(['contacts', 'validate', file('padded.xlsx', workbook(many, (p) => part(p.name, xml)))]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/padded\.xlsx: no spreadsheet program wrote this workbook: xl\/worksheets\/sheet1\.xml holds 3\.8 MB of whitespace inside its tags, 9\d% of the part/);
  });

  it('reads what spreadsheet programs do write: a full 32,767-character cell of entities, ">" in an attribute, a comment', async () => {
    const quotes = '"'.repeat(32_767);
    const rows = [['name', 'phone', 'notes'], ['Asha', '+919876543210', quotes], ['Ravi', '09876543211', 'ok']];
    const xml = sheetXml(rows).replace('<sheetData>', '<!-- written by hand --><sheetData>')
      .replace('<row r="2"', '<row r="2" x:note="a > b"').replace(/<t>("+)<\/t>/, (_m, q: string) => `<t>${q.replace(/"/g, '&quot;')}</t>`);
    const r = await validateContactsFile(file('fine.xlsx', workbook(rows, (p) => part(p.name, xml))), { defaultCountry: 'IN', workers: 0 });
    expect(r.contacts.map((c) => c.phone_number)).toEqual(['+919876543210', '+919876543211']);
    expect((r.contacts[0]!.extra as { notes: string }).notes).toBe(quotes);
  });
});
