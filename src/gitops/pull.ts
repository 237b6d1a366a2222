/**
 * `pull`: the account written as files. Every agent field the service returns is kept:
 * the writable ones under their own keys, the ones voicectl does not know under
 * `other_fields`, as they came. Documents are references by folder and name (the
 * service offers no download); a local file put at that path is uploaded by apply.
 * Everything written is adopted: the lock records its id.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Document } from 'yaml';
import type { ApiClient } from '../api/client.js';
import type { Agent } from '../api/agents.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { EVENT_TYPES } from '../webhooks/signature.js';
import { checkWritableInside, RefusedFile } from './files.js';
import { holdRunLock } from './run-lock.js';
import { readAccount } from './account.js';
import { FileRef, fileTag, findConfig, loadDesired } from './load.js';
import { emptyLock, lockPath, openLock, writeLock, type Lock } from './lock.js';
import { AGENT_TEXT_FIELDS, SERVER_SET_AGENT_FIELDS, kbPath } from './model.js';
import { schemaText } from './schema.js';

const SCHEMA_FILE = 'voicectl.schema.json';
const KNOWN = new Set<string>([...AGENT_TEXT_FIELDS, 'tools', 'kb_item_ids', ...SERVER_SET_AGENT_FIELDS]);
/** A prompt this long, or on several lines, goes to a file of its own. */
const LONG_TEXT = 200;

export interface PullOptions {
  dir: string;
  baseUrl: string;
  lockFile?: string;
  /** Asked before an existing voicectl.yaml is replaced; false leaves everything as it was. */
  confirmReplace: (file: string) => Promise<boolean>;
  warn: (line: string) => void;
}

export interface PullResult {
  written: boolean;
  files: string[];
  agents: number;
  documents: number;
  webhooks: number;
}

function slug(text: string, fallback: string): string {
  const s = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48).replace(/-+$/, '');
  return s || fallback;
}

function unique(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

export async function pull(api: ApiClient, options: PullOptions): Promise<PullResult> {
  const lockFile = lockPath(options.dir, options.lockFile);
  // A folder that does not exist yet has no apply running on it.
  const release = existsSync(dirname(lockFile)) ? await holdRunLock(lockFile, 'pull') : async () => {};
  try {
    return await pullLocked(api, options, lockFile);
  } finally {
    await release();
  }
}

async function pullLocked(api: ApiClient, options: PullOptions, lockFile: string): Promise<PullResult> {
  const { dir } = options;
  // Another account's lock is refused, not overwritten.
  const oldLock = await openLock(lockFile, options.baseUrl);
  const existing = findConfig(dir);
  // Keep the local paths the files already use for the same documents.
  const localOf = new Map<string, string>();
  if (existing) {
    try {
      for (const d of (await loadDesired(dir)).documents.values()) localOf.set(kbPath(d.folder, d.name), d.local);
    } catch {
      // A file that does not load is being replaced anyway.
    }
  }
  const account = await readAccount(api, { folders: [], wholeKnowledgeBase: true });

  const byName = new Map<string, Agent[]>();
  for (const a of account.agents) byName.set(String(a.name), [...(byName.get(String(a.name)) ?? []), a]);
  const dupes = [...byName.entries()].filter(([, list]) => list.length > 1);
  if (dupes.length) {
    throw new UsageError(`The account has agents that share a name, which these files cannot tell apart:\n${dupes.map(([name, list]) => `  "${name}": ${list.map((a) => a.id).join(', ')}`).join('\n')}`, {
      hint: 'Rename all but one (voicectl agent update ID --name "…"), then pull again.',
    });
  }

  const lock: Lock = emptyLock(options.baseUrl);
  const files: string[] = [];
  const handleOf = (section: Record<string, { id?: string }> | undefined, id: string) => Object.entries(section ?? {}).find(([, v]) => v.id === id)?.[0];

  const documents: Record<string, unknown> = {};
  const localById = new Map<string, string>();
  for (const doc of [...account.documents.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    const local = localOf.get(doc.path) ?? `kb/${doc.path}`;
    const entry: Record<string, string> = {};
    if (doc.folder) entry.folder = doc.folder;
    if (local.split('/').pop() !== doc.name) entry.name = doc.name;
    documents[local] = entry;
    localById.set(doc.id, local);
    const old = oldLock.documents[doc.path];
    const keepHash = old?.id === doc.id && old.sha256 && old.size_bytes === doc.size_bytes;
    lock.documents[doc.path] = keepHash ? { id: doc.id, sha256: old.sha256, size_bytes: old.size_bytes } : { id: doc.id, size_bytes: doc.size_bytes };
  }

  const target = existing ?? join(dir, 'voicectl.yaml');
  // JSON has no tags: long prompts stay inline there (or move them to a prompt_file by hand).
  const asJson = target.endsWith('.json');
  const agents: Record<string, unknown> = {};
  const taken = new Set<string>();
  const prompts: Array<{ path: string; text: string }> = [];
  for (const a of [...account.agents].sort((x, y) => String(x.name).localeCompare(String(y.name)))) {
    const oldHandle = handleOf(oldLock.agents, a.id);
    const handle = oldHandle && !taken.has(oldHandle) ? (taken.add(oldHandle), oldHandle) : unique(slug(String(a.name), 'agent'), taken);
    const entry: Record<string, unknown> = {};
    for (const field of AGENT_TEXT_FIELDS) {
      const v = a[field];
      if (typeof v !== 'string') continue;
      if (field === 'prompt' && !asJson && (v.includes('\n') || v.length > LONG_TEXT)) {
        const path = `prompts/${handle}.md`;
        prompts.push({ path, text: `${v}\n` });
        entry[field] = new FileRef(path);
      } else {
        entry[field] = v;
      }
    }
    if (Array.isArray(a.tools)) entry.tools = a.tools;
    if (Array.isArray(a.kb_item_ids)) {
      const missing = a.kb_item_ids.filter((id) => !localById.has(String(id)));
      if (missing.length) options.warn(`agent "${a.name}" refers to knowledge-base item ${missing.join(', ')}, which the knowledge base does not list: its documents are left out of the files (and left alone by apply).`);
      else entry.documents = a.kb_item_ids.map((id) => localById.get(String(id)));
    }
    const other = Object.fromEntries(Object.entries(a).filter(([k]) => !KNOWN.has(k)));
    if (Object.keys(other).length) entry.other_fields = other;
    agents[handle] = entry;
    lock.agents[handle] = { id: a.id, name: String(a.name) };
  }

  const webhooks: Record<string, unknown> = {};
  const hookTaken = new Set<string>();
  if (account.webhooks) {
    for (const e of account.webhooks) {
      const id = String(e.id);
      const oldHandle = handleOf(oldLock.webhooks, id);
      const handle = oldHandle && !hookTaken.has(oldHandle) ? (hookTaken.add(oldHandle), oldHandle) : unique(slug(String(e.url ?? '').replace(/^https?:\/\//, ''), 'endpoint'), hookTaken);
      const entry: Record<string, unknown> = { url: e.url };
      const all = !Array.isArray(e.events) || e.events.length === 0 || EVENT_TYPES.every((t) => e.events!.includes(t));
      if (!all) entry.events = e.events;
      if (typeof e.enabled === 'boolean') entry.enabled = e.enabled;
      webhooks[handle] = entry;
      lock.webhooks[handle] = { id, url: String(e.url), events: all ? undefined : (e.events as string[]), enabled: typeof e.enabled === 'boolean' ? e.enabled : undefined };
    }
  } else if (Object.keys(oldLock.webhooks).length) {
    options.warn('This service does not list webhook endpoints: the files keep the ones voicectl applied before, as it last applied them.');
    for (const [handle, w] of Object.entries(oldLock.webhooks)) {
      if (!w.id || !w.url) continue;
      webhooks[handle] = { url: w.url, ...(w.events ? { events: w.events } : {}), ...(w.enabled !== undefined ? { enabled: w.enabled } : {}) };
      lock.webhooks[handle] = w;
    }
  } else {
    options.warn('This service does not list webhook endpoints: none are written. Declare yours under webhooks: to manage them.');
  }

  const result: PullResult = { written: false, files, agents: Object.keys(agents).length, documents: Object.keys(documents).length, webhooks: Object.keys(webhooks).length };
  if (existing && !(await options.confirmReplace(existing))) return result;

  const body = { version: 1, agents, documents, webhooks };
  const configRel = relative(dir, target);
  // Every file is checked before any is written: a link in the folder is refused, not written through.
  const writes: Array<{ path: string; text: string }> = [
    ...prompts,
    { path: configRel, text: asJson ? `${JSON.stringify(body, null, 2)}\n` : yamlText(body) },
    { path: SCHEMA_FILE, text: schemaText() },
  ];
  for (const w of writes) {
    await checkWritableInside(dir, w.path).catch((err: unknown) => {
      throw err instanceof RefusedFile ? new UsageError(`Cannot write ${join(dir, w.path)}: ${err.message}; voicectl writes only regular files inside the folder (see docs/safety.md).`) : err;
    });
  }
  await mkdir(dir, { recursive: true });
  for (const w of writes) {
    await mkdir(dirname(join(dir, w.path)), { recursive: true });
    // Written whole and renamed into place, which replaces the file rather than writing through it.
    await writeFileAtomic(join(dir, w.path), w.text);
    files.push(w.path);
  }
  await writeLock(lockFile, lock);
  files.push(relative(dir, lockFile));
  result.written = true;
  return result;
}

export function yamlText(body: Record<string, unknown>): string {
  const doc = new Document(body, { customTags: [fileTag] });
  const header = [
    `# yaml-language-server: $schema=./${SCHEMA_FILE}`,
    '# The account as code: `voicectl plan` shows what differs, `voicectl apply` makes the account match.',
    '# Written by `voicectl pull`; see docs/account-as-code.md.',
  ].join('\n');
  return `${header}\n${doc.toString({ lineWidth: 0 })}`;
}
