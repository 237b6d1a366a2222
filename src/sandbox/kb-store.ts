/**
 * The knowledge base of one organization: files and folders keyed by id (plain JSON for
 * --state) and indexing jobs whose visible state follows the simulated clock, so no timer
 * has to survive a restart.
 */
import { HttpError } from './http-error.js';
import type { IndexOutcome, KbFormat } from './kb-extract.js';
import type { Agent, Campaign } from './records.js';

/** What the store needs of the world: its clock and ids (world.ts's World). */
interface KbWorld {
  clock: { now(): number; nowIso(): string };
  uuid(): string;
}

export interface KbItem {
  id: string;
  name: string;
  type: 'file' | 'folder';
  /** Folder path plus name, without a leading slash: `policies/2025/refunds.pdf`. */
  path: string;
  /** The containing folder's path; '' at the top level. */
  folder: string;
  size_bytes: number;
  format?: KbFormat;
  /** The latest indexing job of a file. */
  job_id?: string;
  created_at: string;
  updated_at: string;
}

export interface KbJob {
  id: string;
  item_id: string;
  /** Simulated ms: queued until processing_at, processing until done_at. */
  created: number;
  processing_at: number;
  done_at: number;
  outcome: IndexOutcome;
}

export interface KbState {
  items: Record<string, KbItem>;
  jobs: Record<string, KbJob>;
}

export function emptyKb(): KbState {
  return { items: {}, jobs: {} };
}

/** Own properties only: an id such as `__proto__` is simply not found. */
export function getItem(kb: KbState, id: string): KbItem | undefined {
  return Object.hasOwn(kb.items, id) ? kb.items[id] : undefined;
}

export function getJob(kb: KbState, id: string): KbJob | undefined {
  return Object.hasOwn(kb.jobs, id) ? kb.jobs[id] : undefined;
}

const MAX_SEGMENT = 255;
const MAX_DEPTH = 32;

/** `/a//b/` and `a/b` are the same folder; `..`, `.` and control characters are refused. */
export function normalizeFolder(raw: string | null | undefined): string {
  if (raw == null) return '';
  const segments = raw.split('/').map((s) => s.trim()).filter((s) => s !== '');
  for (const s of segments) {
    if (s === '.' || s === '..') throw new HttpError(400, `folder "${raw}" may not contain "${s}"`, { code: 'invalid_folder' });
    if (s.length > MAX_SEGMENT || /[\u0000-\u001f\u007f\\]/.test(s)) {
      throw new HttpError(400, `folder "${raw}" has an invalid name "${s.slice(0, 40)}"`, { code: 'invalid_folder' });
    }
  }
  if (segments.length > MAX_DEPTH) throw new HttpError(400, `folder "${raw}" is nested more than ${MAX_DEPTH} deep`, { code: 'invalid_folder' });
  return segments.join('/');
}

/** The file name without any directory a client put in it. */
export function cleanFileName(raw: string): string {
  const name = raw.split(/[/\\]/).pop()!.trim();
  if (!name || name === '.' || name === '..') throw new HttpError(400, 'the uploaded file has no name', { code: 'invalid_file_name' });
  if (name.length > MAX_SEGMENT || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new HttpError(400, `invalid file name "${name.slice(0, 40)}"`, { code: 'invalid_file_name' });
  }
  return name;
}

function join(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

function findChild(kb: KbState, folder: string, name: string): KbItem | undefined {
  for (const item of Object.values(kb.items)) if (item.folder === folder && item.name === name) return item;
  return undefined;
}

export function findFolder(kb: KbState, path: string): KbItem | undefined {
  for (const item of Object.values(kb.items)) if (item.type === 'folder' && item.path === path) return item;
  return undefined;
}

/** Creates each missing folder along `path`; a file in the way is a conflict. */
function ensureFolder(world: KbWorld, kb: KbState, path: string): void {
  if (!path) return;
  let parent = '';
  const now = world.clock.nowIso();
  for (const segment of path.split('/')) {
    const existing = findChild(kb, parent, segment);
    if (existing && existing.type !== 'folder') {
      throw new HttpError(409, `cannot create folder ${join(parent, segment)}: a file has that path`, { code: 'path_conflict' });
    }
    if (!existing) {
      const id = world.uuid();
      kb.items[id] = { id, name: segment, type: 'folder', path: join(parent, segment), folder: parent, size_bytes: 0, created_at: now, updated_at: now };
    }
    parent = join(parent, segment);
  }
}

export interface StoredUpload {
  item: KbItem;
  job: KbJob;
  replaced: boolean;
}

/** Stores a file (replacing, and keeping the id of, a same-named file in the folder) and queues its job. */
export function storeFile(world: KbWorld, kb: KbState, folder: string, name: string, format: KbFormat, size: number, outcome: IndexOutcome): StoredUpload {
  ensureFolder(world, kb, folder);
  const existing = findChild(kb, folder, name);
  if (existing && existing.type === 'folder') {
    throw new HttpError(409, `cannot upload ${join(folder, name)}: a folder has that path`, { code: 'path_conflict' });
  }
  const now = world.clock.now();
  const iso = new Date(now).toISOString();
  const id = existing?.id ?? world.uuid();
  const jobId = `job_${world.uuid().replace(/-/g, '')}`;
  const item: KbItem = {
    id, name, type: 'file', path: join(folder, name), folder, size_bytes: size, format, job_id: jobId,
    created_at: existing?.created_at ?? iso, updated_at: iso,
  };
  kb.items[id] = item;
  // A few simulated seconds, a little more for large documents.
  const processingAt = now + 1000;
  const work = 2000 + Math.min(28_000, (outcome.ok ? outcome.chunks : 0) * 10);
  const job: KbJob = { id: jobId, item_id: id, created: now, processing_at: processingAt, done_at: processingAt + work, outcome };
  kb.jobs[jobId] = job;
  return { item, job, replaced: existing !== undefined };
}

export interface JobView {
  job_id: string;
  item_id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  chunks_indexed: number;
  error: string | null;
}

export function jobView(job: KbJob, now: number): JobView {
  const base = { job_id: job.id, item_id: job.item_id };
  if (now < job.processing_at) return { ...base, status: 'queued', chunks_indexed: 0, error: null };
  const total = job.outcome.ok ? job.outcome.chunks : 0;
  if (now < job.done_at) {
    const progress = (now - job.processing_at) / (job.done_at - job.processing_at);
    return { ...base, status: 'processing', chunks_indexed: Math.floor(total * progress), error: null };
  }
  if (job.outcome.ok) return { ...base, status: 'completed', chunks_indexed: total, error: null };
  return { ...base, status: 'failed', chunks_indexed: 0, error: job.outcome.error };
}

/** The public shape of an item; a folder's size is the total of the files in it. */
export function itemView(kb: KbState, item: KbItem): Record<string, unknown> {
  const size = item.type === 'folder' ? folderSize(kb, item.path) : item.size_bytes;
  const view: Record<string, unknown> = { id: item.id, name: item.name, type: item.type, path: item.path, size_bytes: size };
  if (item.type === 'file') view.job_id = item.job_id;
  view.created_at = item.created_at;
  view.updated_at = item.updated_at;
  return view;
}

function folderSize(kb: KbState, path: string): number {
  const prefix = `${path}/`;
  let total = 0;
  for (const item of Object.values(kb.items)) if (item.type === 'file' && item.path.startsWith(prefix)) total += item.size_bytes;
  return total;
}

/** Children of a folder: folders first, then files, each by name. */
export function listFolder(kb: KbState, folder: string): KbItem[] {
  return Object.values(kb.items)
    .filter((item) => item.folder === folder)
    .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'folder' ? -1 : 1));
}

/** Deletes an item (a folder with everything under it) and detaches the ids from agents and campaigns. */
export function deleteItem(org: { agents: Record<string, Agent>; campaigns: Record<string, Campaign> }, kb: KbState, item: KbItem): string[] {
  const ids = [item.id];
  if (item.type === 'folder') {
    const prefix = `${item.path}/`;
    for (const other of Object.values(kb.items)) if (other.path.startsWith(prefix)) ids.push(other.id);
  }
  const gone = new Set(ids);
  for (const id of ids) delete kb.items[id];
  for (const agent of Object.values(org.agents)) {
    if (agent.kb_item_ids?.some((id) => gone.has(id))) agent.kb_item_ids = agent.kb_item_ids.filter((id) => !gone.has(id));
  }
  for (const campaign of Object.values(org.campaigns)) {
    if (campaign.kb_item_ids?.some((id) => gone.has(id))) campaign.kb_item_ids = campaign.kb_item_ids.filter((id) => !gone.has(id));
  }
  return ids;
}
