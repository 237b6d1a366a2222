/**
 * One apply (or pull) at a time per lock file. Two runs side by side would each plan
 * the same creates from the same lock and send them all twice. The lock is a folder
 * beside the lock file (voicectl.lock.json.lock, taken with proper-lockfile; git does not
 * track an empty folder), holding who took it: a run killed with SIGKILL leaves it
 * behind, and the next run on the same machine sees that process is gone and takes over
 * at once. From another machine (a shared disk), a lock nobody refreshes is taken over
 * after STALE_MS.
 */
import * as fs from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FailureError } from '../errors.js';
import { fsErrorReason } from '../util/fs-error.js';
import { isRunning } from '../util/atomic-file.js';

const STALE_MS = 10_000;
const OWNER = 'owner.json';

export type Release = () => Promise<void>;

function busy(lockFile: string, what: 'apply' | 'pull'): FailureError {
  const other = what === 'apply' ? 'another apply is running' : 'an apply or another pull is running';
  return new FailureError(`${other} with ${lockFile}: one at a time, or both would act on the same lock.`, {
    hint: `Wait for it to finish, then run this again${what === 'apply' ? ' (its plan will include what the other one did)' : ''}. A pull takes the same lock. If none is running, remove the folder ${lockFile}.lock.`,
  });
}

/** Whether the lock was taken by a process of this machine that no longer runs. */
async function holderGone(lockDir: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(await readFile(join(lockDir, OWNER), 'utf8')) as typeof owner;
  } catch {
    // No owner yet (it is written just after the lock is taken) or unreadable: assume it runs.
    return false;
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number' || owner.pid === process.pid) return false;
  // Not a pid process.kill takes (it throws a TypeError for one outside 32-bit integers): assume it runs.
  if (owner.pid !== (owner.pid | 0)) return false;
  return !isRunning(owner.pid);
}

/** Takes the lock of `lockFile` for this run or throws "another … is running" (exit 1). */
export async function holdRunLock(lockFile: string, what: 'apply' | 'pull'): Promise<Release> {
  // proper-lockfile is loaded only by the verbs that write the lock file.
  const lockfile = await import('proper-lockfile');
  const lockDir = `${lockFile}.lock`;
  const options = {
    realpath: false, stale: STALE_MS, lockfilePath: lockDir,
    // A lock taken over as stale means this run was frozen for STALE_MS; the lock file is still written whole.
    onCompromised: () => {},
    // The folder holds owner.json: removing it (a stale lock taken over, the release, the
    // clean-up at exit) must remove what is in it, where proper-lockfile calls rmdir.
    fs: {
      ...fs,
      rmdir: (path: string, callback: (err: NodeJS.ErrnoException | null) => void) => fs.rm(path, { recursive: true, force: true }, callback),
      rmdirSync: (path: string) => fs.rmSync(path, { recursive: true, force: true }),
    },
  };
  const take = async () => {
    try {
      return await lockfile.lock(lockFile, options);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
      throw new FailureError(`Cannot lock ${lockFile}: ${fsErrorReason(err)}.`);
    }
  };
  let release = await take();
  if (!release && (await holderGone(lockDir))) {
    await rm(lockDir, { recursive: true, force: true });
    release = await take();
  }
  if (!release) throw busy(lockFile, what);
  await writeFile(join(lockDir, OWNER), JSON.stringify({ pid: process.pid, host: hostname() })).catch(() => {});
  const free = release;
  return async () => {
    await free().catch(() => {});
  };
}
