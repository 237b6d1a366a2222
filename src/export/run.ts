/**
 * `call export`: pages (in order, a few at a time) → optional transcripts → CSV or
 * JSONL text → stdout or a temporary file renamed at the end, with recordings alongside
 * and the incremental state saved last. Memory holds a few pages, never the export.
 */
import type { Context } from '../context.js';
import { noun } from '../text/text.js';
import type { ApiClient } from '../api/client.js';
import { getCall, type Call, type CallFilters } from '../api/calls.js';
import { FailureError, InterruptedError } from '../errors.js';
import { csvHeader, csvRow, planColumns, type CsvPlan } from './csv.js';
import { limiter } from './limiter.js';
import { callPages } from './pages.js';
import { ProgressBar } from '../io/progress.js';
import { RecordingQueue, type RecordingResult } from './recordings.js';
import { openSink } from './sink.js';
import type { XlsxBook } from './xlsx.js';
import { sweepStaleTemps } from '../util/atomic-file.js';
import { dirname, resolve } from 'node:path';
import { MarkTracker, readState, writeState, type ExportState } from './state.js';

export interface ExportOptions {
  filters: CallFilters;
  format: 'csv' | 'jsonl' | 'xlsx';
  out?: string;
  transcripts?: boolean;
  recordingsDir?: string;
  /** With sinceLast: where the high-water mark lives. */
  statePath?: string;
  sinceLast?: boolean;
  concurrency: number;
  recordingConcurrency?: number;
  /** xlsx: the zone of the date cells, which their headers name (CSV and JSONL stay UTC). Default UTC. */
  timeZone?: string;
}

export interface ExportSummary {
  rows: number;
  /** Calls the server counted as matching. */
  total?: number;
  /** Calls still in progress, left for the next incremental run. */
  held: number;
  recordings?: RecordingResult;
  state?: ExportState;
  /** xlsx: cells cut to Excel's 32,767 characters. */
  cutCells?: number;
  ms: number;
}

export async function runExport(ctx: Context, opts: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const filters: CallFilters = { ...opts.filters };
  let tracker: MarkTracker | undefined;
  if (opts.sinceLast && opts.statePath) {
    const previous = await readState(opts.statePath);
    const was = previous?.filters;
    if (was && ((was.campaign_id ?? '') !== (filters.campaign_id ?? '') || (was.status ?? '') !== (filters.status ?? ''))) {
      ctx.warn(`${opts.statePath} was written by an export with other filters (${describeFilters(was)}); this one has ${describeFilters(filters)}.`);
    }
    if (previous && (!filters.since || Date.parse(previous.mark) > Date.parse(filters.since))) filters.since = previous.mark;
    tracker = new MarkTracker(previous, ctx.now().getTime());
  }
  const api = await ctx.api();

  // Stops everything this run started (pages in flight, downloads) on failure or Ctrl-C.
  const run = new AbortController();
  const onAbort = () => run.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  await sweepLeftovers(ctx, opts);
  const recordings = opts.recordingsDir
    ? await RecordingQueue.open(api, opts.recordingsDir, opts.recordingConcurrency ?? 3, run.signal)
    : undefined;
  const sink = await openSink(ctx, opts.out);
  // The rows go to the sink while the bar draws: not drawn when they go to the same terminal.
  const progress = new ProgressBar(ctx, { unit: 'rows', label: 'Exporting', data: sink.toFile ? 'file' : 'stdout' });
  const detail = limiter(opts.concurrency);
  let plan: CsvPlan | undefined;
  let book: XlsxBook | undefined;
  let cutCells: number | undefined;
  const openBook = async (p: CsvPlan) => {
    const { openXlsxBook } = await import('./xlsx.js');
    return openXlsxBook(sink, p, run.signal, opts.timeZone);
  };
  let rows = 0;
  let held = 0;

  const listing = countedPages(api, filters, opts.concurrency, run.signal, progress);
  try {
    for await (const page of listing.pages) {
      let calls = page;
      if (tracker) {
        calls = [];
        for (const c of page) {
          const verdict = tracker.decide(c);
          if (verdict === 'export') calls.push(c);
          else if (verdict === 'live') held++;
        }
      }
      if (opts.transcripts && calls.length > 0) calls = await withTranscripts(api, calls, detail, run.signal);
      let text = '';
      if (opts.format === 'xlsx') {
        if (!plan) book = await openBook(plan = planColumns(calls.length > 0 ? calls : page, { transcripts: opts.transcripts }));
        await book!.add(calls);
      } else if (opts.format === 'csv') {
        if (!plan) {
          plan = planColumns(calls.length > 0 ? calls : page, { transcripts: opts.transcripts });
          text += csvHeader(plan);
        }
        for (const c of calls) text += csvRow(c, plan);
      } else {
        for (const c of calls) text += `${JSON.stringify(c)}\n`;
      }
      if (text) await sink.write(text);
      rows += calls.length;
      progress.add(page.length);
      if (recordings) for (const c of calls) await recordings.add(c);
      if (run.signal.aborted) throw run.signal.reason;
    }
    if (opts.format === 'csv' && !plan) await sink.write(csvHeader(planColumns([], { transcripts: opts.transcripts })));
    if (opts.format === 'xlsx') {
      book ??= await openBook(planColumns([], { transcripts: opts.transcripts }));
      ({ cut: cutCells } = await book.finish());
    }
    const recResult = await recordings?.finish();
    if (run.signal.aborted) throw run.signal.reason;
    await sink.commit();
    progress.clear();
    if (recResult && recResult.failed.length > 0) {
      const first = recResult.failed[0]!;
      throw new FailureError(
        `${recResult.failed.length} ${noun(recResult.failed.length, 'recording')} could not be downloaded (first: ${first.callId}: ${first.message}).`,
        { hint: 'The export itself is complete. Run it again to retry: recordings already saved are skipped.' },
      );
    }
    let state: ExportState | undefined;
    if (tracker && opts.statePath) {
      state = tracker.next(opts.filters, rows, ctx.now());
      await writeState(opts.statePath, state).catch((err: Error) => {
        throw new FailureError(`the export is complete, but the state file ${opts.statePath} could not be written: ${err.message}`);
      });
    }
    return { rows, total: listing.total, held, recordings: recResult, state, cutCells, ms: performance.now() - started };
  } catch (err) {
    run.abort(err);
    book?.abort();
    progress.clear();
    await recordings?.finish().catch(() => {});
    await sink.discard();
    if (ctx.signal.aborted) throw new InterruptedError(opts.out ? `Interrupted: ${opts.out} was not written.` : 'Interrupted.');
    throw err;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** Temporary files of earlier exports that were killed outright go before this one writes beside them. */
async function sweepLeftovers(ctx: Context, opts: ExportOptions): Promise<void> {
  const dirs = new Set<string>();
  if (opts.out && opts.out !== '-') dirs.add(dirname(resolve(ctx.cwd, opts.out)));
  if (opts.recordingsDir) dirs.add(resolve(ctx.cwd, opts.recordingsDir));
  if (opts.statePath) dirs.add(dirname(resolve(ctx.cwd, opts.statePath)));
  for (const dir of dirs) {
    const removed = await sweepStaleTemps(dir);
    if (removed.length > 0) {
      ctx.info(ctx.errColor.dim(`Removed ${removed.length === 1 ? 'a temporary file' : `${removed.length} temporary files`} left in ${dir} by an export that was killed: ${removed.join(', ')}`));
    }
  }
}

/** The pages of an export, the bar's total kept to the server's count; `total` is its last count. */
export function countedPages(api: ApiClient, filters: CallFilters, concurrency: number, signal: AbortSignal, progress: ProgressBar): { pages: AsyncGenerator<Call[]>; total?: number } {
  const listing: { pages: AsyncGenerator<Call[]>; total?: number } = {
    pages: callPages(api, {
      filters, concurrency, signal,
      onTotal: (t) => {
        listing.total = t;
        progress.setTotal(t);
      },
    }),
  };
  return listing;
}

export function describeFilters(f: CallFilters): string {
  const parts = [f.campaign_id && `--campaign ${f.campaign_id}`, f.status && `--status ${f.status}`].filter(Boolean);
  return parts.length ? parts.join(' ') : 'no filters';
}

/** Each call with its transcript, fetched a few at a time, in the page's order. */
export async function withTranscripts(api: ApiClient, calls: Call[], run: ReturnType<typeof limiter>, signal: AbortSignal): Promise<Call[]> {
  return Promise.all(calls.map((c) => run(async () => {
    const { call } = await getCall(api, c.call_id, signal);
    return { ...c, transcript: Array.isArray(call.transcript) ? call.transcript : [] };
  })));
}
