/**
 * The export's pager (src/export/pages.ts) against servers that never end, in process
 * with one-call pages so that its caps are reached in a moment: without a total, it reads
 * no more pages than `--all` does; reading the list a second time (after the count moved)
 * stops at the cap the count allows for, and says the list is incomplete instead of
 * ending there as if it were whole.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { IncompleteListError, MAX_PAGES } from '../../src/api/pagination.js';
import { callPages } from '../../src/export/pages.js';

type Query = { limit?: number; offset?: number };

/**
 * An ApiClient whose GET /calls is `answer`; counts the pages asked for. It gives up after
 * three times the most pages a listing reads (an empty page), so that a pager without
 * caps ends too, and fails the test instead of hanging it.
 */
function stubApi(answer: (q: { limit: number; offset: number }, n: number) => unknown): { api: ApiClient; requests: () => number } {
  let n = 0;
  const api = {
    url: (path: string) => `http://127.0.0.1:9${path}`,
    get: async (_path: string, options: { query?: Query }) => {
      if (++n % 100 === 0) await new Promise((r) => setImmediate(r));
      if (n > 3 * MAX_PAGES) return { calls: [], offset: options.query?.offset };
      return answer({ limit: Number(options.query?.limit), offset: Number(options.query?.offset) }, n);
    },
  } as unknown as ApiClient;
  return { api, requests: () => n };
}

async function readAll(api: ApiClient, pageSize: number): Promise<{ calls: number; error?: unknown }> {
  let calls = 0;
  try {
    for await (const page of callPages(api, { filters: {}, concurrency: 4, pageSize })) calls += page.length;
  } catch (error) {
    return { calls, error };
  }
  return { calls };
}

describe('callPages against servers that never end', () => {
  it('without a total: stops at the most pages one listing reads, and says so', async () => {
    const { api, requests } = stubApi((q, n) => ({ calls: [{ call_id: `call_${n}` }], limit: q.limit }));
    const r = await readAll(api, 1);
    expect(r.error).toBeInstanceOf(IncompleteListError);
    expect((r.error as Error).message).toBe(`the list is incomplete: ${MAX_PAGES} pages is the most one listing reads; stopped after ${MAX_PAGES} pages and ${MAX_PAGES} items`);
    expect(requests()).toBe(MAX_PAGES);
    expect(r.calls).toBe(MAX_PAGES);
  });

  it('read a second time after the count moved: stops at the pages that count allows for', async () => {
    // The count moves from 4 to 5 while the pages are read; from then on every page is full of new calls.
    const { api, requests } = stubApi((q, n) => ({
      calls: [{ call_id: `call_${n}_a` }, { call_id: `call_${n}_b` }],
      total: n === 1 ? 4 : 5,
      limit: q.limit,
      offset: q.offset,
    }));
    const r = await readAll(api, 2);
    expect(r.error).toBeInstanceOf(IncompleteListError);
    // Planned: 3 pages of 2 for 5 calls; 10 more allowed for calls that arrive meanwhile.
    expect((r.error as Error).message).toContain('the server kept sending pages past the 13 its total allows for');
    expect(requests()).toBe(3 + 13);
  });
});

describe('callPages against a server that cuts a page short', () => {
  it('a page in the middle with fewer calls than the page size, the count unchanged: the list is incomplete', async () => {
    // 10 calls in pages of 3; the page at offset 3 holds only its first call.
    const { api } = stubApi((q) => {
      const end = q.offset === 3 ? 4 : Math.min(q.offset + q.limit, 10);
      const calls = [];
      for (let i = q.offset; i < end; i++) calls.push({ call_id: `call_${i}` });
      return { calls, total: 10, limit: q.limit, offset: q.offset };
    });
    const r = await readAll(api, 3);
    expect(r.error).toBeInstanceOf(IncompleteListError);
    expect((r.error as Error).message).toContain('the page at offset 3 held 1 of 3 calls, though the server counts 10; calls 5 to 6 were never sent');
  });

  it('the last page may be short', async () => {
    const { api } = stubApi((q) => {
      const calls = [];
      for (let i = q.offset; i < Math.min(q.offset + q.limit, 10); i++) calls.push({ call_id: `call_${i}` });
      return { calls, total: 10, limit: q.limit, offset: q.offset };
    });
    const r = await readAll(api, 3);
    expect(r.error).toBeUndefined();
    expect(r.calls).toBe(10);
  });
});
