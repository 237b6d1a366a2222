/**
 * A file written under a temporary name in the same directory and renamed into place
 * only when complete, so a failed or interrupted run never leaves a file that looks
 * finished (rename within one directory is atomic).
 *
 * Temporary files never outlive their process when it can help it: every exit (a
 * second Ctrl-C or SIGTERM that exits at once, the safety-net timer) removes the ones
 * still open. A process killed outright (SIGKILL, a crash, the power) cannot; the next
 * export into the same folder sweeps what such processes left (sweepStaleTemps).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, unlinkSync, type WriteStream } from 'node:fs';
import { readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** Temporary files this process has open, removed synchronously if it exits before they are settled. */
const open = new Set<string>();
let exitHookInstalled = false;

function track(path: string): void {
  open.add(path);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' also runs when the process is ended at once, which is how a second Ctrl-C ends it.
  process.on('exit', () => {
    for (const p of open) {
      try {
        unlinkSync(p);
      } catch {
        // already gone, or the folder went away: nothing left to clean
      }
    }
  });
}

/**
 * This machine, in four hex digits, put in every temporary name: a sweep only judges
 * files made on this machine, whose writers' pids it can check (a folder may be shared
 * over the network with another machine's running export).
 */
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 4);
const TEMP_NAME = /^\..+\.(\d+)\.([0-9a-f]{4})[0-9a-f]{4}\.tmp$/;

export interface AtomicFile {
  /** Where the data goes until commit. */
  readonly tempPath: string;
  readonly stream: WriteStream;
  /** Flushes, closes and renames into place. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; safe to call twice, or after commit. */
  discard(): Promise<void>;
}

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${HOST_TAG}${randomBytes(2).toString('hex')}.tmp`);
}

/**
 * Removes the temporary files in `dir` left by processes of this machine that no longer
 * run (killed in the middle of an export). Best effort: a folder that cannot be read is
 * left for the export itself to report. Returns the names removed.
 */
export async function sweepStaleTemps(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || m[2] !== HOST_TAG) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isRunning(pid)) continue;
    try {
      await unlink(join(dir, name));
      removed.push(name);
    } catch {
      // another sweep got there first, or it is not ours to remove
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function openAtomic(target: string): Promise<AtomicFile> {
  const tempPath = tempPathFor(target);
  track(tempPath);
  const stream = createWriteStream(tempPath, { flags: 'wx' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  }).catch((err: unknown) => {
    open.delete(tempPath);
    throw err;
  });
  let settled = false;
  return {
    tempPath,
    stream,
    async commit() {
      if (settled) return;
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      });
      settled = true;
      try {
        await rename(tempPath, target);
      } catch (err) {
        await unlink(tempPath).catch(() => {});
        throw err;
      } finally {
        open.delete(tempPath);
      }
    },
    async discard() {
      if (settled) return;
      settled = true;
      await new Promise<void>((resolve) => {
        if (stream.closed) return resolve();
        stream.once('close', () => resolve());
        stream.destroy();
      });
      await unlink(tempPath).catch(() => {});
      open.delete(tempPath);
    },
  };
}

/** A small file (the export state) replaced atomically. */
export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const temp = tempPathFor(target);
  track(temp);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  } finally {
    open.delete(temp);
  }
}
