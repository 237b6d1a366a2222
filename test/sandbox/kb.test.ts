import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { jobView, type KbJob } from '../../src/sandbox/kb-store.js';
import { clientFor, type Res } from '../helpers/given.js';
import { docx, paragraphs, pdf, scannedPdf } from './kb-fixtures.js';

let sb: Sandbox;
const READER = 'sk_reader';
const OTHER = 'sk_other_org';

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    timeScale: 200,
    seed: 7,
    keys: [
      { key: 'sk_full', org: 'org_a', scopes: ['agents:read', 'agents:write', 'calls:write', 'calls:dispatch', 'calls:read', 'webhooks:manage'] },
      { key: READER, org: 'org_a', scopes: ['agents:read'] },
      { key: OTHER, org: 'org_b', scopes: ['agents:read', 'agents:write'] },
    ],
  });
});
afterAll(async () => {
  await sb?.close();
});

const api = (method: string, path: string, body?: unknown, key: string | null = sb.apiKey): Promise<Res> => clientFor(sb)(method, path, body, key);

async function upload(name: string, content: Buffer | string, folder?: string, key = sb.apiKey): Promise<Pick<Res, 'status' | 'body'>> {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  if (folder !== undefined) form.append('folder', folder);
  const res = await fetch(`${sb.url}/kb/items`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  return { status: res.status, body: await res.json() };
}

/** Polls the job to a final state, recording every status seen on the way. */
async function settle(jobId: string, key = sb.apiKey): Promise<any> {
  const seen: string[] = [];
  for (let i = 0; i < 400; i++) {
    const { status, body } = await api('GET', `/kb/index/status/${jobId}`, undefined, key);
    expect(status).toBe(200);
    if (seen.at(-1) !== body.status) seen.push(body.status);
    if (body.status === 'completed' || body.status === 'failed') return { ...body, seen };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${jobId} never finished`);
}

describe('POST /kb/items', () => {
  it('stores a file and returns the item and a job id', async () => {
    const text = paragraphs(5, 600).join('\n\n');
    const res = await upload('notes.txt', text);
    expect(res.status).toBe(201);
    expect(res.body.item).toMatchObject({ name: 'notes.txt', type: 'file', path: 'notes.txt', size_bytes: Buffer.byteLength(text) });
    expect(res.body.item.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.job_id).toBe('string');
  });

  it('indexes a TXT to completion with the real chunk count, passing through the states in order', async () => {
    const res = await upload('five.txt', paragraphs(5, 600).join('\n\n'));
    const job = await settle(res.body.job_id);
    expect(job).toMatchObject({ status: 'completed', chunks_indexed: 5, error: null });
    const order = ['queued', 'processing', 'completed'];
    const ranks = job.seen.map((s: string) => order.indexOf(s));
    expect(ranks.every((r: number, i: number) => r >= 0 && (i === 0 || r > ranks[i - 1]))).toBe(true);
  });

  it('counts chunks of DOCX, PDF, CSV and MD documents', async () => {
    const cases: Array<[string, Buffer | string, number]> = [
      ['guide.docx', docx(paragraphs(3, 900)), 3],
      ['brochure.pdf', pdf(['Our refund policy', 'covers thirty days']), 1],
      ['prices.csv', 'plan,price\ngold,999\nsilver,499\n', 1],
      ['faq.md', paragraphs(2, 700).map((p) => `## Q\n\n${p}`).join('\n\n'), 2],
    ];
    for (const [name, content, chunks] of cases) {
      const res = await upload(name, content);
      expect(res.status, name).toBe(201);
      expect(await settle(res.body.job_id), name).toMatchObject({ status: 'completed', chunks_indexed: chunks });
    }
  });

  it('fails the job for a file with no readable text', async () => {
    for (const [name, content] of [['empty.txt', ''], ['scan.pdf', scannedPdf()], ['binary.csv', Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 31) % 256))]] as const) {
      const res = await upload(name, content);
      expect(res.status).toBe(201);
      const job = await settle(res.body.job_id);
      expect(job.status, name).toBe('failed');
      expect(job.chunks_indexed).toBe(0);
      expect(job.error).toMatch(/no readable text/);
    }
  });

  it('replaces a same-named file in the same folder and keeps its id', async () => {
    const first = await upload('policy.txt', 'version one', 'replace-test');
    const second = await upload('policy.txt', 'version two, longer', 'replace-test');
    expect(second.status).toBe(200);
    expect(second.body.item.id).toBe(first.body.item.id);
    expect(second.body.item.size_bytes).toBe(19);
    expect(second.body.job_id).not.toBe(first.body.job_id);
    const elsewhere = await upload('policy.txt', 'another folder');
    expect(elsewhere.body.item.id).not.toBe(first.body.item.id);
    const list = await api('GET', '/kb/items?folder=replace-test');
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([first.body.item.id]);
    expect(list.body.items[0].size_bytes).toBe(19);
  });

  it('answers 415 for a format outside the accepted list and stores nothing', async () => {
    const res = await upload('photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'rejected');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ status_code: 415, error: { message: expect.stringMatching(/PDF, DOCX, XLSX, XLS, CSV, TXT, MD, RST/) } });
    expect((await api('GET', '/kb/items?folder=rejected')).status).toBe(404);
  });

  it('answers 400 without a file part, and for a folder with ..', async () => {
    const form = new FormData();
    form.append('folder', 'x');
    const res = await fetch(`${sb.url}/kb/items`, { method: 'POST', headers: { 'x-api-key': sb.apiKey }, body: form });
    expect(res.status).toBe(400);
    expect((await upload('a.txt', 'text', '../up')).status).toBe(400);
  });

  it('answers 413 from the declared length without reading the body', async () => {
    const res = await rawUpload({ declaredLength: 60 * 1024 * 1024, send: 1024 });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status_code: 413, error: { message: expect.stringMatching(/50 MB/) } });
  });

  it('answers 413 as soon as more than 50 MB arrives, without reading the rest', async () => {
    const total = 300 * 1024 * 1024;
    const res = await rawUpload({ send: total });
    expect(res.status).toBe(413);
    // The server stopped reading: the client got its answer long before it could send it all.
    expect(res.sent).toBeLessThan(120 * 1024 * 1024);
  });
});

describe('the 50 MB boundary', () => {
  const MB50 = 50 * 1024 * 1024;
  it('accepts a file of exactly 50 MB and refuses one byte more', async () => {
    const ok = await upload('exact.txt', Buffer.alloc(MB50, 'a'), 'limit');
    expect(ok.status).toBe(201);
    expect(ok.body.item.size_bytes).toBe(MB50);
    const over = await upload('over.txt', Buffer.alloc(MB50 + 1, 'a'), 'limit');
    expect(over.status).toBe(413);
    const listed = await api('GET', '/kb/items?folder=limit');
    expect(listed.body.items.map((i: { name: string }) => i.name)).toEqual(['exact.txt']);
  });
});

/** A chunked multipart upload of `send` bytes of file content, stopping when the response arrives. */
function rawUpload(opts: { send: number; declaredLength?: number }): Promise<{ status: number; body: any; sent: number }> {
  return new Promise((resolve, reject) => {
    const boundary = 'XXboundaryXX';
    const headers: Record<string, string | number> = { 'x-api-key': sb.apiKey, 'content-type': `multipart/form-data; boundary=${boundary}` };
    if (opts.declaredLength) headers['content-length'] = opts.declaredLength;
    const req = httpRequest(`${sb.url}/kb/items`, { method: 'POST', headers });
    let sent = 0;
    let done = false;
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    req.on('response', (res) => {
      done = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString()), sent });
      });
    });
    req.on('error', (err) => {
      if (!done) reject(err);
    });
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    const pump = () => {
      while (!done && sent < opts.send) {
        const piece = chunk.subarray(0, Math.min(chunk.length, opts.send - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!done && !opts.declaredLength) req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

describe('GET /kb/items and folders', () => {
  it('creates folders as needed and lists each level, folders first', async () => {
    const res = await upload('refund.txt', 'Refunds within thirty days.', '/policies//2025/');
    expect(res.body.item.path).toBe('policies/2025/refund.txt');
    await upload('zeta.txt', 'top level file');
    const top = await api('GET', '/kb/items?limit=200');
    const policies = top.body.items.find((i: { name: string }) => i.name === 'policies');
    expect(policies).toMatchObject({ type: 'folder', path: 'policies' });
    const firstFile = top.body.items.findIndex((i: { type: string }) => i.type === 'file');
    expect(top.body.items.slice(firstFile).every((i: { type: string }) => i.type === 'file')).toBe(true);
    const level1 = await api('GET', '/kb/items?folder=policies');
    expect(level1.body.items).toEqual([expect.objectContaining({ name: '2025', type: 'folder', path: 'policies/2025', size_bytes: 27 })]);
    const level2 = await api('GET', '/kb/items?folder=policies/2025');
    expect(level2.body.items).toEqual([expect.objectContaining({ id: res.body.item.id, name: 'refund.txt', type: 'file' })]);
  });

  it('404s an unknown folder and rejects a bad limit', async () => {
    expect((await api('GET', '/kb/items?folder=nope')).status).toBe(404);
    expect((await api('GET', '/kb/items?limit=0')).status).toBe(400);
  });
});

describe('DELETE /kb/items/{id}', () => {
  it('deletes a folder with everything in it', async () => {
    const a = await upload('a.txt', 'alpha text', 'handbook');
    const b = await upload('b.txt', 'beta text', 'handbook/chapter-1');
    const folder = (await api('GET', '/kb/items')).body.items.find((i: { name: string }) => i.name === 'handbook');
    const del = await api('DELETE', `/kb/items/${folder.id}`);
    expect(del.status).toBe(200);
    // handbook, handbook/a.txt, handbook/chapter-1 and handbook/chapter-1/b.txt
    expect(del.body.deleted_ids).toHaveLength(4);
    expect(del.body.deleted_ids).toEqual(expect.arrayContaining([folder.id, a.body.item.id, b.body.item.id]));
    expect((await api('GET', '/kb/items?folder=handbook')).status).toBe(404);
    expect((await api('GET', '/kb/items?folder=handbook/chapter-1')).status).toBe(404);
    expect((await api('DELETE', `/kb/items/${a.body.item.id}`)).status).toBe(404);
    expect((await api('GET', '/kb/items')).body.items.some((i: { name: string }) => i.name === 'handbook')).toBe(false);
  });

  it('detaches deleted files from agents and campaigns', async () => {
    const keep = await upload('keep.txt', 'kept document', 'agent-docs');
    const drop = await upload('drop.txt', 'dropped document', 'agent-docs');
    const agent = await api('POST', '/agents', { name: 'KB agent', voice_name: 'Priya', greeting: 'Hi', call_purpose: 'test', prompt: 'p', tools: [], kb_item_ids: [keep.body.item.id, drop.body.item.id] });
    expect(agent.status).toBe(201);
    const campaign = await api('POST', '/campaigns/json', { name: 'KB campaign', agent_id: agent.body.id, kb_item_ids: [drop.body.item.id, keep.body.item.id], contacts: [{ phone_number: '+919876543210', name: 'A' }] });
    expect(campaign.status).toBe(201);
    expect((await api('DELETE', `/kb/items/${drop.body.item.id}`)).status).toBe(200);
    expect((await api('GET', `/agents/${agent.body.id}`)).body.kb_item_ids).toEqual([keep.body.item.id]);
    expect((await api('GET', `/campaigns/${campaign.body.id}`)).body.kb_item_ids).toEqual([keep.body.item.id]);
    const folder = (await api('GET', '/kb/items')).body.items.find((i: { name: string }) => i.name === 'agent-docs');
    await api('DELETE', `/kb/items/${folder.id}`);
    expect((await api('GET', `/agents/${agent.body.id}`)).body.kb_item_ids).toEqual([]);
  });
});

describe('scopes and organizations', () => {
  it('lets agents:read list and read status but not upload or delete', async () => {
    const mine = await upload('scoped.txt', 'scoped text');
    expect((await api('GET', '/kb/items', undefined, READER)).status).toBe(200);
    expect((await api('GET', `/kb/index/status/${mine.body.job_id}`, undefined, READER)).status).toBe(200);
    const denied = await upload('x.txt', 'x', undefined, READER);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/agents:write/);
    expect((await api('DELETE', `/kb/items/${mine.body.item.id}`, undefined, READER)).status).toBe(403);
  });

  it('hides one organization’s items and jobs from another', async () => {
    const mine = await upload('private.txt', 'org a only');
    expect((await api('GET', `/kb/index/status/${mine.body.job_id}`, undefined, OTHER)).status).toBe(404);
    expect((await api('DELETE', `/kb/items/${mine.body.item.id}`, undefined, OTHER)).status).toBe(404);
    expect((await api('GET', '/kb/items', undefined, OTHER)).body.items).toEqual([]);
    expect((await api('GET', '/kb/index/status/__proto__')).status).toBe(404);
  });
});

describe('jobView', () => {
  const job: KbJob = { id: 'job_1', item_id: 'i', created: 0, processing_at: 1000, done_at: 3000, outcome: { ok: true, chunks: 10, characters: 9000 } };
  it('derives queued, processing (with progress) and completed from the clock', () => {
    expect(jobView(job, 500)).toMatchObject({ status: 'queued', chunks_indexed: 0, error: null });
    expect(jobView(job, 2000)).toMatchObject({ status: 'processing', chunks_indexed: 5 });
    expect(jobView(job, 3000)).toMatchObject({ status: 'completed', chunks_indexed: 10, error: null });
    expect(jobView({ ...job, outcome: { ok: false, error: 'no readable text' } }, 3000)).toMatchObject({ status: 'failed', chunks_indexed: 0, error: 'no readable text' });
  });
});
