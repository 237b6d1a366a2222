/**
 * Streams a recording to disk through a temporary file, chunk by chunk: the audio is
 * never held in memory whole, and a broken download never leaves a file behind.
 */
import type { Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { openRecording } from '../api/calls.js';
import { downloadError } from '../api/errors.js';
import { FailureError } from '../errors.js';
import { openAtomic } from '../util/atomic-file.js';
import { drained } from '../util/drained.js';
import { fsErrorReason, isFsError } from '../util/fs-error.js';

/** The output failed (a full disk, a closed pipe), as opposed to the download. */
class OutputFailed extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

export interface DownloadProgress {
  /** Content-Length, when the server sent one. */
  onStart?: (totalBytes: number | undefined, contentType: string | undefined) => void;
  onBytes?: (n: number) => void;
}

export interface Downloaded {
  bytes: number;
  contentType?: string;
}

export interface SavedFile extends Downloaded {
  path: string;
}

/**
 * Downloads `url` into `target` (renamed into place when complete). `target` may be a
 * function of the content type, for names whose extension depends on it.
 */
export async function downloadToFile(
  api: ApiClient, url: string, target: string | ((contentType: string | undefined) => string),
  signal?: AbortSignal, progress: DownloadProgress = {},
): Promise<SavedFile> {
  const res = await openRecording(api, url, signal);
  const path = typeof target === 'string' ? target : target(first(res.headers['content-type']));
  let file;
  try {
    file = await openAtomic(path);
  } catch (err) {
    await res.body.dump().catch(() => {});
    throw new FailureError(`cannot write ${path}: ${fsErrorReason(err)}.`, { cause: err });
  }
  try {
    const got = await pump(res.body, file.stream, res.headers, progress, signal);
    await file.commit();
    return { ...got, path };
  } catch (err) {
    // The partial file goes whatever failed: nothing half-written is left under any name.
    await file.discard();
    const cause = err instanceof OutputFailed ? err.cause : err;
    if (err instanceof OutputFailed || isFsError(cause)) {
      throw new FailureError(`cannot write ${path}: ${fsErrorReason(cause)}; nothing was saved.`, { cause });
    }
    throw (signal?.aborted ? undefined : downloadError(url, err, api.timeoutMs, `nothing was saved to ${path}.`)) ?? err;
  }
}

/** Downloads into an open stream (stdout for `--download -`). */
export async function downloadToStream(api: ApiClient, url: string, out: Writable, signal?: AbortSignal, progress: DownloadProgress = {}): Promise<Downloaded> {
  const res = await openRecording(api, url, signal);
  try {
    return await pump(res.body, out, res.headers, progress, signal);
  } catch (err) {
    if (err instanceof OutputFailed) throw new FailureError(`cannot write the recording to standard output: ${fsErrorReason(err.cause)}.`, { cause: err.cause });
    throw (signal?.aborted ? undefined : downloadError(url, err, api.timeoutMs, 'what arrived before it was written to standard output.')) ?? err;
  }
}

async function pump(
  body: AsyncIterable<Uint8Array> & { destroy?: (err?: Error) => unknown },
  out: Writable,
  headers: Record<string, string | string[] | undefined>,
  progress: DownloadProgress,
  signal?: AbortSignal,
): Promise<Downloaded> {
  const contentType = first(headers['content-type']);
  const length = Number(first(headers['content-length']));
  progress.onStart?.(Number.isFinite(length) && length > 0 ? length : undefined, contentType);
  let bytes = 0;
  let outError: Error | undefined;
  const onError = (err: Error) => {
    outError = err;
  };
  out.on('error', onError);
  try {
    for await (const chunk of body) {
      if (signal?.aborted) throw signal.reason;
      if (outError) throw new OutputFailed(outError);
      bytes += chunk.length;
      let more: boolean;
      try {
        more = out.write(chunk);
      } catch (err) {
        // A file as stdout is written synchronously: its errors are thrown, not emitted.
        throw new OutputFailed(err as Error);
      }
      if (!more) await drained(out);
      progress.onBytes?.(chunk.length);
    }
    if (outError) throw new OutputFailed(outError);
    return { bytes, contentType };
  } catch (err) {
    body.destroy?.();
    throw err;
  } finally {
    out.off('error', onError);
  }
}


const AUDIO_TYPES: Record<string, string> = {
  'audio/wav': '.wav', 'audio/x-wav': '.wav', 'audio/wave': '.wav', 'audio/vnd.wave': '.wav',
  'audio/mpeg': '.mp3', 'audio/mp3': '.mp3', 'audio/mp4': '.m4a', 'audio/m4a': '.m4a', 'audio/x-m4a': '.m4a',
  'audio/aac': '.aac', 'audio/ogg': '.ogg', 'audio/opus': '.opus', 'audio/webm': '.webm', 'audio/flac': '.flac',
  'audio/x-flac': '.flac', 'audio/basic': '.au', 'audio/amr': '.amr',
};
const AUDIO_EXTS = new Set([...Object.values(AUDIO_TYPES), '.oga', '.wma']);

/** The file extension for a recording: from its content type, else its URL, else .wav. */
export function recordingExtension(contentType: string | undefined, url: string | undefined): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type && AUDIO_TYPES[type]) return AUDIO_TYPES[type];
  if (url) {
    try {
      const m = /(\.[a-z0-9]{2,5})$/i.exec(new URL(url).pathname);
      if (m && AUDIO_EXTS.has(m[1]!.toLowerCase())) return m[1]!.toLowerCase();
    } catch {
      // not a URL: fall through to the default
    }
  }
  return '.wav';
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
