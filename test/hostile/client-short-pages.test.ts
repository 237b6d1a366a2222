/**
 * Lists that stop short, or never stop. A server that runs dry before its own `total`
 * (an empty page at offset 250 of 1,000) once passed for the end of the list: `--all`
 * and `call export` exited 0 with a quarter of it. A server whose every page brings new
 * calls and a larger total once kept `call export` reading for ever. Both now stop,
 * keep what was read (a list prints it, an export writes no file), and exit 1 saying the
 * list is incomplete.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, eachHostile, exportToFile, hostile, sendJson, TEXT_ERRORS } from './client-harness.js';

const { start } = eachHostile();

const query = (url: string | undefined) => new URL(url ?? '/', 'http://x').searchParams;

/** Says it holds 1,000 items, serves 250 (the second page short), then empty pages. */
function shortPages(key: 'calls' | 'agents', make: (i: number) => Record<string, unknown>) {
  const held = Array.from({ length: 250 }, (_, i) => make(i));
  return (req: Parameters<Parameters<typeof hostile>[0]>[0], res: Parameters<Parameters<typeof hostile>[0]>[1]) => {
    const q = query(req.url);
    const offset = Number(q.get('offset'));
    const limit = Number(q.get('limit') ?? 50);
    const items = offset < 200 ? held.slice(offset, Math.min(offset + limit, 200)) : offset < 250 ? held.slice(offset, 250) : [];
    sendJson(res, 200, { [key]: items, total: 1000, limit, offset });
  };
}

describe('a server whose pages run dry before its total', () => {
  it('call list --all: prints the 250 calls read, then exits 1 saying the list is incomplete', async () => {
    const h = await start(shortPages('calls', call));
    const r = await h.run(['call', 'list', '--all', '--json'], TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toHaveLength(250);
    expect(r.stderr).toBe('error: the list is incomplete: page 3 (offset 250) was empty, though the server counts 1000 items; stopped after 3 pages and 250 items');
  });

  it('agent list --all: the same', async () => {
    const h = await start(shortPages('agents', (i) => ({ id: `agent_${i}`, name: `Agent ${i}` })));
    const r = await h.run(['agent', 'list', '--all', '-o', 'jsonl'], TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n')).toHaveLength(250);
    expect(r.stderr).toContain('error: the list is incomplete: page 3 (offset 250) was empty, though the server counts 1000 items');
  });

  it('call export: exit 1, and no file that passes for the whole list', async () => {
    const h = await start(shortPages('calls', call));
    const r = await exportToFile(h);
    expect(r.exitCode).toBe(1);
    // The export reads pages side by side: it may meet the cut page (250 calls, then none) or an empty one first.
    expect(r.stderr).toMatch(/^error: the list is incomplete: the page at offset \d+ (was empty|held \d+ of \d+ calls), though the server counts 1000/);
    expect(r.fileLeft).toBe(false);
    expect(readdirSync(h.config.dir).filter((f) => f.includes('calls'))).toEqual([]);
  });

  it('call export: an empty first page of a list of 1,000 is no empty list', async () => {
    const h = await start((req, res) => sendJson(res, 200, { calls: [], total: 1000, limit: 200, offset: 0 }));
    const r = await h.run(['call', 'export', '--format', 'jsonl'], TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: the list is incomplete: the page at offset 0 was empty, though the server counts 1000 calls');
  });

  it('a list that really ends before an offset past its total is read to its end, exit 0', async () => {
    const h = await start((req, res) => {
      const offset = Number(query(req.url).get('offset'));
      sendJson(res, 200, { calls: offset === 0 ? [call(1), call(2)] : [], total: 2, limit: 200, offset });
    });
    const list = await h.run(['call', 'list', '--all', '--json', '--offset', '5'], TEXT_ERRORS);
    expect([list.exitCode, list.stdout, list.stderr]).toEqual([0, '[]', '']);
    const exp = await h.run(['call', 'export', '--format', 'jsonl'], TEXT_ERRORS);
    expect(exp.exitCode).toBe(0);
    expect(exp.stderr).toMatch(/^Exported 2 calls/);
    expect(exp.stdout.split('\n')).toHaveLength(2);
  });
});

describe('call export against a server whose pages keep bringing new calls', () => {
  it('stops at the page cap --all has, writes no file, exits 1', async () => {
    let n = 0;
    let requests = 0;
    const h = await start((req, res) => {
      const q = query(req.url);
      const offset = Number(q.get('offset'));
      // Gives up after 300 pages, so that a client without a cap ends too (and fails the test).
      if (++requests > 300) return sendJson(res, 200, { calls: [], total: offset, limit: 200, offset });
      const calls = Array.from({ length: 200 }, () => call(n++));
      sendJson(res, 200, { calls, total: offset + 2000, limit: 200, offset });
    });
    const r = await exportToFile(h);
    expect(r.exitCode).toBe(1);
    // The first total plans 10 pages; 10 more are allowed for calls that arrive meanwhile.
    expect(h.seen).toHaveLength(20);
    expect(r.stderr).toContain('error: the list is incomplete: the server kept sending pages past the 20 its total allows for; stopped after 20 pages and 4000 items');
    expect(r.fileLeft).toBe(false);
  });
});
