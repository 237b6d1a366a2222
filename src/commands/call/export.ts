import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { runExport } from '../../export/run.js';
import type { RecordingResult } from '../../export/recordings.js';
import type { ExportState } from '../../export/state.js';
import { filtersFrom } from './fields.js';
import type { ExportFlags } from './definition.js';
import { isoInZone } from '../../util/time.js';
import { isTerminal } from '../../io/terminal.js';
import { ownFormat } from '../../io/render.js';
import { duration, noun, plural } from '../../text/text.js';

type Flags = ExportFlags;

// A folder named calls.parquet/ is a Parquet data set, as Spark names them.
const EXTENSIONS = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.xlsx': 'xlsx', '.csv': 'csv', '.parquet': 'parquet' } as const;

const MAX_CONCURRENCY = 32;
// Enough to hide a real network's round trips (8 pages in flight), few enough to stay polite.
const DEFAULT_CONCURRENCY = 8;

export default async function callExport(ctx: Context, flags: Flags): Promise<void> {
  if (flags.sinceLast && !flags.state) {
    throw new UsageError('--since-last needs --state FILE, where the last run\'s high-water mark is kept.', {
      hint: 'For example: voicectl call export --since-last --state .voicectl-export.json --out calls.csv',
    });
  }
  if (flags.state && !flags.sinceLast) {
    throw new UsageError('--state is only used with --since-last.', { hint: 'Add --since-last to export only calls newer than the last run.' });
  }
  if (flags.concurrency !== undefined && flags.concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}.`);
  }
  // --format, else --out's extension (calls.jsonl, calls.xlsx), else -o jsonl|json, else CSV.
  const format = ownFormat(ctx, { flag: flags.format, file: flags.out, extensions: EXTENSIONS, json: 'jsonl', otherwise: 'csv' });
  if (format === 'parquet') return exportFolder(ctx, flags);
  if (format === 'xlsx' && (!flags.out || flags.out === '-') && isTerminal(ctx, 'stdout')) {
    throw new UsageError('An xlsx workbook is binary: it cannot be shown on a terminal.', { hint: 'Pass --out calls.xlsx (or redirect stdout to a file).' });
  }
  const summary = await runExport(ctx, { ...runOptions(ctx, flags), timeZone: ctx.timeZone, format, out: flags.out });
  const where = flags.out && flags.out !== '-' ? ` to ${flags.out}` : '';
  // The warning before the closing lines, which end the command's output.
  if (summary.cutCells) {
    const n = summary.cutCells;
    ctx.warn(`${plural(n, 'cell')} ${n === 1 ? 'was' : 'were'} longer than Excel's 32,767 characters and ${n === 1 ? 'was' : 'were'} cut; --format jsonl keeps every value whole.`);
  }
  report(ctx, flags, summary, `Exported ${plural(summary.rows, 'call')}${where} in ${duration(summary.ms / 1000, { tenths: true })}`);
}

/** What every format's run takes from the flags. */
function runOptions(ctx: Context, flags: Flags) {
  return {
    filters: filtersFrom(flags, ctx.timeZone),
    transcripts: flags.transcripts,
    recordingsDir: flags.recordings,
    sinceLast: flags.sinceLast,
    statePath: flags.state,
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
  };
}

/** The closing lines: what was exported (`first`, then `more`), calls held, recordings, and where the next --since-last run starts. */
function report(ctx: Context, flags: Flags, s: { held: number; recordings?: RecordingResult; state?: ExportState }, first: string, more: string[] = []): void {
  const parts = [first, ...more];
  if (s.held > 0) parts.push(`${s.held} still in progress, left for the next run`);
  if (s.recordings) {
    const r = s.recordings;
    parts.push(`${r.downloaded} ${noun(r.downloaded, 'recording')} downloaded${r.skipped ? `, ${r.skipped} already there` : ''}`);
  }
  ctx.info(ctx.errColor.green(`${parts.join('; ')}.`));
  if (s.state) ctx.info(ctx.errColor.dim(`Next --since-last run starts at ${isoInZone(s.state.mark, ctx.timeZone)} ${ctx.timeZone} (${flags.state}).`));
}

/** --format parquet: a folder of files partitioned by day, each call once (src/export/parquet-run.ts). */
async function exportFolder(ctx: Context, flags: Flags): Promise<void> {
  if (!flags.out || flags.out === '-') {
    throw new UsageError('--format parquet writes a folder of files: it needs --out DIR.', { hint: 'For example: voicectl call export --format parquet --out calls/' });
  }
  const { runFolderExport } = await import('../../export/parquet-run.js');
  const s = await runFolderExport(ctx, { ...runOptions(ctx, flags), dir: flags.out });
  report(ctx, flags, s, `Exported ${plural(s.rows, 'call')} to ${flags.out} in ${duration(s.ms / 1000, { tenths: true })}: ${plural(s.files.length, 'new file')} over ${plural(s.days, 'day')}`,
    s.already > 0 ? [`${plural(s.already, 'call')} already in the folder, not written again`] : []);
}
