/** The end of `kb upload`: the results as a table (file, id, what happened) or JSON. */
import type { Context } from '../context.js';
import { printList, type Column } from '../io/output.js';
import type { SkippedFile } from './collect.js';
import { indexed } from './indexing.js';
import type { UploadOutcome } from './uploader.js';
import { noun } from '../text/text.js';

/** What happened to one file, in words. */
function describeOutcome(o: UploadOutcome): string {
  if (o.status === 'failed') return `upload failed: ${o.error}`;
  const replaced = o.replaced ? 'replaced the existing file (same id); ' : '';
  if (!o.job_id) return `${replaced || 'uploaded; '}the service named no indexing job to follow`;
  if (!o.index) return `${replaced}${o.replaced ? 'indexing' : 'uploaded, indexing'} (job ${o.job_id})`;
  if (indexed(o.index)) {
    const n = o.index.chunks_indexed;
    return `${replaced}${n === undefined ? 'indexed' : `${n} ${noun(n, 'chunk')} indexed`}`;
  }
  return `${replaced}indexing failed: ${o.index.error ?? o.index.status}`;
}

export function failed(o: UploadOutcome): boolean {
  return o.status === 'failed' || (o.index !== undefined && !indexed(o.index));
}

const COLUMNS: Column<UploadOutcome>[] = [
  { header: 'FILE', key: 'path', max: 60 },
  { header: 'ID', get: (o) => o.id ?? '-' },
  { header: 'RESULT', get: describeOutcome },
];

/** -o csv: the flat result of each file (jsonRow). */
const CSV_COLUMNS: Column<Record<string, unknown>>[] = ['file', 'path', 'id', 'status', 'replaced', 'job_id', 'chunks_indexed', 'error'].map((k) => ({ header: k, key: k }));

/** JSON and CSV readers get every field; the skipped files are part of the results. */
export async function printResults(ctx: Context, outcomes: UploadOutcome[], skipped: SkippedFile[]): Promise<void> {
  const machineRows = [...outcomes.map(jsonRow), ...skipped.map((s) => ({ file: s.display, status: 'skipped', error: s.reason }))];
  await printList(ctx, outcomes, COLUMNS, { empty: 'Nothing was uploaded.', machineRows, csv: CSV_COLUMNS });
}

/** A flat result for scripts: the outcome, the item as the service returned it, and the indexing result. */
function jsonRow(o: UploadOutcome): Record<string, unknown> {
  const row: Record<string, unknown> = { file: o.file, path: o.path, folder: o.folder, name: o.name, status: o.status };
  row.size_bytes = o.size_bytes;
  if (o.id !== undefined) row.id = o.id;
  if (o.status === 'uploaded' || o.status === 'replaced') row.replaced = Boolean(o.replaced);
  if (o.job_id !== undefined) row.job_id = o.job_id;
  if (o.index) {
    row.index_status = o.index.status;
    row.chunks_indexed = o.index.chunks_indexed ?? null;
    if (o.index.error) row.error = o.index.error;
  }
  if (o.error !== undefined) row.error = o.error;
  if (o.item) row.item = o.item;
  return row;
}
