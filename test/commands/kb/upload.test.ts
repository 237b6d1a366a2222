import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, sharedHarness } from '../../helpers/cli.js';
import { jobState, listItems, multipartBody, uploadFile } from '../../../src/api/kb.js';
import { collectFiles } from '../../../src/kb/collect.js';
import { UsageError } from '../../../src/errors.js';
import { client, json, serve, type TestServer } from '../../api/helpers.js';

describe('the built binary against the sandbox', () => {
  const h = sharedHarness();

  /** Writes files under a fresh folder; `size` entries make sparse files (no data written). */
  function tree(name: string, files: Record<string, string | { size: number }>): string {
    const root = join(h.dir, name);
    for (const [rel, content] of Object.entries(files)) {
      const path = join(root, rel);
      mkdirSync(join(path, '..'), { recursive: true });
      if (typeof content === 'string') writeFileSync(path, content);
      else {
        writeFileSync(path, '');
        truncateSync(path, content.size);
      }
    }
    return root;
  }

  const uploads = () => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/kb/items');

  interface Row {
    file: string;
    path?: string;
    id?: string;
    status: string;
    replaced?: boolean;
    job_id?: string;
    chunks_indexed?: number | null;
    index_status?: string;
    error?: string;
  }

  describe('kb upload', () => {
    it('uploads a folder recursively under --folder, skipping files of other formats and over 50 MB, and says why', async () => {
      const root = tree('policies', {
        'refunds.md': '# Refunds\nRefunds are paid within 30 days of a return.',
        'leave/annual.TXT': 'Annual leave is 24 days a year.',
        'leave/sick.csv': 'kind,days\nsick,12\n',
        'photo.png': 'not a document',
        'notes': 'no extension',
        'scans/huge.pdf': { size: 50 * 1024 * 1024 + 1 },
        '.DS_Store': 'junk',
      });
      const before = uploads().length;
      const r = await h.run(['kb', 'upload', root, '--folder', 'hr', '--json']);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toMatch(/Skipping 3 files/);
      expect(r.stderr).toMatch(/photo\.png: \.png files are not accepted \(accepted: PDF, DOCX, XLSX, XLS, CSV, TXT, MD, RST\)/);
      expect(r.stderr).toMatch(/notes: no file extension/);
      expect(r.stderr).toMatch(/huge\.pdf: 50\.0 MB is over the 50 MB upload limit/);
      expect(r.stderr).toContain('1 hidden file');
      const rows = JSON.parse(r.stdout) as Row[];
      const sent = rows.filter((x) => x.status === 'uploaded').map((x) => x.path).sort();
      expect(sent).toEqual(['hr/leave/annual.TXT', 'hr/leave/sick.csv', 'hr/refunds.md']);
      expect(rows.filter((x) => x.status === 'skipped')).toHaveLength(3);
      // Only the accepted files reached the service, each with its folder.
      const posted = uploads().slice(before);
      expect(posted).toHaveLength(3);
      expect(posted.every((p) => String(p.headers['content-type']).startsWith('multipart/form-data; boundary='))).toBe(true);

      const list = await h.run(['kb', 'list', '--folder', 'hr/leave', '--json']);
      expect(list.exitCode).toBe(0);
      expect((JSON.parse(list.stdout) as Array<{ name: string }>).map((i) => i.name).sort()).toEqual(['annual.TXT', 'sick.csv']);
    });

    it('a nonexistent path is exit 2 and uploads nothing; so is a run where every file is skipped', async () => {
      const before = uploads().length;
      const missing = await h.run(['kb', 'upload', join(h.dir, 'nope.pdf')]);
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toContain('no such file or folder');
      const root = tree('only-images', { 'a.jpg': 'x', 'b.gif': 'y' });
      const none = await h.run(['kb', 'upload', root]);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toContain('Nothing to upload');
      expect(uploads().length).toBe(before);
    });

    it('re-uploading the same name to the same folder says it replaced the file and kept its id', async () => {
      const root = tree('faq', { 'faq.md': 'Opening hours are 9 to 6.' });
      const first = await h.run(['kb', 'upload', join(root, 'faq.md'), '--folder', 'support', '--json']);
      const [a] = JSON.parse(first.stdout) as Row[];
      expect(a).toMatchObject({ status: 'uploaded', replaced: false });
      writeFileSync(join(root, 'faq.md'), 'Opening hours are 9 to 7 from Monday.');
      const second = await h.run(['kb', 'upload', join(root, 'faq.md'), '--folder', 'support']);
      expect(second.exitCode).toBe(0);
      expect(second.stdout).toMatch(new RegExp(`support/faq\\.md\\s+${a!.id}\\s+replaced the existing file \\(same id\\)`));
      expect(second.stderr).toContain('1 replaced an existing file of the same name and kept its id');
      const again = await h.run(['kb', 'upload', join(root, 'faq.md'), '--folder', 'support', '--json']);
      expect(JSON.parse(again.stdout)[0]).toMatchObject({ id: a!.id, status: 'replaced', replaced: true });
    });

    it('--wait follows indexing and ends with chunks or the error; a file with no readable text fails the run (exit 1)', async () => {
      const root = tree('mixed', {
        'guide.md': 'Delivery slots run from 9 am to 9 pm.\n\nCustomers may reschedule once.',
        'blank.txt': '.... ---- ....\n\n\t\n',
      });
      const r = await h.run(['kb', 'upload', root, '--folder', 'waited', '--wait']);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/FILE\s+ID\s+RESULT/);
      expect(r.stdout).toMatch(/waited\/guide\.md\s+\S+\s+1 chunk indexed/);
      expect(r.stdout).toMatch(/waited\/blank\.txt\s+\S+\s+indexing failed: no readable text/);
      expect(r.stderr).toContain('1 of 2 files uploaded and indexed');
      // Each job was followed until it finished.
      const polls = h.sandbox.requests.filter((q) => q.path.startsWith('/kb/index/status/'));
      expect(new Set(polls.map((q) => q.path)).size).toBeGreaterThanOrEqual(2);

      const json = await h.run(['kb', 'upload', join(root, 'guide.md'), '--folder', 'waited', '--wait', '--json']);
      expect(json.exitCode).toBe(0);
      expect(JSON.parse(json.stdout)[0]).toMatchObject({ status: 'replaced', index_status: 'completed', chunks_indexed: 1 });
    });

    it('kb status shows a job, and with --wait exits 1 when indexing failed', async () => {
      const root = tree('status', { 'empty.txt': '   \n' });
      const up = await h.run(['kb', 'upload', join(root, 'empty.txt'), '--json']);
      const job = (JSON.parse(up.stdout) as Row[])[0]!.job_id!;
      const waited = await h.run(['kb', 'status', job, '--wait', '--json']);
      expect(waited.exitCode).toBe(1);
      expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'failed', chunks_indexed: 0 });
      const plain = await h.run(['kb', 'status', job]);
      expect(plain.exitCode).toBe(0);
      expect(plain.stdout).toMatch(/status\s+failed/);
      const unknown = await h.run(['kb', 'status', 'job_missing']);
      expect(unknown.exitCode).toBe(4);
    });

    it('streams the file: a 40 MB upload costs far less memory than the file', async () => {
      // maxRSS of the CLI process, written at exit by a preloaded module (in KB on Linux).
      const probe = join(h.dir, 'rss.mjs');
      writeFileSync(probe, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.RSS_OUT, String(process.resourceUsage().maxRSS)));\n");
      const root = tree('big', { 'tiny.txt': 'A tiny document about delivery slots.' });
      // Blanks rather than a sparse file's zeros: the sandbox sees "no text" in them quickly.
      const mb = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 40; i++) appendFileSync(join(root, 'large.txt'), mb);
      const peak = async (file: string) => {
        const out = join(h.dir, `rss-${file}`);
        const r = await execa(process.execPath, ['--import', pathToFileURL(probe).href, BIN, 'kb', 'upload', join(root, file), '--folder', 'big'], {
          reject: false, extendEnv: false, env: { ...h.env, RSS_OUT: out },
        });
        expect(r.exitCode, String(r.stderr)).toBe(0);
        return Number(readFileSync(out, 'utf8')) / 1024;
      };
      const baseline = await peak('tiny.txt');
      // The better of two runs: garbage collection timing adds a few MB of noise to any one.
      const large = Math.min(await peak('large.txt'), await peak('large.txt'));
      const received = uploads().at(-1)!;
      expect(Number(received.headers['content-length'])).toBeGreaterThan(40 * 1024 * 1024);
      // Reading the file whole adds its 40 MB and more (measured: +41 MB); streaming ~+15 MB.
      expect(large - baseline).toBeLessThan(30);
    });
  });

  describe('kb delete', () => {
    it('asks first, says a folder takes everything in it, and needs --yes under --no-input', async () => {
      const root = tree('to-delete', { 'a.md': 'Alpha document text.', 'sub/b.md': 'Beta document text.' });
      await h.run(['kb', 'upload', root, '--folder', 'trash/bin']);
      const top = JSON.parse((await h.run(['kb', 'list', '--json'])).stdout) as Array<{ id: string; name: string; type: string }>;
      const trash = top.find((i) => i.name === 'trash')!;
      expect(trash.type).toBe('folder');

      const refused = await h.run(['kb', 'delete', trash.id, '--no-input']);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('Delete the folder "trash"');
      expect(refused.stderr).toContain('everything in it');
      expect(refused.stderr).toContain('--yes');
      expect(h.sandbox.requests.some((q) => q.method === 'DELETE')).toBe(false);

      const r = await h.run(['kb', 'delete', trash.id, '--yes']);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toMatch(/Deleted the folder trash and the 4 items in it/);
      const after = await h.run(['kb', 'list', '--folder', 'trash/bin']);
      expect(after.exitCode).toBe(4);
      const gone = await h.run(['kb', 'delete', trash.id, '--yes']);
      expect(gone.exitCode).toBe(4);
    });
  });
});

describe('collecting files, and the knowledge-base api', () => {
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
});
