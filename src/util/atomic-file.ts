/**
 * The one way voicectl replaces a file: written under a temporary name in the same
 * directory and renamed into place only when complete, so a failed or interrupted run
 * never leaves a file that looks finished (rename within one directory is atomic).
 *
 * Temporary files never outlive their process when it can help it: every exit (a
 * second Ctrl-C or SIGTERM that exits at once, the safety-net timer) removes the ones
 * still open. A process killed outright (SIGKILL, a crash, the power) cannot; the next
 * export into the same folder sweeps what such processes left (sweepStaleTemps).
 */
import { chmodSync, createWriteStream, renameSync, unlinkSync, writeFileSync, type WriteStream } from 'node:fs';
import { chmod, open as openFile, readdir, rename, unlink, writeFile } from 'node:fs/promises';
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
let hostTag: string | undefined;
function host(): string {
  // node:crypto is loaded on the first write, not at start-up: the start path (the code
  // cache) imports this module, and most commands write nothing.
  hostTag ??= process.getBuiltinModule('node:crypto').createHash('sha256').update(hostname()).digest('hex').slice(0, 4);
  return hostTag;
}
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
  const random = process.getBuiltinModule('node:crypto').randomBytes(2).toString('hex');
  return join(dirname(target), `.${basename(target)}.${process.pid}.${host()}${random}.tmp`);
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
    if (!m || m[2] !== host()) continue;
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

/** Whether process `pid` of this machine runs (as this user or another). */
export function isRunning(pid: number): boolean {
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
      await settle(tempPath, () => rename(tempPath, target));
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

/** Runs the last steps of a write; on failure the temporary file is removed and the error passed on. */
async function settle(temp: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  } finally {
    open.delete(temp);
  }
}

export interface WriteOptions {
  /** Permissions of the file, set on the temporary file before it takes the target's place (0o600 for secrets). */
  mode?: number;
  /**
   * Flush the data to the disk (fsync) before the rename, and the folder's entry after it:
   * once the call returns, the file survives a crash or a power cut whole, or not at all.
   */
  durable?: boolean;
}

/** A small file (a state, a cursor, a secrets file) replaced atomically. */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  const temp = tempPathFor(target);
  track(temp);
  await settle(temp, async () => {
    if (options.durable) {
      const handle = await openFile(temp, 'wx', options.mode);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } else {
      await writeFile(temp, data, { flag: 'wx', mode: options.mode });
    }
    // The mode given at creation is narrowed by the umask; chmod states it exactly.
    if (options.mode !== undefined && process.platform !== 'win32') await chmod(temp, options.mode);
    await rename(temp, target);
  });
  if (options.durable) await syncFolder(dirname(target));
}

/** Makes a rename in `dir` durable; folders cannot be opened for fsync on Windows, nor on some file systems. */
async function syncFolder(dir: string): Promise<void> {
  let handle;
  try {
    handle = await openFile(dir, 'r');
    await handle.sync();
  } catch {
    // best effort: the file itself is already whole on the disk
  } finally {
    await handle?.close();
  }
}

/** The same, for the few writers that cannot wait (the code cache at exit, the approvals store). */
export function writeFileAtomicSync(target: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  const temp = tempPathFor(target);
  try {
    writeFileSync(temp, data, { flag: 'wx', mode: options.mode });
    if (options.mode !== undefined && process.platform !== 'win32') chmodSync(temp, options.mode);
    renameSync(temp, target);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // never made, or already gone
    }
    throw err;
  }
}
