/**
 * Opening a file of the account folder. The folder arrives through pull requests as
 * often as from its owner, and CI runs `plan` on it with the API key in its environment:
 * a symbolic link to /proc/self/environ or ~/.ssh/id_ed25519 would be printed in the
 * plan or uploaded, and a FIFO would hang the run. So only regular files that really
 * are inside the folder are read, with no symbolic link on the way to them, and with one
 * name only: a hard link is the same file as its other name, which may be outside the
 * folder (a hard link to a secret, unpacked from an archive into the folder).
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A file of the folder voicectl will not read; the message says why. */
export class RefusedFile extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedFile';
  }
}

export interface InsideFile {
  handle: FileHandle;
  size: number;
}

function kindOf(s: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Whether a path relative to a folder (path.relative's answer) leads out of it: `..`, `../x`, or another drive or root. */
function leaves(inside: string): boolean {
  return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
}

/**
 * Where `raw` (relative to `root`, or absolute) really is, as a path relative to the real
 * `root` with no symbolic link left in it ('.' for the folder itself), or RefusedFile when
 * it is outside the folder: by `..`, by an absolute path, or by a symbolic link anywhere on
 * the way that leads out. Links that stay inside are fine. A path where nothing is throws
 * the usual ENOENT error. For what another reader will open by path (voicectl mcp's tools).
 */
export async function realPathInside(root: string, raw: string): Promise<string> {
  if (raw.includes('\0')) throw new RefusedFile(`${JSON.stringify(raw)} holds a NUL character`);
  const base = resolve(root);
  const abs = resolve(base, raw);
  if (leaves(relative(base, abs))) throw new RefusedFile(`${raw} is outside the folder`);
  const [realBase, real] = await Promise.all([realpath(base), realpath(abs)]);
  const inside = relative(realBase, real);
  if (leaves(inside)) throw new RefusedFile(`${raw} leads outside the folder through a symbolic link`);
  return inside === '' ? '.' : inside;
}

/** O_NOFOLLOW and O_NONBLOCK where the platform has them: a swapped-in link or FIFO fails the open instead of blocking it. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens `rel` (relative to `root`) for reading, or throws RefusedFile: a path that leaves
 * the folder, a symbolic link anywhere below the folder, anything but a regular file, a
 * file with more than one hard link.
 * A missing file throws the usual ENOENT error. The caller closes the handle.
 */
export async function openInside(root: string, rel: string): Promise<InsideFile> {
  const base = resolve(root);
  const abs = resolve(base, rel);
  const inside = relative(base, abs);
  if (inside === '' || leaves(inside)) {
    throw new RefusedFile(`${rel} is outside the folder`);
  }
  // Every step below the folder is looked at without following it.
  const parts = inside.split(sep);
  let at = base;
  for (let i = 0; i < parts.length; i++) {
    at = join(at, parts[i]!);
    const s = await lstat(at);
    const shown = parts.slice(0, i + 1).join('/');
    if (s.isSymbolicLink()) {
      throw new RefusedFile(i === parts.length - 1 ? `${shown} is a symbolic link` : `${shown}/ is a symbolic link`);
    }
    if (i < parts.length - 1 && !s.isDirectory()) throw new RefusedFile(`${shown} is not a folder`);
    if (i === parts.length - 1 && !s.isFile()) throw new RefusedFile(`${shown} is ${kindOf(s)}, not a regular file`);
  }
  // The real path too: a folder that is itself reached through a link is fine, but what is read must be under it.
  const [realBase, realFile] = await Promise.all([realpath(base), realpath(abs)]);
  if (!(realFile.startsWith(realBase + sep))) throw new RefusedFile(`${rel} is outside the folder`);
  let handle: FileHandle;
  try {
    handle = await open(abs, OPEN_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new RefusedFile(`${rel} is a symbolic link`);
    throw err;
  }
  // What was opened is what was checked: it may have been replaced in between.
  const s = await handle.stat();
  if (!s.isFile()) {
    await handle.close();
    throw new RefusedFile(`${rel} is ${kindOf(s)}, not a regular file`);
  }
  if (s.nlink > 1) {
    await handle.close();
    throw new RefusedFile(`${rel} has ${s.nlink} hard links (names), and another name may be a file outside the folder; replace it with a copy of its own`);
  }
  return { handle, size: s.size };
}

/** The whole file as text. */
export async function readInside(root: string, rel: string): Promise<string> {
  const { handle } = await openInside(root, rel);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Whether anything (a file, a dangling link, a FIFO) is at the path: a reference is only a path where nothing is. */
export async function somethingAt(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw err;
  }
}

/**
 * Throws RefusedFile when writing `rel` would follow a symbolic link below the folder or
 * replace something that is not a regular file: a pulled prompt must not land in
 * ~/.bashrc because the folder held a link called prompts/. Missing steps are fine.
 */
export async function checkWritableInside(root: string, rel: string): Promise<void> {
  const base = resolve(root);
  const inside = relative(base, resolve(base, rel));
  if (inside === '' || leaves(inside)) throw new RefusedFile(`${rel} is outside the folder`);
  const parts = inside.split(sep);
  let at = base;
  for (let i = 0; i < parts.length; i++) {
    at = join(at, parts[i]!);
    let s;
    try {
      s = await lstat(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const shown = parts.slice(0, i + 1).join('/');
    if (s.isSymbolicLink()) throw new RefusedFile(i === parts.length - 1 ? `${shown} is a symbolic link` : `${shown}/ is a symbolic link`);
    if (i < parts.length - 1 && !s.isDirectory()) throw new RefusedFile(`${shown} is not a folder`);
    if (i === parts.length - 1 && !s.isFile()) throw new RefusedFile(`${shown} is ${kindOf(s)}, not a regular file`);
  }
}
