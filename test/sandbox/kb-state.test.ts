import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const open: Sandbox[] = [];
let dir = '';
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('keeps items, folders and indexing jobs across a restart with --state', async () => {
  dir = await mkdtemp(join(tmpdir(), 'voicectl-kb-state-'));
  const stateFile = join(dir, 'state.json');
  const first = await startSandbox({ port: 0, timeScale: 1, stateFile });
  open.push(first);
  const form = new FormData();
  form.append('file', new Blob(['Refunds are processed within seven days.']), 'refunds.txt');
  form.append('folder', 'policies');
  const up = (await (await fetch(`${first.url}/kb/items`, { method: 'POST', headers: { 'x-api-key': first.apiKey }, body: form })).json()) as any;
  await first.close();

  const second = await startSandbox({ port: 0, timeScale: 10_000, stateFile });
  open.push(second);
  const get = async (path: string) => (await (await fetch(`${second.url}${path}`, { headers: { 'x-api-key': second.apiKey } })).json()) as any;
  expect((await get('/kb/items?folder=policies')).items).toEqual([expect.objectContaining({ id: up.item.id, path: 'policies/refunds.txt' })]);
  let job = await get(`/kb/index/status/${up.job_id}`);
  for (let i = 0; i < 200 && job.status !== 'completed'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    job = await get(`/kb/index/status/${up.job_id}`);
  }
  expect(job).toMatchObject({ status: 'completed', chunks_indexed: 1, error: null });
});
