/**
 * Reading a multipart upload with no new dependency: the body is collected under a byte
 * cap (reading stops the moment it is exceeded) and parsed by the platform's
 * Response.formData().
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './router.js';
import { MAX_UPLOAD_BYTES } from './kb-extract.js';

/** Room for the multipart boundaries, part headers and the folder field around a file at the limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

export class TooLargeError extends Error {}

const TOO_LARGE_MESSAGE = `the file is larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MB upload limit`;

/** Resolves with the whole body, or rejects with TooLargeError as soon as more than `cap` bytes arrive. */
function readCapped(req: IncomingMessage, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        cleanup();
        req.pause();
        chunks.length = 0;
        reject(new TooLargeError(TOO_LARGE_MESSAGE));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () => onError(new Error('the client aborted the upload'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

// After a 413, keep draining (never storing) this much for this long so the client can
// read the answer instead of failing its write on a reset connection; then close.
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 2000;

/** Discards the rest of an oversized body for a bounded while, then closes the connection. */
export function lingerThenClose(req: IncomingMessage): void {
  if (req.complete) return;
  let extra = 0;
  const close = () => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS).unref();
  req.on('data', (chunk: Buffer) => {
    extra += chunk.length;
    if (extra > LINGER_BYTES) close();
  });
  req.on('end', () => clearTimeout(timer));
  req.resume();
}

export interface Upload {
  fileName: string;
  bytes: Buffer;
  folder: string | undefined;
}

export async function readUpload(req: IncomingMessage): Promise<Upload> {
  const type = String(req.headers['content-type'] ?? '');
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw new HttpError(400, `expected a multipart/form-data body with a "file" part, got Content-Type ${type ? `"${type}"` : 'none'}`, {
      code: 'invalid_body',
    });
  }
  const cap = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) throw new TooLargeError(TOO_LARGE_MESSAGE);
  const body = await readCapped(req, cap);

  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch (err) {
    throw new HttpError(400, `the multipart body could not be parsed: ${(err as Error).message}`, { code: 'invalid_body' });
  }
  const files = form.getAll('file');
  if (files.length === 0) throw new HttpError(400, 'file is required: send the document as the multipart part "file"', { code: 'invalid_field', field: 'file' });
  if (files.length > 1) throw new HttpError(400, 'send one "file" part per upload', { code: 'invalid_field', field: 'file' });
  const file = files[0]!;
  if (typeof file === 'string') {
    throw new HttpError(400, 'file must be a file part (with a filename), not a text field', { code: 'invalid_field', field: 'file' });
  }
  if (file.size > MAX_UPLOAD_BYTES) throw new TooLargeError(TOO_LARGE_MESSAGE);
  const folder = form.get('folder');
  if (folder !== null && typeof folder !== 'string') {
    throw new HttpError(400, 'folder must be a text field', { code: 'invalid_field', field: 'folder' });
  }
  return { fileName: file.name, bytes: Buffer.from(await file.arrayBuffer()), folder: folder ?? undefined };
}
