/**
 * Paging through a list endpoint with limit/offset (spec: "offset += limit until offset >=
 * total"), bounded against servers that do not page as the spec says: one that ignores
 * `offset` or a gateway that caches pages (the same page forever), one whose `total`
 * never stops growing, one without `total` or ids, one that runs dry before its `total`.
 * Paging stops, and says the list is incomplete, when a page brings no new items, when a
 * page is empty before the total is reached, or when the page cap is reached.
 */
import { ApiError } from './errors.js';
import { extractList, itemKey } from './envelope.js';

export type PageQuery = Record<string, string | number | boolean | undefined | null>;

export interface PaginateOptions {
  query?: PageQuery;
  /** Page size, clamped to 1..200 (default 200). */
  limit?: number;
  offset?: number;
  /** Stop after this many items. */
  max?: number;
  signal?: AbortSignal;
}

export interface PageSource {
  /** GETs one page. */
  get(query: PageQuery, signal?: AbortSignal): Promise<unknown>;
  /** The list's URL, for messages. */
  url: string;
  method?: string;
}

/** Never more pages than this in one listing, whatever `total` says: 2,000,000 items at 200 a page. */
export const MAX_PAGES = 10_000;

/**
 * Pages allowed beyond those the first `total` plans for: items that arrive while the
 * listing runs shift offsets and add pages, a few percent in a busy account.
 */
export function pageCap(plannedPages: number): number {
  return Math.min(MAX_PAGES, plannedPages + Math.max(10, Math.ceil(plannedPages / 10)));
}

/** A listing stopped before its end; what was yielded before it is correct but incomplete. */
export class IncompleteListError extends ApiError {
  constructor(init: { method: string; url: string; reason: string; items: number; pages: number }) {
    super({
      kind: 'unexpected', method: init.method, url: init.url, code: 'incomplete_list',
      message: `the list is incomplete: ${init.reason}; stopped after ${init.pages} ${init.pages === 1 ? 'page' : 'pages'} and ${init.items} ${init.items === 1 ? 'item' : 'items'}`,
    });
    this.name = 'IncompleteListError';
  }
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return 200;
  return Math.min(200, Math.max(1, Math.floor(limit)));
}

/**
 * Every item, each id once. Stops normally at offset >= total (or, without a total, at a
 * short or empty page); throws IncompleteListError after yielding what it has when a
 * non-empty page adds no new item, when a page is empty before the total is reached, or
 * when the page cap is reached.
 */
export async function* paginate<T>(source: PageSource, key: string, options: PaginateOptions = {}): AsyncGenerator<T, void, undefined> {
  const method = source.method ?? 'GET';
  const limit = clampLimit(options.limit);
  const start = Math.max(0, Math.floor(options.offset ?? 0));
  let offset = start;
  const seen = new Set<string>();
  let yielded = 0;
  let pages = 0;
  let cap = MAX_PAGES;
  let previousAnonymous: string | undefined;
  /** The list's length as the last page that gave one said. */
  let total: number | undefined;
  const stop = (reason: string) => new IncompleteListError({ method, url: source.url, reason, items: yielded, pages });
  for (;;) {
    if (pages >= cap) {
      throw stop(cap === MAX_PAGES
        ? `${MAX_PAGES} pages is the most one listing reads`
        : `the server kept sending pages past the ${cap} its total allows for`);
    }
    const body = await source.get({ ...options.query, limit, offset }, options.signal);
    pages++;
    const page = extractList<T>(body, key, source.url);
    if (page.total !== undefined) total = page.total;
    if (page.items.length === 0) {
      // The end, unless the server's own count says there is more: then it stopped short.
      if (total !== undefined && offset < total) throw stop(empty(pages, offset, total));
      return;
    }
    // Items without ids cannot be told apart one by one; a page identical to the last is the same page again.
    if (page.items.every((item) => itemKey(item) === undefined)) {
      const signature = JSON.stringify(page.items);
      if (signature === previousAnonymous) throw stop(repeated(pages, offset));
      previousAnonymous = signature;
    }
    let fresh = 0;
    for (const item of page.items) {
      const id = itemKey(item);
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      fresh++;
      yield item;
      yielded++;
      if (options.max !== undefined && yielded >= options.max) return;
    }
    if (fresh === 0) throw stop(repeated(pages, offset));
    if (pages === 1 && page.total !== undefined) cap = pageCap(Math.ceil(Math.max(0, page.total - start) / page.items.length));
    // Step by what arrived, not by what was asked: a server that caps the page size
    // below `limit` would otherwise have items skipped.
    offset += page.items.length;
    if (page.total !== undefined) {
      if (offset >= page.total) return;
    } else {
      const pageSize = page.limit !== undefined && page.limit > 0 ? Math.min(page.limit, limit) : limit;
      if (page.items.length < pageSize) return;
    }
  }
}

function empty(page: number, offset: number, total: number): string {
  return `page ${page} (offset ${offset}) was empty, though the server counts ${total} ${total === 1 ? 'item' : 'items'}`;
}

function repeated(page: number, offset: number): string {
  return `page ${page} (offset ${offset}) repeated items already received (the server may be ignoring offset, or a cache answering for it)`;
}

/** Every item of a listing, and the reason it stopped early if it did: the caller prints what it has, then fails. */
export async function collectAll<T>(items: AsyncIterable<T>): Promise<{ items: T[]; incomplete?: IncompleteListError }> {
  const out: T[] = [];
  const listing = untilIncomplete(items);
  for await (const item of listing.items) out.push(item);
  return { items: out, incomplete: listing.incomplete };
}

/**
 * A listing's items, ending quietly where the listing stops early; `incomplete` then says
 * why, for the caller to throw once what was read has been printed. Other failures pass.
 */
export function untilIncomplete<T>(items: AsyncIterable<T>): { items: AsyncIterable<T>; readonly incomplete: IncompleteListError | undefined } {
  let incomplete: IncompleteListError | undefined;
  async function* read(): AsyncGenerator<T, void, undefined> {
    try {
      yield* items;
    } catch (err) {
      if (!(err instanceof IncompleteListError)) throw err;
      incomplete = err;
    }
  }
  return {
    items: read(),
    get incomplete() {
      return incomplete;
    },
  };
}
