/**
 * `--all` against servers that do not page: one that ignores offset (or a gateway that
 * caches the first page), one whose total keeps growing. The listing stops after a
 * bounded number of requests, prints what it read, and exits 1 saying it is incomplete.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, eachHostile, exportToFile, sendJson, TEXT_ERRORS } from './client-harness.js';

const { start } = eachHostile();

describe('--all against a server that does not page', () => {
  it('stops after the second request when offset is ignored, prints the first page, exits 1', async () => {
    const first = Array.from({ length: 200 }, (_, i) => call(i));
    const h = await start((req, res) => sendJson(res, 200, { calls: first, total: 90_000, limit: 200, offset: 0 }));
    const r = await h.run(['call', 'list', '--all', '--json'], TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    expect(h.seen).toEqual(['GET /calls?limit=200&offset=0', 'GET /calls?limit=200&offset=200']);
    expect(JSON.parse(r.stdout)).toHaveLength(200);
    expect(r.stderr).toBe('error: the list is incomplete: page 2 (offset 200) repeated items already received (the server may be ignoring offset, or a cache answering for it); stopped after 2 pages and 200 items');
  });

  it('stops at the page cap when every page is new but the total keeps growing', async () => {
    let n = 0;
    const h = await start((req, res) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset'));
      const agents = Array.from({ length: 200 }, () => ({ id: `agent_${n++}`, name: `Agent ${n}` }));
      sendJson(res, 200, { agents, total: offset + 2000, limit: 200, offset });
    });
    const r = await h.run(['agent', 'list', '--all', '--json'], TEXT_ERRORS);
    expect(r.exitCode).toBe(1);
    // The first total plans 10 pages; 10 more are allowed for items that arrive meanwhile.
    expect(h.seen).toHaveLength(20);
    expect(JSON.parse(r.stdout)).toHaveLength(4000);
    expect(r.stderr).toContain('the list is incomplete: the server kept sending pages past the 20 its total allows for');
  });

  it('prints the table too, then the error, for a person at a terminal-less run', async () => {
    const h = await start((_req, res) => sendJson(res, 200, { campaigns: [{ id: 'k1', name: 'Renewals', status: 'draft' }], total: 5 }));
    const r = await h.run(['campaign', 'list', '--all']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('Renewals');
    expect(r.stderr).toContain('error: the list is incomplete');
    expect(h.seen).toHaveLength(2);
  });

  it('still reads a list that pages as the spec says, to its end, exit 0', async () => {
    const all = Array.from({ length: 450 }, (_, i) => call(i));
    const h = await start((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      const offset = Number(q.get('offset'));
      const limit = Number(q.get('limit'));
      sendJson(res, 200, { calls: all.slice(offset, offset + limit), total: all.length, limit, offset });
    });
    const r = await h.run(['call', 'list', '--all', '--json'], TEXT_ERRORS);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(450);
    expect(h.seen).toHaveLength(3);
  });
});

describe('call export against a server that does not page', () => {
  it('stops at the first repeated page when there is no total, and writes no partial file', async () => {
    const first = Array.from({ length: 200 }, (_, i) => call(i));
    const h = await start((_req, res) => sendJson(res, 200, { calls: first }));
    const r = await exportToFile(h);
    expect(r.exitCode).toBe(1);
    expect(h.seen).toHaveLength(2);
    expect(r.stderr).toContain('error: the list is incomplete: the page at offset 200 repeated calls already received');
    expect(r.fileLeft).toBe(false);
    expect(readdirSync(h.config.dir).filter((f) => f.includes('calls'))).toEqual([]);
  });

  it('stops at the first repeated page when the total promises more, instead of calling part of the list the whole', async () => {
    const first = Array.from({ length: 200 }, (_, i) => call(i));
    const h = await start((_req, res) => sendJson(res, 200, { calls: first, total: 90_000, limit: 200, offset: 0 }));
    const r = await exportToFile(h);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: the list is incomplete: the page at offset 200 repeated calls already received');
    // The first page, then at most one window of concurrent pages, not 450.
    expect(h.seen.length).toBeLessThanOrEqual(1 + 16);
    expect(r.fileLeft).toBe(false);
  });
});
