import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobState, listItems, multipartBody, uploadFile } from '../../src/api/kb.js';
import { collectFiles } from '../../src/kb/collect.js';
import { UsageError } from '../../src/errors.js';
import { client, json, serve, type TestServer } from '../api/helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-kb-unit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: TestServer[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function files(root: string, map: Record<string, string>): string {
  for (const [rel, text] of Object.entries(map)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('collectFiles', () => {
  it('keeps a folder\'s subfolders under --folder, reads extensions case-insensitively, and leaves out hidden entries', async () => {
    const root = files(join(dir, 'docs'), {
      'a.PDF': '%PDF', 'sub/b.docx': 'x', 'sub/deeper/c.Xlsx': 'x', 'd.rst': 'x', 'e.xls': 'x', '.hidden/f.md': 'x', '.g.md': 'x', 'h.exe': 'x',
    });
    const plan = await collectFiles(dir, [root, join(root, 'd.rst')], '/kb//base/');
    expect(plan.files.map((f) => f.path)).toEqual(['kb/base/a.PDF', 'kb/base/d.rst', 'kb/base/e.xls', 'kb/base/sub/b.docx', 'kb/base/sub/deeper/c.Xlsx']);
    expect(plan.files.find((f) => f.name === 'b.docx')!.folder).toBe('kb/base/sub');
    expect(plan.skipped).toEqual([{ display: join('docs', 'h.exe'), reason: '.exe files are not accepted (accepted: PDF, DOCX, XLSX, XLS, CSV, TXT, MD, RST)' }]);
    expect(plan.hidden).toBe(2);
  });

  it('skips a second file that would land on the same name and folder, and a link to a folder', async () => {
    const one = files(join(dir, 'one'), { 'faq.md': 'one' });
    const two = files(join(dir, 'two'), { 'faq.md': 'two' });
    symlinkSync(join(dir, 'one'), join(two, 'loop'));
    const plan = await collectFiles(dir, [one, two], undefined);
    expect(plan.files.map((f) => f.display)).toEqual([join('one', 'faq.md')]);
    expect(plan.skipped.map((s) => s.reason)).toEqual([`same name and folder as ${join('one', 'faq.md')}, which it would replace (faq.md)`, 'a link to a folder (links to folders are not followed)']);
  });

  it('refuses paths that do not exist before anything is uploaded', async () => {
    const err = await collectFiles(dir, ['missing.pdf', 'also-missing'], undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('Cannot upload missing.pdf (no such file or folder), also-missing (no such file or folder).');
  });
});

describe('the multipart body', () => {
  it('declares exactly the length it sends, and parses as a form with the file and the folder', async () => {
    const path = join(dir, 'Preise "neu" ✓.csv');
    writeFileSync(path, 'item,price\ncoffee,40\n');
    const body = multipartBody(path, { size: 21, folder: 'menü/2025' });
    const chunks: Buffer[] = [];
    for await (const c of body.stream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).toBe(body.length);
    const form = await new Response(bytes, { headers: { 'content-type': body.contentType } }).formData();
    const file = form.get('file') as File;
    // Quotes travel escaped, as browsers send them, and come back whole.
    expect(file.name).toBe('Preise "neu" ✓.csv');
    expect(file.type).toBe('text/csv');
    expect(await file.text()).toBe('item,price\ncoffee,40\n');
    expect(form.get('folder')).toBe('menü/2025');
  });

  it('fails rather than sending a body of the wrong length when the file changed size', async () => {
    const path = join(dir, 'grew.txt');
    writeFileSync(path, 'longer than it was');
    const body = multipartBody(path, { size: 5 });
    await expect((async () => {
      for await (const _ of body.stream) { /* drain */ }
    })()).rejects.toThrow('changed while it was being uploaded');
  });
});

describe('the knowledge-base api', () => {
  it('accepts a list as a bare array, {items}, or an object with one array field, paging through them', async () => {
    const shapes: unknown[] = [
      [{ id: 'a', name: 'a.md' }],
      { items: [{ id: 'b', name: 'b.md' }], total: 1 },
      { folder: 'x', documents: [{ id: 'c', name: 'c.md' }] },
    ];
    const server = await serve((_req, res, _body, n) => json(res, 200, shapes[n - 1]));
    servers.push(server);
    const c = client(server.url);
    closers.push(c.close);
    expect((await listItems(c.api)).map((i) => i.id)).toEqual(['a']);
    expect((await listItems(c.api, 'x')).map((i) => i.id)).toEqual(['b']);
    expect((await listItems(c.api, 'x')).map((i) => i.id)).toEqual(['c']);
    expect(server.requests[1]!.url).toBe('/kb/items?folder=x&limit=200&offset=0');
  });

  it('reads the upload answer as {item, job_id} or as a bare item, and never retries the POST', async () => {
    const path = join(dir, 'one.md');
    writeFileSync(path, '# One');
    const answers = [
      (res: Parameters<typeof json>[0]) => json(res, 201, { item: { id: 'i1', name: 'one.md' }, job_id: 'j1' }),
      (res: Parameters<typeof json>[0]) => json(res, 200, { id: 'i2', name: 'one.md', job_id: 'j2' }),
      (res: Parameters<typeof json>[0]) => json(res, 503, { error: 'busy', status_code: 503 }),
    ];
    const server = await serve((_req, res, _body, n) => answers[n - 1]!(res));
    servers.push(server);
    const c = client(server.url);
    closers.push(c.close);
    expect(await uploadFile(c.api, path, { size: 5 })).toMatchObject({ item: { id: 'i1' }, job_id: 'j1' });
    expect(await uploadFile(c.api, path, { size: 5, folder: 'f' })).toMatchObject({ item: { id: 'i2' }, job_id: 'j2' });
    await expect(uploadFile(c.api, path, { size: 5 })).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.headers['content-length']).toBe(String(Buffer.byteLength(server.requests[0]!.body)));
  });

  it('reads job states and their near synonyms', () => {
    expect(['completed', 'SUCCEEDED', 'done'].map((status) => jobState({ status }))).toEqual(['completed', 'completed', 'completed']);
    expect(['failed', 'error'].map((status) => jobState({ status }))).toEqual(['failed', 'failed']);
    expect(['queued', 'processing', 'unknown'].map((status) => jobState({ status }))).toEqual(['pending', 'pending', 'pending']);
  });
});
