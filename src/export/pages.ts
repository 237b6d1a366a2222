/**
 * Every call matching the filters, page by page and in order, each call exactly once.
 * The first page (limit=200) gives `total`; the remaining pages are fetched a few at a
 * time but handed over in offset order, so the output is in the server's order and at
 * most `concurrency` pages are held. Calls that arrive during the export shift offsets:
 * duplicates are dropped by call_id, and when `total` moved the pager reads the whole
 * list once more in order (see below), so no call that existed when it started is missed.
 */
import type { ApiClient } from '../api/client.js';
import { listCalls, type Call, type CallFilters, type CallPage } from '../api/calls.js';
import { itemKey } from '../api/envelope.js';
import { IncompleteListError, MAX_PAGES, pageCap } from '../api/pagination.js';
import { IdSet } from './id-set.js';

export interface PagerOptions {
  filters: CallFilters;
  concurrency: number;
  signal?: AbortSignal;
  pageSize?: number;
  /** Called when the expected number of calls is first known, and again when it grows. */
  onTotal?: (total: number) => void;
}

export async function* callPages(api: ApiClient, opts: PagerOptions): AsyncGenerator<Call[], void, undefined> {
  const ac = new AbortController();
  const onAbort = () => ac.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const seen = new IdSet();
  const fresh = (items: Call[]): Call[] => {
    const out: Call[] = [];
    for (const item of items) {
      const id = itemKey(item);
      if (id !== undefined && !seen.add(id)) continue;
      out.push(item);
    }
    return out;
  };
  const fetchPage = (offset: number, limit: number): Promise<CallPage> => listCalls(api, opts.filters, { limit, offset }, ac.signal);
  let pages = 0;
  const incomplete = (reason: string) => new IncompleteListError({ method: 'GET', url: api.url('/calls'), items: seen.size, pages, reason });
  /**
   * A page with no calls where the server's own count says there are more: the server
   * stopped short, and the export would call part of the list the whole.
   */
  const unlessShort = (page: CallPage, offset: number, known: number | undefined): void => {
    const total = page.total ?? known;
    if (page.items.length === 0 && total !== undefined && offset < total) {
      throw incomplete(`the page at offset ${offset} was empty, though the server counts ${total} ${total === 1 ? 'call' : 'calls'}`);
    }
  };
  /**
   * A page in the middle of the list that holds fewer calls than the page size while the
   * server's count has not moved: the calls between its end and the next page's offset
   * were never handed over, and the export would call part of the list the whole.
   */
  const unlessCut = (page: CallPage, offset: number, size: number, total: number | undefined, moved: boolean): void => {
    if (moved || total === undefined || page.items.length === 0) return;
    const end = offset + page.items.length;
    if (page.items.length < size && end < total) {
      throw incomplete(`the page at offset ${offset} held ${page.items.length} of ${size} calls, though the server counts ${total}; calls ${end + 1} to ${Math.min(offset + size, total)} were never sent`);
    }
  };
  /** Past the pages `total` plans for (and a margin), the server is not paging to an end. */
  const capped = (cap: number) => incomplete(cap === MAX_PAGES
    ? `${MAX_PAGES} pages is the most one listing reads`
    : `the server kept sending pages past the ${cap} its total allows for`);
  /**
   * The new calls of a page. A page of nothing but calls already read means the server
   * ignores offset (or a cache answers for it): going on would write the same calls
   * again and again, or, with a total, stop with part of the list called the whole.
   */
  const unlessRepeated = (page: CallPage, offset: number): Call[] => {
    const added = fresh(page.items);
    if (page.items.length > 0 && added.length === 0) {
      throw incomplete(`the page at offset ${offset} repeated calls already received (the server may be ignoring offset, or a cache answering for it)`);
    }
    return added;
  };

  try {
    const requested = Math.min(200, Math.max(1, opts.pageSize ?? 200));
    const first = await fetchPage(0, requested);
    pages++;
    const size = pageSizeOf(first, requested);
    let total = first.total;
    unlessShort(first, 0, total);
    if (total !== undefined) opts.onTotal?.(total);
    yield unlessRepeated(first, 0);

    if (total === undefined) {
      // No total to plan with: one page after another until a short or empty one.
      let last = first.items.length;
      for (let offset = size; last >= size; offset += size) {
        if (pages >= MAX_PAGES) throw capped(MAX_PAGES);
        const page = await fetchPage(offset, size);
        pages++;
        last = page.items.length;
        // A full page of calls already read: the server ignores offset, and would serve it forever.
        yield unlessRepeated(page, offset);
      }
      return;
    }

    const firstTotal = total;
    let moved = false;
    const note = (page: CallPage) => {
      if (page.total === undefined) return;
      if (page.total !== firstTotal) moved = true;
      if (page.total > total!) {
        total = page.total;
        opts.onTotal?.(total);
      }
    };
    let next = size;
    // The cap `--all` has: the pages the first total plans for, and a margin for calls
    // that arrive meanwhile. A server whose pages keep bringing new calls and a growing
    // total would otherwise be read for ever.
    const cap = pageCap(Math.ceil(firstTotal / size));
    let launched = 1;
    let stopped = false;
    const window: Array<{ offset: number; page: Promise<CallPage> }> = [];
    const launch = () => {
      while (window.length < opts.concurrency && next < total!) {
        if (launched >= cap) {
          stopped = true;
          return;
        }
        launched++;
        const p = fetchPage(next, size);
        // Awaited in order later; until then a failure must not count as unhandled.
        p.catch(() => {});
        window.push({ offset: next, page: p });
        next += size;
      }
    };
    launch();
    while (window.length > 0) {
      const { offset, page: pending } = window.shift()!;
      const page = await pending;
      pages++;
      note(page);
      unlessShort(page, offset, total);
      unlessCut(page, offset, size, total, moved);
      launch();
      // Once the list has moved, a page of calls already read is what arriving calls do.
      yield moved ? fresh(page.items) : unlessRepeated(page, offset);
    }
    if (stopped) throw capped(cap);
    // Nothing changed while we read: the planned pages were the whole list.
    if (!moved) return;

    // The list changed while pages were in flight. Pages served out of order can miss
    // calls that an insertion pushed from one page into another already read, so the
    // list is read once more, one page after another from the start: read in order, an
    // insertion only repeats calls (dropped as duplicates), it never hides one.
    let previous = '';
    const rereadCap = pageCap(Math.ceil(total / size));
    for (let offset = 0, reread = 0; ; offset += size, reread++) {
      if (reread >= rereadCap) throw capped(rereadCap);
      const page = await fetchPage(offset, size);
      pages++;
      note(page);
      unlessShort(page, offset, total);
      const ids = page.items.map((c) => itemKey(c) ?? '').join(',');
      if (offset > 0 && page.items.length > 0 && ids === previous) {
        throw incomplete(`the page at offset ${offset} repeated the one before it (the server may be ignoring offset, or a cache answering for it)`);
      }
      previous = ids;
      const added = fresh(page.items);
      if (added.length > 0) yield added;
      if (page.items.length < size) return;
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    // Pages still in flight when the consumer stops (an error, Ctrl-C) are cancelled.
    ac.abort();
  }
}

/** The page size the server really uses: it may cap the 200 asked for, and say so or not. */
function pageSizeOf(first: CallPage, requested: number): number {
  if (first.limit !== undefined && first.limit >= 1 && first.limit <= requested) return first.limit;
  const n = first.items.length;
  if (first.total !== undefined && n > 0 && n < requested && n < first.total) return n;
  return requested;
}
