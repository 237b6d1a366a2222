/**
 * `call export --format parquet --out DIR`: every matching call, finished, into a folder
 * of Parquet files partitioned by UTC start day, each call_id once across all its files.
 *
 * Before reading a page the folder's own files are read back (their call_ids): a call
 * already in one is never written again, whatever the state file says, so a run killed
 * between a file and its state, or run twice, repeats nothing. Rows are gathered per day,
 * a bounded number at a time; a day's rows go to a file when they reach fileRows, when
 * more than heldRows are held (the largest day goes), and at the end. Each file lands whole
 * (folder.ts). `--since-last --state FILE` only narrows what is asked for.
 */
import type { Context } from '../context.js';
import type { CallFilters, Call } from '../api/calls.js';
import { InterruptedError, FailureError } from '../errors.js';
import { ProgressBar } from '../io/progress.js';
import { plural } from '../text/text.js';
import { resolve } from 'node:path';
import { IdSet } from './id-set.js';
import { limiter } from './limiter.js';
import { columnsFor, encodeParquet, RowBatch, startOf, utcDay } from './parquet.js';
import { lockFolder, openFolder, partitionOf, readFolderIds, sweepFolder, writePartFile } from './folder.js';
import { RecordingQueue, type RecordingResult } from './recordings.js';
import { MarkTracker, readState, writeState, type ExportState } from './state.js';
import { countedPages, describeFilters, withTranscripts } from './run.js';

export interface FolderExportOptions {
  filters: CallFilters;
  /** The folder (made if missing). */
  dir: string;
  transcripts?: boolean;
  recordingsDir?: string;
  sinceLast?: boolean;
  statePath?: string;
  concurrency: number;
  recordingConcurrency?: number;
  /** Rows per file at most, and rows held across days at most (both 25,000 by default). */
  fileRows?: number;
  heldRows?: number;
}

export interface FolderExportSummary {
  rows: number;
  total?: number;
  /** Calls still in progress, left for the next run. */
  held: number;
  /** Calls the folder already held, not written again. */
  already: number;
  /** The files this run wrote, and what the folder held before it. */
  files: string[];
  before: { files: number; rows: number };
  days: number;
  recordings?: RecordingResult;
  state?: ExportState;
  ms: number;
}

export async function runFolderExport(ctx: Context, opts: FolderExportOptions): Promise<FolderExportSummary> {
  const started = performance.now();
  const dir = resolve(ctx.cwd, opts.dir);
  const filters: CallFilters = { ...opts.filters };
  let previous: ExportState | undefined;
  if (opts.sinceLast && opts.statePath) {
    previous = await readState(opts.statePath);
    const was = previous?.filters;
    if (was && ((was.campaign_id ?? '') !== (filters.campaign_id ?? '') || (was.status ?? '') !== (filters.status ?? ''))) {
      ctx.warn(`${opts.statePath} was written by an export with other filters (${describeFilters(was)}); this one has ${describeFilters(filters)}.`);
    }
    if (previous && (!filters.since || Date.parse(previous.mark) > Date.parse(filters.since))) filters.since = previous.mark;
  }
  // Always: a folder keeps only finished calls (their outcome and summary are final), so a
  // call in progress is left for the next run, which writes it once it has ended.
  const tracker = new MarkTracker(previous, ctx.now().getTime());

  await openFolder(dir);
  const lock = await lockFolder(dir);
  const run = new AbortController();
  const onAbort = () => run.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const progress = new ProgressBar(ctx, { unit: 'rows', label: 'Exporting', data: 'file' });
  const written: string[] = [];
  const days = new Set<string>();
  let recordings: RecordingQueue | undefined;
  try {
    const removed = await sweepFolder(dir);
    if (removed.length > 0) {
      ctx.info(ctx.errColor.dim(`Removed ${plural(removed.length, 'temporary file')} left in ${opts.dir} by an export that was killed: ${removed.join(', ')}`));
    }
    const present = new IdSet();
    const before = await readFolderIds(dir, present);
    const api = await ctx.api();
    recordings = opts.recordingsDir ? await RecordingQueue.open(api, opts.recordingsDir, opts.recordingConcurrency ?? 3, run.signal) : undefined;

    const columns = columnsFor(opts.transcripts ?? false);
    const fileRows = opts.fileRows ?? 25_000;
    // Rows held as JavaScript values cost about 1 KB each, and encoding a file several times
    // that for a moment: at 50,000 a million-call export peaked at 509 MB.
    const heldRows = opts.heldRows ?? 25_000;
    const batches = new Map<string, RowBatch>();
    let buffered = 0;
    // One name per run: files of different runs never meet, and sort by when they were made.
    const stamp = `${ctx.now().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${process.getBuiltinModule('node:crypto').randomBytes(3).toString('hex')}`;
    let seq = 0;
    const flush = async (partition: string) => {
      const batch = batches.get(partition);
      if (!batch || batch.size === 0) return;
      batches.delete(partition);
      buffered -= batch.size;
      const bytes = await encodeParquet(batch);
      written.push(await writePartFile(dir, partition, `part-${stamp}-${String(++seq).padStart(4, '0')}.parquet`, bytes));
    };

    let rows = 0;
    let held = 0;
    let already = 0;
    const listing = countedPages(api, filters, opts.concurrency, run.signal, progress);
    for await (const page of listing.pages) {
      let calls: Call[] = [];
      for (const c of page) {
        const verdict = tracker.decide(c);
        if (verdict === 'live') held++;
        if (verdict === 'live' || verdict === 'old') continue;
        // The files decide: a call the folder holds is not written again.
        if (!present.add(String(c.call_id))) already++;
        else calls.push(c);
      }
      if (opts.transcripts && calls.length > 0) calls = await withTranscripts(api, calls, limiter(opts.concurrency), run.signal);
      for (const c of calls) {
        const start = startOf(c);
        const partition = partitionOf(utcDay(start));
        let batch = batches.get(partition);
        if (!batch) batches.set(partition, (batch = new RowBatch(columns)));
        batch.add(c, start);
        buffered++;
        days.add(partition);
        if (batch.size >= fileRows) await flush(partition);
      }
      while (buffered > heldRows) await flush(largest(batches));
      rows += calls.length;
      progress.add(page.length);
      if (recordings) for (const c of calls) await recordings.add(c);
      if (run.signal.aborted) throw run.signal.reason;
    }
    for (const partition of [...batches.keys()].sort()) await flush(partition);
    const recResult = await recordings?.finish();
    if (run.signal.aborted) throw run.signal.reason;
    progress.clear();
    if (recResult && recResult.failed.length > 0) {
      const first = recResult.failed[0]!;
      throw new FailureError(
        `${plural(recResult.failed.length, 'recording')} could not be downloaded (first: ${first.callId}: ${first.message}).`,
        { hint: 'The files are complete. Run the export again to retry: recordings already saved are skipped, and calls already in the folder are not written again.' },
      );
    }
    let state: ExportState | undefined;
    if (opts.sinceLast && opts.statePath) {
      state = tracker.next(opts.filters, rows, ctx.now());
      await writeState(opts.statePath, state).catch((err: Error) => {
        throw new FailureError(`the export is complete, but the state file ${opts.statePath} could not be written: ${err.message}`, {
          hint: 'Nothing is lost: the next run reads the folder\'s files and writes no call twice.',
        });
      });
    }
    return { rows, total: listing.total, held, already, files: written, before, days: days.size, recordings: recResult, state, ms: performance.now() - started };
  } catch (err) {
    run.abort(err);
    progress.clear();
    await recordings?.finish().catch(() => {});
    const kept = written.length > 0 ? ` The ${plural(written.length, 'file')} already written ${written.length === 1 ? 'is' : 'are'} whole and stay; running the export again adds the rest, each call once.` : '';
    if (ctx.signal.aborted) throw new InterruptedError(`Interrupted.${kept}`);
    if (kept && err instanceof FailureError) err.message += kept;
    throw err;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await lock.release();
  }
}

function largest(batches: Map<string, RowBatch>): string {
  let best = '';
  let size = -1;
  for (const [k, b] of batches) if (b.size > size) [best, size] = [k, b.size];
  return best;
}
