/** The lock one apply holds for its run: who may take it over, and when. */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdRunLock } from '../../src/gitops/run-lock.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

let tmp: TempDir | undefined;
afterEach(() => tmp?.remove());

/** A lock folder as a run left it, with its owner and the age of its last refresh. */
function leftLock(lockFile: string, owner: { pid: number; host: string }, ageMs = 0): void {
  const dir = `${lockFile}.lock`;
  mkdirSync(dir);
  writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
  const at = new Date(Date.now() - ageMs);
  utimesSync(dir, at, at);
}

/** A pid no process has: past the largest the kernel hands out. */
const GONE = 2 ** 22 + 12345;

describe('holdRunLock', () => {
  it('is taken, refused to a second taker with "another apply is running", and released', async () => {
    tmp = tempDir();
    const lockFile = join(tmp.dir, 'voicectl.lock.json');
    const release = await holdRunLock(lockFile, 'apply');
    await expect(holdRunLock(lockFile, 'apply')).rejects.toThrow(/another apply is running/);
    await release();
    expect(existsSync(`${lockFile}.lock`)).toBe(false);
    await (await holdRunLock(lockFile, 'apply'))();
  });

  it('held by a live process of this machine is refused', async () => {
    tmp = tempDir();
    const lockFile = join(tmp.dir, 'voicectl.lock.json');
    leftLock(lockFile, { pid: process.ppid, host: hostname() });
    await expect(holdRunLock(lockFile, 'apply')).rejects.toThrow(/another apply is running/);
  });

  it('left by a process of this machine that is gone is taken over at once', async () => {
    tmp = tempDir();
    const lockFile = join(tmp.dir, 'voicectl.lock.json');
    leftLock(lockFile, { pid: GONE, host: hostname() });
    await (await holdRunLock(lockFile, 'apply'))();
  });

  it('left by another machine is taken over once nobody has refreshed it for 10 seconds, owner file and all', async () => {
    tmp = tempDir();
    const lockFile = join(tmp.dir, 'voicectl.lock.json');
    leftLock(lockFile, { pid: GONE, host: 'elsewhere' });
    await expect(holdRunLock(lockFile, 'pull')).rejects.toThrow(/an apply or another pull is running/);
    const at = new Date(Date.now() - 60_000);
    utimesSync(`${lockFile}.lock`, at, at);
    const release = await holdRunLock(lockFile, 'pull');
    await release();
    expect(existsSync(`${lockFile}.lock`)).toBe(false);
  });
});
