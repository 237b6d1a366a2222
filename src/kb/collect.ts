/**
 * Turns the paths of `kb upload` into the files to send: folders are walked, their
 * subfolders kept under --folder, and every file is checked against the accepted formats
 * and the size limit before anything is uploaded.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { rejectionOf } from './formats.js';
import { noun } from '../text/text.js';

export interface PlannedFile {
  /** Absolute path on disk. */
  local: string;
  /** The path as the user would recognise it (relative to the working directory). */
  display: string;
  name: string;
  /** Folder in the knowledge base; '' is the top level. */
  folder: string;
  /** Folder plus name, as the service reports `path`. */
  path: string;
  size: number;
}

export interface SkippedFile {
  display: string;
  reason: string;
}

export interface UploadPlan {
  files: PlannedFile[];
  skipped: SkippedFile[];
  /** Hidden files and folders (dot names) inside walked folders, left out silently but counted. */
  hidden: number;
}

/** `/a//b/` and `a/b` are the same folder. */
export function normalizeFolder(folder: string | undefined): string {
  if (!folder) return '';
  return folder.split(/[/\\]/).map((s) => s.trim()).filter((s) => s !== '' && s !== '.').join('/');
}

function joinKb(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/**
 * Why a file found in a walked folder is left out when files must stay inside `root`
 * (voicectl mcp): a link that leads out of it, or to a hidden name; undefined when it is fine.
 */
async function leavesRoot(root: string, abs: string): Promise<string | undefined> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(abs)]);
  const inside = relative(realRoot, real);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return 'a link that leads outside the folder voicectl mcp serves';
  if (inside.split(sep).some((part) => part.startsWith('.'))) return 'a link to a hidden file';
  return undefined;
}

export async function collectFiles(cwd: string, paths: string[], folderOption: string | undefined, inside?: string): Promise<UploadPlan> {
  const base = normalizeFolder(folderOption);
  if (base.split('/').some((s) => s === '..')) throw new UsageError(`--folder "${folderOption}" may not contain "..".`);
  const plan: UploadPlan = { files: [], skipped: [], hidden: 0 };
  const missing: string[] = [];
  const roots: Array<{ abs: string; arg: string; isDir: boolean; size: number }> = [];
  for (const arg of paths) {
    const abs = resolve(cwd, arg);
    try {
      const s = await stat(abs);
      if (!s.isDirectory() && !s.isFile()) {
        plan.skipped.push({ display: arg, reason: 'not a regular file' });
        continue;
      }
      roots.push({ abs, arg, isDir: s.isDirectory(), size: s.size });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      missing.push(`${arg} (${code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file or folder' : code === 'EACCES' ? 'permission denied' : (err as Error).message})`);
    }
  }
  if (missing.length > 0) {
    throw new UsageError(`Cannot upload ${missing.join(', ')}.`, { hint: 'Nothing was uploaded. Check the paths and run again.' });
  }
  const seen = new Map<string, string>();
  const seenLocal = new Set<string>();
  const add = (abs: string, folder: string, size: number) => {
    const display = displayPath(cwd, abs);
    if (seenLocal.has(abs)) return;
    seenLocal.add(abs);
    const name = basename(abs);
    const reason = rejectionOf(name, size);
    if (reason) {
      plan.skipped.push({ display, reason });
      return;
    }
    const path = joinKb(folder, name);
    const first = seen.get(path);
    if (first !== undefined) {
      plan.skipped.push({ display, reason: `same name and folder as ${first}, which it would replace (${path})` });
      return;
    }
    seen.set(path, display);
    plan.files.push({ local: abs, display, name, folder, path, size });
  };
  for (const root of roots) {
    const outside = inside === undefined ? undefined : await leavesRoot(inside, root.abs);
    if (outside) plan.skipped.push({ display: root.arg, reason: outside });
    else if (root.isDir) await walk(root.abs, base, plan, add, cwd, inside);
    else add(root.abs, base, root.size);
  }
  return plan;
}

async function walk(dir: string, folder: string, plan: UploadPlan, add: (abs: string, folder: string, size: number) => void, cwd: string, inside?: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    plan.skipped.push({ display: `${displayPath(cwd, dir)}${sep}`, reason: `cannot read the folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const abs = join(dir, entry.name);
    // .git, .DS_Store and editor files are never documents someone meant to upload.
    if (entry.name.startsWith('.')) {
      plan.hidden++;
      continue;
    }
    if (entry.isDirectory()) {
      await walk(abs, joinKb(folder, entry.name), plan, add, cwd, inside);
      continue;
    }
    let size: number;
    try {
      const s = await stat(abs);
      if (s.isDirectory()) {
        // Following linked folders could loop forever or leave the tree the user named.
        plan.skipped.push({ display: displayPath(cwd, abs), reason: 'a link to a folder (links to folders are not followed)' });
        continue;
      }
      if (!s.isFile()) {
        plan.skipped.push({ display: displayPath(cwd, abs), reason: 'not a regular file' });
        continue;
      }
      size = s.size;
      const outside = inside === undefined ? undefined : await leavesRoot(inside, abs);
      if (outside) {
        plan.skipped.push({ display: displayPath(cwd, abs), reason: outside });
        continue;
      }
    } catch (err) {
      plan.skipped.push({ display: displayPath(cwd, abs), reason: `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
      continue;
    }
    add(abs, folder, size);
  }
}

function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') ? rel : abs;
}

/** Says on stderr what the plan left out, before anything is sent. */
export function reportSkipped(ctx: Context, skipped: SkippedFile[], hidden: number): void {
  const c = ctx.errColor;
  if (skipped.length > 0) {
    ctx.info(c.yellow(`Skipping ${skipped.length} ${noun(skipped.length, 'file')}:`));
    for (const s of skipped) ctx.info(`  ${s.display}: ${s.reason}`);
  }
  if (hidden > 0) ctx.info(c.dim(`Left out ${hidden} hidden ${noun(hidden, 'file')} or ${noun(hidden, 'folder')} (names starting with a dot).`));
}
