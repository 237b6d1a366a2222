/**
 * One runner per journal. Two runs over one journal would each release the same next
 * wave, and people would be called twice; so a run holds the journal's lock, a folder
 * beside it (`J.lock`, holding `owner.json`: pid, host, a random token), from before its
 * first write to its end, and a second run is refused (exit 1) while it is held.
 *
 * A run killed outright leaves its lock behind. A lock whose process is gone, on this
 * machine, is taken over; a lock from another machine (a shared disk) never is, since
 * its process cannot be checked from here (the message says how to remove it).
 *
 * Every step is atomic, so when two runners find the same stale lock exactly one goes on:
 * - a lock appears whole: made under a name of its own with its owner inside, then
 *   renamed into place (a rename onto a folder that is not empty fails);
 * - a stale lock is taken over only by the one runner that made the folder
 *   `J.lock.TOKEN.takeover` (mkdir is atomic, and TOKEN names that one stale lock), which
 *   checks that the lock is still that one before moving it aside.
 * proper-lockfile (which `apply` uses) removes a stale lock and then retries its mkdir:
 * two runners can both remove and both take, which is the case this must not allow.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { FailureError } from '../../errors.js';
import { shellQuote } from '../../text/text.js';
import { isRunning } from '../../util/atomic-file.js';
import { fsErrorReason } from '../../util/fs-error.js';

const OWNER = 'owner.json';

export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  /** When it was taken (ISO). */
  since: string;
}

export interface JournalLock {
  readonly path: string;
  release(): Promise<void>;
}

export interface LockOptions {
  /** Whether a process of this machine runs (tests pass their own). */
  running?: (pid: number) => boolean;
  now?: () => Date;
  /** Called once a lock is judged stale, before the takeover (tests hold runners here so that all find it stale at once). */
  onStale?: () => Promise<void>;
}

async function ownerOf(lockDir: string): Promise<LockOwner | 'absent' | 'unknown'> {
  let text: string;
  try {
    text = await readFile(join(lockDir, OWNER), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'unknown';
  }
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.token === 'string') return { pid: o.pid, host: o.host, token: o.token, since: String(o.since ?? '') };
  } catch {
    // fall through
  }
  return 'unknown';
}

export function busyError(journal: string, owner: LockOwner | 'unknown'): FailureError {
  const who = owner === 'unknown' ? '' : ` (process ${owner.pid} on ${owner.host === hostname() ? 'this machine' : owner.host}${owner.since ? `, since ${owner.since}` : ''})`;
  return new FailureError(`another run is using ${journal}${who}: one run per journal, or both would release the same wave and call people twice.`, {
    hint: `Follow it with: voicectl campaign run status ${shellQuote(journal)}. If no run is using it (its machine was turned off), remove the folder ${shellQuote(`${journal}.lock`)} and resume.`,
  });
}

/** Takes the journal's lock, or throws "another run is using J" (exit 1). */
export async function lockJournal(journal: string, o: LockOptions = {}): Promise<JournalLock> {
  const running = o.running ?? isRunning;
  const lockDir = `${journal}.lock`;
  const me: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex'), since: (o.now?.() ?? new Date()).toISOString() };
  const staging = `${lockDir}.${me.token}.new`;
  const fail = (err: unknown) => new FailureError(`Cannot lock the journal ${journal}: ${fsErrorReason(err)}.`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await writeFile(join(staging, OWNER), JSON.stringify(me), { mode: 0o600 });
  } catch (err) {
    await rm(staging, { recursive: true, force: true }).catch(() => {});
    throw fail(err);
  }
  try {
    // A few turns at most: each one either takes the lock, finds it held, or clears a stale one.
    for (let turn = 0; turn < 5; turn++) {
      try {
        await rename(staging, lockDir);
        return held(journal, lockDir, me);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EISDIR' && code !== 'ENOTDIR') throw fail(err);
      }
      const owner = await ownerOf(lockDir);
      if (owner === 'absent') continue; // released or moved aside meanwhile: try again
      if (owner === 'unknown' || owner.host !== me.host || owner.pid === process.pid || running(owner.pid)) throw busyError(journal, owner);
      // Stale: its process is gone. Only the runner that claims this lock's token takes it over.
      await o.onStale?.();
      const claim = `${lockDir}.${owner.token}.takeover`;
      try {
        await mkdir(claim);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw busyError(journal, 'unknown');
        throw fail(err);
      }
      try {
        // Still that stale lock? (A runner that judged it stale earlier finds another's lock here by now.)
        const still = await ownerOf(lockDir);
        if (still !== 'absent' && still !== 'unknown' && still.token === owner.token) {
          const dead = `${lockDir}.${owner.token}.dead`;
          await rm(dead, { recursive: true, force: true });
          await rename(lockDir, dead);
          await rm(dead, { recursive: true, force: true });
        }
      } finally {
        // Safe to remove: whoever makes the claim again checks the lock first, as above.
        await rm(claim, { recursive: true, force: true }).catch(() => {});
      }
    }
    throw busyError(journal, 'unknown');
  } finally {
    await rm(staging, { recursive: true, force: true }).catch(() => {});
  }
}

function held(journal: string, lockDir: string, me: LockOwner): JournalLock {
  let released = false;
  const ours = () => {
    try {
      return (JSON.parse(readFileSync(join(lockDir, OWNER), 'utf8')) as LockOwner).token === me.token;
    } catch {
      return false;
    }
  };
  // An exit without the run's clean-up (a second Ctrl-C) still frees the lock.
  const onExit = () => {
    if (!released && ours()) rmSync(lockDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  void sweepClaims(lockDir, me.token);
  return {
    path: lockDir,
    async release() {
      if (released) return;
      released = true;
      process.removeListener('exit', onExit);
      if (!ours()) return;
      const gone = `${lockDir}.${me.token}.dead`;
      await rename(lockDir, gone).catch(() => {});
      await rm(gone, { recursive: true, force: true }).catch(() => {});
    },
  };
}

/** The takeover claims of locks that are no more (this run holds the lock now): safe to remove, a claim is checked against the lock after it is made. */
async function sweepClaims(lockDir: string, token: string): Promise<void> {
  const dir = dirname(lockDir);
  const prefix = `${basename(lockDir)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/\.[0-9a-f]{16}\.(takeover|dead)$/.test(name) || name.includes(token)) continue;
    await rm(join(dir, name), { recursive: true, force: true }).catch(() => {});
  }
}
