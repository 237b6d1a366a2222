import { afterEach, describe, expect, it } from 'vitest';
import { clampLimit } from '../../src/api/client.js';
import { collectAll, IncompleteListError, MAX_PAGES, pageCap } from '../../src/api/pagination.js';
import { client, json, serve, type TestClient, type TestServer } from './helpers.js';

const open: Array<TestServer | TestClient> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

interface ListServerOptions {
  /** Leave `total` out of every page. */
  noTotal?: boolean;
  /** The most items the server returns per page, whatever was asked. */
  cap?: number;
  /** Serve the first page whatever the offset. */
  ignoreOffset?: boolean;
  /** Called before each page is served (to add items, as new calls arrive). */
  before?: (items: Array<{ id: string }>) => void;
}

async function listServer(count: number, o: ListServerOptions = {}) {
  const items = Array.from({ length: count }, (_, i) => ({ id: `a${i + 1}` }));
  const server = await serve((req, res) => {
    o.before?.(items);
    const q = new URL(req.url!, 'http://x').searchParams;
    const limit = Math.min(Number(q.get('limit') ?? 50), o.cap ?? 200);
    const offset = o.ignoreOffset ? 0 : Number(q.get('offset') ?? 0);
    const page = items.slice(offset, offset + limit);
    json(res, 200, o.noTotal ? { agents: page } : { agents: page, total: items.length, limit, offset });
  });
  const c = client(server.url);
  open.push(server, c);
  const queries = () => server.requests.map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
  return { api: c.api, server, queries };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('paginate', () => {
  it('pages with offset += limit until offset >= total', async () => {
    const { api, queries } = await listServer(5);
    const got = await collect(api.paginate<{ id: string }>('/agents', 'agents', { limit: 2 }));
    expect(got.map((a) => a.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(queries()).toEqual([
      { limit: '2', offset: '0' }, { limit: '2', offset: '2' }, { limit: '2', offset: '4' },
    ]);
  });

  it('uses limit=200 by default and keeps the other query parameters', async () => {
    const { api, queries } = await listServer(3);
    await collect(api.paginate('/agents', 'agents', { query: { status: 'active' } }));
    expect(queries()).toEqual([{ status: 'active', limit: '200', offset: '0' }]);
  });

  it('stops on a short last page when total is missing', async () => {
    const { api, queries } = await listServer(5, { noTotal: true });
    const got = await collect(api.paginate<{ id: string }>('/agents', 'agents', { limit: 2 }));
    expect(got).toHaveLength(5);
    expect(queries().map((q) => q.offset)).toEqual(['0', '2', '4']);
  });

  it('stops on an empty page when total is missing and the last page was full', async () => {
    const { api, queries } = await listServer(4, { noTotal: true });
    expect(await collect(api.paginate('/agents', 'agents', { limit: 2 }))).toHaveLength(4);
    expect(queries().map((q) => q.offset)).toEqual(['0', '2', '4']);
  });

  it('never yields the same id twice when new items shift the pages', async () => {
    let next = 100;
    // Newest first: every request sees one more item at the head, pushing the rest down.
    const { api, server } = await listServer(6, { before: (items) => { items.unshift({ id: `new${next++}` }); } });
    const got = await collect(api.paginate<{ id: string }>('/agents', 'agents', { limit: 3 }));
    const ids = got.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i <= 6; i++) expect(ids).toContain(`a${i}`);
    expect(server.requests.length).toBeGreaterThan(2);
  });

  it('does not skip items when the server caps the page size below the limit', async () => {
    const { api } = await listServer(7, { cap: 3 });
    const got = await collect(api.paginate<{ id: string }>('/agents', 'agents', { limit: 200 }));
    expect(got.map((a) => a.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7']);
  });

  it('ends, saying the list is incomplete, when a server without total ignores offset', async () => {
    const { api, server } = await listServer(2, { noTotal: true, ignoreOffset: true });
    const { items, incomplete } = await collectAll(api.paginate('/agents', 'agents', { limit: 2 }));
    expect(items).toHaveLength(2);
    expect(incomplete).toBeInstanceOf(IncompleteListError);
    expect(server.requests).toHaveLength(2);
  });

  it('stops after two requests when a server with a large total ignores offset', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ id: `c${i}` }));
    const server = await serve((_req, res) => json(res, 200, { calls: items, total: 1_000_000, limit: 200, offset: 0 }));
    const c = client(server.url);
    open.push(server, c);
    const { items: got, incomplete } = await collectAll(c.api.paginate('/calls', 'calls'));
    expect(got).toHaveLength(200);
    expect(incomplete?.message).toMatch(/^the list is incomplete: page 2 \(offset 200\) repeated items already received .*stopped after 2 pages and 200 items$/);
    expect(incomplete?.kind).toBe('unexpected');
    expect(server.requests).toHaveLength(2);
  });

  it('stops at the page cap when every page brings new ids but the total keeps growing', async () => {
    let n = 0;
    const server = await serve((req, res) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset'));
      const page = Array.from({ length: 10 }, () => ({ id: `x${n++}` }));
      json(res, 200, { agents: page, total: offset + 1000, limit: 10, offset });
    });
    const c = client(server.url);
    open.push(server, c);
    const { items, incomplete } = await collectAll(c.api.paginate('/agents', 'agents', { limit: 10 }));
    // The first total plans 100 pages; the cap allows 10% more.
    expect(pageCap(100)).toBe(110);
    expect(server.requests).toHaveLength(110);
    expect(items).toHaveLength(1100);
    expect(incomplete?.message).toMatch(/past the 110 its total allows for/);
  });

  it('stops when items without ids come back identical page after page', async () => {
    const server = await serve((_req, res) => json(res, 200, [{ status: 'delivered' }, { status: 'failed' }]));
    const c = client(server.url);
    open.push(server, c);
    const { items, incomplete } = await collectAll(c.api.paginate('/webhooks/endpoints/e/deliveries', 'deliveries', { limit: 2 }));
    expect(items).toHaveLength(2);
    expect(incomplete).toBeInstanceOf(IncompleteListError);
    expect(server.requests).toHaveLength(2);
  });

  it('caps any listing at MAX_PAGES, total or not', () => {
    expect(pageCap(1_000_000)).toBe(MAX_PAGES);
    expect(pageCap(1)).toBe(11);
  });

  it('stops after max items and starts at the given offset', async () => {
    const { api, queries } = await listServer(10);
    const got = await collect(api.paginate<{ id: string }>('/agents', 'agents', { limit: 3, offset: 2, max: 4 }));
    expect(got.map((a) => a.id)).toEqual(['a3', 'a4', 'a5', 'a6']);
    expect(queries().map((q) => q.offset)).toEqual(['2', '5']);
  });

  it.each([[1000, '200'], [200, '200'], [0, '1'], [-5, '1'], [7.9, '7']])('clamps limit %s to %s', async (limit, sent) => {
    const { api, queries } = await listServer(1);
    await collect(api.paginate('/agents', 'agents', { limit }));
    expect(queries()[0]!.limit).toBe(sent);
  });

  it('clamps a limit that is not a number to 200', () => {
    expect(clampLimit(Number.NaN)).toBe(200);
    expect(clampLimit(undefined)).toBe(200);
  });
});
