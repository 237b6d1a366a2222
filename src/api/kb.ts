/**
 * Knowledge base: the multipart upload (streamed from disk, never held in memory), the
 * indexing job, listing and deleting. The list's shape is not shown in the spec, so any
 * list envelope is accepted.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';
import { unwrap } from './envelope.js';
import { isObject } from '../util/is-object.js';

export interface KbItem {
  id: string;
  name?: string;
  type?: string;
  path?: string;
  size_bytes?: number;
  [key: string]: unknown;
}

export interface UploadResponse {
  item: KbItem;
  job_id?: string;
  /** The body as the server sent it. */
  raw: unknown;
}

export interface JobStatus {
  status: string;
  chunks_indexed?: number;
  error?: string | null;
  [key: string]: unknown;
}

export interface UploadOptions {
  /** The name the service stores (defaults to the file's base name). */
  name?: string;
  folder?: string;
  /** The file's size in bytes, from a stat done by the caller: the Content-Length depends on it. */
  size: number;
  /** Called with the bytes of the file handed to the connection so far. */
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

const CRLF = '\r\n';

/**
 * Small reads on purpose. Every chunk is garbage once it is on the wire, and V8 frees
 * such buffers at its next collection, which comes after a roughly fixed number of
 * allocations: dead memory grows with the chunk size. Measured on a 40 MB upload, the
 * peak is ~10 MB above a tiny upload's with 8 KB reads and ~30 MB with 64 KB reads.
 */
const READ_CHUNK = 8 * 1024;

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  rst: 'text/x-rst',
};

/** Servers that look at the part's type get the real one; anything else is plain bytes. */
export function mimeType(name: string): string {
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return MIME[ext] ?? 'application/octet-stream';
}

/**
 * A quoted multipart parameter as browsers write it (RFC 7578: UTF-8, no filename*):
 * quotes and line breaks are percent-escaped so they cannot end the header early.
 */
function quoted(value: string): string {
  return `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
}

/**
 * The multipart body as a stream of small pieces: part headers as buffers, the file as
 * a read stream. Its length is known in advance from the file size, so the request
 * carries a Content-Length and the server can refuse an oversized file before reading it.
 */
export function multipartBody(filePath: string, options: UploadOptions): { stream: Readable; length: number; contentType: string } {
  const boundary = `----voicectl${randomBytes(12).toString('hex')}`;
  const name = options.name ?? basename(filePath);
  const head: Buffer[] = [];
  if (options.folder) {
    const folder = options.folder.replace(/[\r\n]/g, '');
    head.push(Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="folder"${CRLF}${CRLF}${folder}${CRLF}`));
  }
  const disposition = `form-data; name="file"; filename=${quoted(name)}`;
  head.push(Buffer.from(`--${boundary}${CRLF}Content-Disposition: ${disposition}${CRLF}Content-Type: ${mimeType(name)}${CRLF}${CRLF}`));
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`);
  const length = head.reduce((n, b) => n + b.length, 0) + options.size + tail.length;

  async function* pieces(): AsyncGenerator<Buffer> {
    yield* head;
    let sent = 0;
    for await (const chunk of createReadStream(filePath, { highWaterMark: READ_CHUNK })) {
      const buf = chunk as Buffer;
      sent += buf.length;
      // A file that grew since it was measured would break the declared length.
      if (sent > options.size) throw new Error(`${filePath} changed while it was being uploaded`);
      yield buf;
      options.onProgress?.(sent);
    }
    if (sent !== options.size) throw new Error(`${filePath} changed while it was being uploaded`);
    yield tail;
  }
  return { stream: Readable.from(pieces(), { objectMode: false }), length, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /kb/items. Never retried: the body is a stream that can be sent once. */
export async function uploadFile(api: ApiClient, filePath: string, options: UploadOptions): Promise<UploadResponse> {
  const body = multipartBody(filePath, options);
  let raw: unknown;
  try {
    raw = await api.post('/kb/items', undefined, {
      rawBody: body.stream,
      headers: { 'content-type': body.contentType, 'content-length': String(body.length) },
      signal: options.signal,
    });
  } finally {
    body.stream.destroy();
  }
  return readUpload(raw, api.url('/kb/items'));
}

/** `{item, job_id}` per the spec; a bare item carrying its job id is accepted too. */
function readUpload(raw: unknown, url: string): UploadResponse {
  const obj = isObject(raw) ? raw : undefined;
  const inner = obj && isObject(obj.data) && !('item' in obj) ? obj.data : obj;
  const item = inner && isObject(inner.item) ? inner.item : inner;
  if (!item || (typeof item.id !== 'string' && typeof item.id !== 'number')) {
    throw new ApiError({ kind: 'unexpected', method: 'POST', url, body: JSON.stringify(raw ?? null), message: 'the upload was accepted but the response names no item id' });
  }
  const jobId = inner?.job_id ?? item.job_id ?? (isObject(inner?.job) ? inner.job.id ?? inner.job.job_id : undefined);
  return { item: { ...item, id: String(item.id) } as KbItem, job_id: jobId === undefined || jobId === null ? undefined : String(jobId), raw };
}

export async function jobStatus(api: ApiClient, jobId: string, signal?: AbortSignal): Promise<JobStatus> {
  const body = unwrap<Record<string, unknown>>(await api.get(`/kb/index/status/${encodeURIComponent(jobId)}`, { signal }), 'job');
  const status = typeof body?.status === 'string' ? body.status : typeof body?.state === 'string' ? body.state : 'unknown';
  return { ...body, status };
}

export type JobState = 'completed' | 'failed' | 'pending';

/** The spec's states are queued, processing, completed and failed; near synonyms are read alike. */
export function jobState(job: JobStatus): JobState {
  const s = job.status.toLowerCase();
  if (['completed', 'complete', 'succeeded', 'success', 'done', 'indexed', 'ready'].includes(s)) return 'completed';
  if (['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled'].includes(s)) return 'failed';
  return 'pending';
}

/** Every item of a folder (the top level when none), through any list envelope and any paging. */
export async function listItems(api: ApiClient, folder?: string, signal?: AbortSignal): Promise<KbItem[]> {
  const items: KbItem[] = [];
  for await (const item of api.paginate<KbItem>('/kb/items', 'items', { query: { folder: folder || undefined }, signal })) {
    if (item && typeof item === 'object') items.push(item);
  }
  return items;
}

/** GET /kb/items/{id}: not in the spec, so callers treat any failure as "unknown". */
export async function getItem(api: ApiClient, id: string): Promise<KbItem | undefined> {
  const body = unwrap<KbItem>(await api.get(`/kb/items/${encodeURIComponent(id)}`), 'item');
  return body && typeof body === 'object' && body.id !== undefined ? body : undefined;
}

export async function deleteItem(api: ApiClient, id: string): Promise<unknown> {
  return api.delete(`/kb/items/${encodeURIComponent(id)}`);
}

export function isFolder(item: KbItem): boolean {
  return typeof item.type === 'string' && item.type.toLowerCase() === 'folder';
}
