/**
 * `voicectl api METHOD PATH`: the built binary against the sandbox, and against hand-made
 * servers for what the sandbox does not do (502s on demand).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../../helpers/cli.js';
import { clientFor, givenAgent } from '../../helpers/given.js';
import { tempDir, type TempDir } from '../../helpers/temp.js';
import { hostile, sendJson } from '../../hostile/client-harness.js';

let h: Harness;
let dir: TempDir;
beforeAll(async () => {
  h = await harness();
  dir = tempDir();
  const api = clientFor(h.sandbox);
  for (let i = 0; i < 5; i++) await givenAgent(api, { name: `Agent ${i}` });
});
afterAll(async () => {
  await h.close();
  dir.remove();
});

describe('voicectl api', () => {
  it('GET /agents --paginate prints what agent list --all --json prints, reading every page', async () => {
    const list = await h.run(['agent', 'list', '--all', '--json']);
    expect(list.exitCode).toBe(0);
    const before = h.sandbox.requests.length;
    const paged = await h.run(['api', 'GET', '/agents', '--paginate', '-F', 'limit=2']);
    expect(paged.exitCode).toBe(0);
    expect(paged.stdout).toBe(list.stdout);
    expect(JSON.parse(paged.stdout)).toHaveLength(5);
    const pages = h.sandbox.requests.slice(before).filter((r) => r.method === 'GET' && r.path === '/agents');
    expect(pages.map((r) => r.query.offset)).toEqual(['0', '2', '4']);
  });

  it('GET prints the answer as it came, with -f fields in the query', async () => {
    const r = await h.run(['api', 'GET', '/agents', '-f', 'limit=1']);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.agents).toHaveLength(1);
    expect(body.total).toBe(5);
  });

  it('POST sends -f/-F fields as the JSON body, asks first (exit 2 without --yes), and with --yes creates', async () => {
    const fields = ['-f', 'name=Raw', '-f', 'voice_name=Ananya', '-f', 'greeting=Hi', '-f', 'call_purpose=Test', '-f', 'prompt=Be brief.', '-F', 'tools=["take_message"]'];
    const before = h.sandbox.requests.length;
    const refused = await h.run(['api', 'POST', '/agents', ...fields]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(h.sandbox.requests.length).toBe(before);
    const r = await h.run(['api', 'POST', '/agents', ...fields, '--yes']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Raw', tools: ['take_message'] });
    const sent = h.sandbox.requests.slice(before).find((q) => q.method === 'POST');
    expect(sent?.body).toMatchObject({ name: 'Raw', tools: ['take_message'] });
  });

  it('PATCH with --input FILE sends the file as the body', async () => {
    const agent = await givenAgent(clientFor(h.sandbox), { name: 'Patched' });
    const file = join(dir.dir, 'patch.json');
    writeFileSync(file, JSON.stringify({ greeting: 'Namaste!' }));
    // --no-input (the global flag) does not take the body away.
    const r = await h.run(['api', 'PATCH', `/agents/${agent.id}`, '--input', file, '--no-input', '--yes']);
    expect(r.exitCode).toBe(0);
    const got = await h.run(['api', 'GET', `/agents/${agent.id}`]);
    expect(JSON.parse(got.stdout).greeting).toBe('Namaste!');
  });

  it('--input - reads the body from stdin', async () => {
    const agent = await givenAgent(clientFor(h.sandbox), { name: 'Piped' });
    const r = await h.run(['api', 'patch', `/agents/${agent.id}`, '--input', '-', '--yes'], { input: '{"greeting":"From stdin"}' });
    expect(r.exitCode).toBe(0);
    const got = await h.run(['api', 'GET', `/agents/${agent.id}`]);
    expect(JSON.parse(got.stdout).greeting).toBe('From stdin');
  });

  it('exit codes follow the table: 404 → 4, bad key → 3, bad method or an address → 2', async () => {
    expect((await h.run(['api', 'GET', '/agents/00000000-0000-4000-8000-000000000000'])).exitCode).toBe(4);
    expect((await h.run(['api', 'GET', '/agents'], { env: { VOICECTL_API_KEY: 'sk_wrong' } })).exitCode).toBe(3);
    expect((await h.run(['api', 'FETCH', '/agents'])).exitCode).toBe(2);
    const address = await h.run(['api', 'GET', 'https://elsewhere.example/agents']);
    expect(address.exitCode).toBe(2);
    expect(address.stderr).toContain('not a path');
    expect((await h.run(['api', 'POST', '/agents', '--paginate', '--yes'])).exitCode).toBe(2);
    expect((await h.run(['api', 'POST', '/agents', '--input', join(dir.dir, 'missing.json'), '--yes'])).exitCode).toBe(2);
  });

  it('under injected 502s a POST is sent once and a GET is retried', async () => {
    const s = await hostile((_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    try {
      const post = await s.run(['api', 'POST', '/agents', '-f', 'name=X', '--yes', '--json']);
      expect(post.exitCode).toBe(1);
      expect(JSON.parse(post.stderr.trim())).toMatchObject({ code: 'server_error', retryable: true });
      expect(s.seen.filter((l) => l.startsWith('POST '))).toEqual(['POST /agents']);
      const del = await s.run(['api', 'DELETE', '/agents/a1', '--yes']);
      expect(del.exitCode).toBe(1);
      expect(s.seen.filter((l) => l.startsWith('DELETE '))).toHaveLength(1);
      const get = await s.run(['api', 'GET', '/agents']);
      expect(get.exitCode).toBe(1);
      expect(s.seen.filter((l) => l.startsWith('GET ')).length).toBeGreaterThan(1);
    } finally {
      await s.close();
    }
  }, 60_000);
});
