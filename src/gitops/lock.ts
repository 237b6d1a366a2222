/**
 * voicectl.lock.json: which resources of the account these files manage, by id. Written
 * (atomically) after every step of an apply, and before every create: an entry marked
 * `pending` says a create was sent, so a run killed before the answer arrived finds the
 * resource by name next time instead of creating it twice.
 */
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { isObject } from '../util/is-object.js';
import { openInside, RefusedFile } from './files.js';
import { LOCK_NAME } from './model.js';

export interface LockedAgent {
  id?: string;
  name?: string;
  /** A POST was sent and its answer not recorded. */
  pending?: 'create';
}

export interface LockedDocument {
  id?: string;
  /** Of the bytes voicectl last uploaded; absent for a document only pulled. */
  sha256?: string;
  size_bytes?: number;
  pending?: 'upload';
}

export interface LockedWebhook {
  id?: string;
  /** What voicectl last applied: a service with no way to list endpoints is compared with this. */
  url?: string;
  events?: string[];
  enabled?: boolean;
  pending?: 'create';
}

export interface Lock {
  version: 1;
  /** The account these ids belong to. */
  base_url?: string;
  agents: Record<string, LockedAgent>;
  /** By the account's path of the document (folder/name). */
  documents: Record<string, LockedDocument>;
  webhooks: Record<string, LockedWebhook>;
}

export function emptyLock(baseUrl?: string): Lock {
  return { version: 1, base_url: baseUrl === undefined ? undefined : accountUrl(baseUrl), agents: {}, documents: {}, webhooks: {} };
}

/**
 * The base URL as the lock records it: origin and path only. The lock is committed, and
 * a base URL may carry `user:password@` or `?api_key=…`; neither names the account.
 */
export function accountUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
  } catch {
    return baseUrl.replace(/[?#].*$/s, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1').replace(/\/+$/, '');
  }
}

export function lockPath(dir: string, override?: string): string {
  return override ?? join(dir, LOCK_NAME);
}

export async function readLock(path: string): Promise<Lock | undefined> {
  let text: string;
  try {
    // Like every file of the folder: a link to a secret, or a FIFO, is not read.
    const { handle } = await openInside(dirname(path), basename(path));
    try {
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (err instanceof RefusedFile) throw new UsageError(`${path} cannot be used: ${err.message}; voicectl reads only regular files as its lock (see docs/safety.md).`);
    throw new UsageError(`Cannot read ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path} is not valid JSON (${(err as Error).message}).`, {
      hint: 'It is written by voicectl; restore it from git (a merge conflict in it is resolved by keeping both sides\' entries).',
    });
  }
  const d = data as Partial<Lock> | null;
  if (!d || typeof d !== 'object' || d.version !== 1) throw new UsageError(`${path}: not a voicectl lock file of version 1.`);
  const section = (v: unknown) => (isObject(v) ? (v as Record<string, never>) : {});
  return { version: 1, base_url: typeof d.base_url === 'string' ? accountUrl(d.base_url) : undefined, agents: section(d.agents), documents: section(d.documents), webhooks: section(d.webhooks) };
}

/**
 * The lock of this folder for this account. A lock made against another base URL holds
 * another account's ids: using it would take this account's look-alikes for them.
 */
export async function openLock(path: string, baseUrl: string): Promise<Lock> {
  const lock = await readLock(path);
  if (!lock) return emptyLock(baseUrl);
  if (lock.base_url && sameService(lock.base_url, baseUrl) === false) {
    throw new UsageError(`${path} belongs to ${lock.base_url}, not ${accountUrl(baseUrl)}.`, {
      hint: 'Keep one lock per account: pass --lock FILE (for example voicectl.staging.lock.json) for this one.',
    });
  }
  lock.base_url ??= accountUrl(baseUrl);
  return lock;
}

function sameService(a: string, b: string): boolean {
  return accountUrl(a) === accountUrl(b);
}

/** Keys sorted, so the committed file changes only where the account did. */
export function lockText(lock: Lock): string {
  const sorted = <T>(r: Record<string, T>) => Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!]));
  return `${JSON.stringify({ version: 1, base_url: lock.base_url, agents: sorted(lock.agents), documents: sorted(lock.documents), webhooks: sorted(lock.webhooks) }, null, 2)}\n`;
}

export async function writeLock(path: string, lock: Lock): Promise<void> {
  await writeFileAtomic(path, lockText(lock));
}
