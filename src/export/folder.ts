/**
 * A folder of Parquet files partitioned Hive-style by the calls' UTC start day
 * (`DIR/date=2026-11-28/part-….parquet`), the form BigQuery, Snowflake, ClickHouse and
 * DuckDB load. The folder is its own truth: the calls it holds are the call_ids its files
 * hold, read back from the files themselves (hyparquet) before an export adds to it, so a
 * run killed at any moment, its state file unsaved, repeats no call. A file appears whole
 * or not at all: written under a temporary name that does not end in `.parquet` (which
 * no reader's `*.parquet` matches), flushed to the disk, then renamed.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureError, UsageError } from '../errors.js';
import { sweepStaleTemps, writeFileAtomic } from '../util/atomic-file.js';
import { fsErrorReason } from '../util/fs-error.js';
import type { IdSet } from './id-set.js';

/** The partition of calls without a readable start time, as Hive, Spark and DuckDB name a null value. */
export const NULL_PARTITION = '__HIVE_DEFAULT_PARTITION__';

export const partitionOf = (day: string | null): string => `date=${day ?? NULL_PARTITION}`;

const PARTITION = /^date=(\d{4}-\d{2}-\d{2}|__HIVE_DEFAULT_PARTITION__)$/;
/** A data file: readers skip names that start with `.` or `_` (temporary files, markers). */
const isDataFile = (name: string) => name.endsWith('.parquet') && !name.startsWith('.') && !name.startsWith('_');

export interface FolderFile {
  partition: string;
  path: string;
}

/** Makes the folder when missing; refuses a path that is a file. */
export async function openFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new UsageError(`${dir} is a file: --format parquet writes a folder of files.`, { hint: `Pass a folder, for example --out calls/ (it is made if missing).` });
    }
    throw new FailureError(`cannot make the folder ${dir}: ${fsErrorReason(err)}.`, { cause: err });
  }
}

/** The data files of every `date=…` partition of the folder. */
export async function folderFiles(dir: string): Promise<FolderFile[]> {
  const files: FolderFile[] = [];
  let partitions: string[];
  try {
    partitions = (await readdir(dir)).filter((n) => PARTITION.test(n)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new FailureError(`cannot read the folder ${dir}: ${fsErrorReason(err)}.`, { cause: err });
  }
  for (const partition of partitions) {
    const path = join(dir, partition);
    if (!(await stat(path)).isDirectory()) continue;
    for (const name of (await readdir(path)).filter(isDataFile).sort()) files.push({ partition, path: join(path, name) });
  }
  return files;
}

/** Temporary files left in the partitions by exports that were killed; returns how many went. */
export async function sweepFolder(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let partitions: string[] = [];
  try {
    partitions = (await readdir(dir)).filter((n) => PARTITION.test(n));
  } catch {
    return removed;
  }
  for (const p of partitions) removed.push(...(await sweepStaleTemps(join(dir, p))).map((n) => `${p}/${n}`));
  return removed;
}

/**
 * Adds the call_id of every row of every file in the folder to `ids`. A file that is not
 * Parquet, or has no call_id column, stops the export: what it holds cannot be known, and
 * guessing could write its calls twice.
 */
export async function readFolderIds(dir: string, ids: IdSet): Promise<{ files: number; rows: number }> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema } = await import('hyparquet');
  const files = await folderFiles(dir);
  let rows = 0;
  for (const f of files) {
    try {
      const file = await asyncBufferFromFile(f.path);
      const metadata = await parquetMetadataAsync(file);
      if (!parquetSchema(metadata).children.some((c) => c.element.name === 'call_id')) throw new Error('it has no call_id column');
      await parquetRead({
        file, metadata, columns: ['call_id'],
        onChunk: ({ columnName, columnData }) => {
          if (columnName !== 'call_id') return;
          const values = columnData as ArrayLike<unknown>;
          for (let i = 0; i < values.length; i++) {
            const id = values[i];
            if (typeof id !== 'string') continue;
            ids.add(id);
            rows++;
          }
        },
      });
    } catch (err) {
      throw new UsageError(`${f.path} cannot be read as a call export: ${err instanceof Error ? err.message : String(err)}.`, {
        hint: 'Every *.parquet file under the folder\'s date=… partitions is read to know which calls it holds. Move that file out of the folder, or export into another folder.',
        cause: err,
      });
    }
  }
  return { files: files.length, rows };
}

/** Writes one file into its partition: whole and on the disk before its name ends in `.parquet`. */
export async function writePartFile(dir: string, partition: string, name: string, bytes: Uint8Array): Promise<string> {
  const folder = join(dir, partition);
  const path = join(folder, name);
  try {
    await mkdir(folder, { recursive: true });
    await writeFileAtomic(path, bytes, { durable: true });
  } catch (err) {
    throw new FailureError(`cannot write ${path}: ${fsErrorReason(err)}; no partial file was left.`, { cause: err });
  }
  return path;
}

/** Held while an export writes into the folder: two at once could each write the same call. */
export interface FolderLock {
  release(): Promise<void>;
}

const LOCK_NAME = '.voicectl-export.lock';

/**
 * Takes the folder's lock (`DIR/.voicectl-export.lock`, holding the writer's pid and
 * machine). A lock left by a process of this machine that no longer runs (killed) is
 * taken over; one held by a running export, or by another machine, refuses with exit 2.
 */
export async function lockFolder(dir: string): Promise<FolderLock> {
  const { hostname } = await import('node:os');
  const { readFile, unlink, writeFile } = await import('node:fs/promises');
  const path = join(dir, LOCK_NAME);
  const me = { pid: process.pid, host: hostname() };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw busy(dir, path);
        throw new FailureError(`cannot write ${path}: ${fsErrorReason(err)}.`, { cause: err });
      }
    }
    let holder: { pid?: unknown; host?: unknown } = {};
    try {
      holder = JSON.parse(await readFile(path, 'utf8')) as typeof holder;
    } catch {
      // empty or torn: its writer died as it wrote it
    }
    const pid = typeof holder.pid === 'number' ? holder.pid : NaN;
    if (holder.host !== undefined && holder.host !== me.host) throw busy(dir, path, `a process on ${String(holder.host)}`);
    // This very process counts too: the MCP server runs exports in process.
    if (Number.isInteger(pid) && (pid === process.pid || running(pid))) throw busy(dir, path, `process ${pid}`);
    await unlink(path).catch(() => {});
  }
  const onExit = () => {
    try {
      process.getBuiltinModule('node:fs').unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  return {
    async release() {
      process.off('exit', onExit);
      await unlink(path).catch(() => {});
    },
  };
}

function busy(dir: string, path: string, who = 'another export'): UsageError {
  return new UsageError(`another export is writing into ${dir} (${who}); two at once could write a call twice.`, {
    hint: `Wait for it to finish. If no export runs, remove ${path}.`,
  });
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
