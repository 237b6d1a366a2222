/**
 * Uploads planned files a few at a time. Before sending, each target folder is listed,
 * so a file that replaces an existing one (same name, same folder: the service keeps its
 * id) can be reported as such. Failures of one file do not stop the others; failures
 * that would hit every file (key refused, plan limit, wrong address, Ctrl-C) do.
 */
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { isFolder, listItems, uploadFile, type KbItem } from '../api/kb.js';
import type { Context } from '../context.js';
import { InterruptedError } from '../errors.js';
import type { PlannedFile } from './collect.js';
import { bytes as formatBytes } from '../text/text.js';
import { UploadProgress } from './progress.js';

export interface IndexResult {
  status: string;
  chunks_indexed?: number;
  error?: string | null;
}

export interface UploadOutcome {
  /** The local file as given. */
  file: string;
  /** Folder plus name in the knowledge base. */
  path: string;
  folder: string;
  name: string;
  size_bytes: number;
  status: 'uploaded' | 'replaced' | 'failed';
  /** True when an existing file of the same name and folder was replaced (its id kept). */
  replaced?: boolean;
  id?: string;
  job_id?: string;
  item?: KbItem;
  /** Why the upload failed. */
  error?: string;
  /** Filled by --wait. */
  index?: IndexResult;
}

export const DEFAULT_CONCURRENCY = 3;

/** A readable reason for one file's failure. */
export function failureMessage(err: unknown): string {
  if (err instanceof ApiError) return err.status ? `${err.message} (HTTP ${err.status})` : err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Errors that every other upload would hit too. */
function isFatal(ctx: Context, err: unknown): boolean {
  if (ctx.signal.aborted || err instanceof InterruptedError) return true;
  return err instanceof ApiError && [401, 402, 403, 404].includes(err.status ?? 0);
}

/** name → id of the files already in each folder; a folder that cannot be listed counts as empty. */
async function existingFiles(ctx: Context, api: ApiClient, folders: string[]): Promise<Map<string, Map<string, string>>> {
  const byFolder = new Map<string, Map<string, string>>();
  await Promise.all(folders.map(async (folder) => {
    const names = new Map<string, string>();
    byFolder.set(folder, names);
    try {
      for (const item of await listItems(api, folder, ctx.signal)) {
        if (!isFolder(item) && typeof item.name === 'string' && item.id !== undefined) names.set(item.name, String(item.id));
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      // A folder that does not exist yet (404), or a listing the server does not offer:
      // replacements are then recognised from the ids the uploads return, if at all.
    }
  }));
  return byFolder;
}

export async function uploadAll(
  ctx: Context,
  api: ApiClient,
  files: PlannedFile[],
  // onUploaded hears of each file the service took as it happens: a Ctrl-C later still knows it.
  options: { concurrency?: number; onUploaded?: (o: UploadOutcome) => void } = {},
): Promise<UploadOutcome[]> {
  const folders = [...new Set(files.map((f) => f.folder))];
  const existing = await existingFiles(ctx, api, folders);
  const knownIds = new Set<string>();
  for (const names of existing.values()) for (const id of names.values()) knownIds.add(id);

  const outcomes: UploadOutcome[] = new Array(files.length);
  const total = files.reduce((n, f) => n + f.size, 0);
  const progress = new UploadProgress(ctx, files.length, total);
  const c = ctx.errColor;
  let next = 0;
  let fatal: unknown;

  const one = async (index: number) => {
    const file = files[index]!;
    const base: UploadOutcome = { file: file.display, path: file.path, folder: file.folder, name: file.name, size_bytes: file.size, status: 'failed' };
    try {
      const res = await uploadFile(api, file.local, {
        name: file.name,
        folder: file.folder || undefined,
        size: file.size,
        signal: ctx.signal,
        onProgress: (sent) => progress.bytes(index, sent),
      });
      const id = res.item.id;
      const before = existing.get(file.folder)?.get(file.name);
      const replaced = before === id || knownIds.has(id);
      outcomes[index] = { ...base, status: replaced ? 'replaced' : 'uploaded', replaced, id, job_id: res.job_id, item: res.item };
      options.onUploaded?.(outcomes[index]);
      const line = replaced
        ? `${c.yellow('↻')} ${file.path} replaced the existing file and kept its id ${id}`
        : `${c.green('✓')} ${file.path} ${c.dim(`(${formatBytes(file.size)})`)}`;
      progress.finished(index, file.size, line);
    } catch (err) {
      if (isFatal(ctx, err)) {
        fatal ??= err;
        outcomes[index] = { ...base, error: failureMessage(err) };
        return;
      }
      outcomes[index] = { ...base, error: failureMessage(err) };
      progress.finished(index, file.size, `${c.red('✗')} ${file.path}: ${failureMessage(err)}`);
    }
  };

  const worker = async () => {
    while (fatal === undefined && next < files.length) await one(next++);
  };
  progress.start();
  try {
    const n = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, files.length));
    await Promise.all(Array.from({ length: n }, worker));
  } finally {
    progress.stop();
  }
  if (fatal !== undefined) {
    const sent = outcomes.filter((o) => o && o.status !== 'failed').length;
    if (sent > 0) ctx.info(c.dim(`${sent} of ${files.length} files were uploaded before stopping.`));
    if (ctx.signal.aborted) throw new InterruptedError(`Interrupted: ${files.length - sent} file${files.length - sent === 1 ? ' was' : 's were'} not uploaded.`);
    throw fatal;
  }
  return outcomes;
}
