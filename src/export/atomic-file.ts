/**
 * A file written under a temporary name in the same directory and renamed into place
 * only when complete, so a failed or interrupted run never leaves a file that looks
 * finished (rename within one directory is atomic).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

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
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export async function openAtomic(target: string): Promise<AtomicFile> {
  const tempPath = tempPathFor(target);
  const stream = createWriteStream(tempPath, { flags: 'wx' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
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
    },
  };
}

/** A small file (the export state) replaced atomically. */
export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const temp = tempPathFor(target);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}
