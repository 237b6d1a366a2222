/**
 * Reading a response body with bounds: decoded from gzip, brotli or deflate (node:zlib),
 * and never held beyond a size cap, counted on the bytes received and on the
 * decoded bytes alike, so neither an endless body nor a compression bomb can fill memory.
 */
import type { Readable } from 'node:stream';

/** The default cap on a JSON response, decoded: far above any page or list the spec describes. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** What Accept-Encoding offers. A server's deflate is decoded too, but not asked for: servers disagree on its framing. */
export const ACCEPT_ENCODING = 'gzip, br';

/** The body went past the cap; `decoded` tells a compression bomb from a plain endless body. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number, readonly decoded: boolean) {
    super(`response body over ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** A Content-Encoding voicectl cannot decode. */
export class UnknownEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content-encoding ${encoding}`);
    this.name = 'UnknownEncodingError';
  }
}

export interface ReadOptions {
  /** Cap on bytes received and on bytes decoded. */
  maxBytes: number;
  /** Keep the first maxBytes and drop the rest instead of failing (error bodies: the status is what counts). */
  truncate?: boolean;
}

/**
 * The codings of a Content-Encoding header in the order to undo them (the last applied
 * first). Identity is dropped; an unknown coding throws.
 */
export function decodingSteps(header: string | string[] | undefined): Array<'gzip' | 'br' | 'deflate'> {
  const raw = Array.isArray(header) ? header.join(',') : header ?? '';
  const steps: Array<'gzip' | 'br' | 'deflate'> = [];
  for (const part of raw.split(',')) {
    const coding = part.trim().toLowerCase();
    if (coding === '' || coding === 'identity') continue;
    if (coding === 'gzip' || coding === 'x-gzip') steps.push('gzip');
    else if (coding === 'br') steps.push('br');
    else if (coding === 'deflate') steps.push('deflate');
    else throw new UnknownEncodingError(coding);
  }
  return steps.reverse();
}

/** The whole body as bytes, decoded, within the cap. The body is destroyed on any failure. */
export async function readBody(body: Readable, contentEncoding: string | string[] | undefined, opts: ReadOptions): Promise<Buffer> {
  let steps: Array<'gzip' | 'br' | 'deflate'>;
  try {
    steps = decodingSteps(contentEncoding);
  } catch (err) {
    discard(body);
    throw err;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let received = 0;
  /** Keeps a decoded chunk; false once the cap is reached (only when truncating). */
  const keep = (buf: Buffer): boolean => {
    if (size + buf.length > opts.maxBytes) {
      if (!opts.truncate) throw new BodyTooLargeError(opts.maxBytes, steps.length > 0);
      chunks.push(buf.subarray(0, opts.maxBytes - size));
      size = opts.maxBytes;
      return false;
    }
    chunks.push(buf);
    size += buf.length;
    return true;
  };
  try {
    if (steps.length === 0) {
      for await (const chunk of body) {
        if (!keep(chunk as Buffer)) break;
      }
    } else if (!opts.truncate) {
      // The compressed body whole (within the cap), then decoded in one call per coding: a
      // page of calls decodes about five times faster than through a stream of chunks.
      const raw: Buffer[] = [];
      for await (const chunk of body) {
        received += (chunk as Buffer).length;
        if (received > opts.maxBytes) throw new BodyTooLargeError(opts.maxBytes, false);
        raw.push(chunk as Buffer);
      }
      return await decodeWhole(Buffer.concat(raw, received), steps, opts.maxBytes);
    } else {
      await decodeInto(body, steps, keep, (n) => {
        received += n;
        if (received > opts.maxBytes) throw new BodyTooLargeError(opts.maxBytes, false);
      });
    }
  } catch (err) {
    if (opts.truncate && err instanceof BodyTooLargeError) return Buffer.concat(chunks, size);
    throw err;
  } finally {
    if (!body.readableEnded) discard(body);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Drops a body that will not be read to its end. undici's body, destroyed before its end,
 * emits an 'error' (RequestAbortedError) that no one is listening for any more: without a
 * listener, Node ends the run with an unhandled 'error' event and its stack, after the
 * error the reader already reported.
 */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * Undoes the codings of a whole body, each step's output capped at `maxBytes`: zlib stops
 * there (maxOutputLength), so a bomb is refused without being inflated past the cap.
 */
async function decodeWhole(raw: Buffer, steps: Array<'gzip' | 'br' | 'deflate'>, maxBytes: number): Promise<Buffer> {
  const zlib = await import('node:zlib');
  let buf = raw;
  for (const step of steps) {
    const o = { maxOutputLength: maxBytes };
    try {
      buf = step === 'gzip' ? zlib.gunzipSync(buf, o) : step === 'br' ? zlib.brotliDecompressSync(buf, o) : zlib.inflateSync(buf, o);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyTooLargeError(maxBytes, true);
      throw err;
    }
  }
  return buf;
}

/** Larger output chunks than zlib's 16 KB: fewer round trips to the thread pool for a page of JSON. */
const ZOPTS = { chunkSize: 128 * 1024 };

/**
 * Feeds the body through the decoders chunk by chunk and hands each decoded chunk to
 * `keep` as it comes out, so a bomb is stopped after `maxBytes` of output, not after
 * it has been inflated. `keep` returning false ends the read early.
 */
async function decodeInto(
  body: Readable,
  steps: Array<'gzip' | 'br' | 'deflate'>,
  keep: (buf: Buffer) => boolean,
  onRaw: (bytes: number) => void,
): Promise<void> {
  // Loaded only when a server compresses: most commands never need zlib.
  const zlib = await import('node:zlib');
  const decoders = steps.map((step) => (step === 'gzip' ? zlib.createGunzip(ZOPTS) : step === 'br' ? zlib.createBrotliDecompress(ZOPTS) : zlib.createInflate(ZOPTS)));
  for (let i = 0; i + 1 < decoders.length; i++) decoders[i]!.pipe(decoders[i + 1]!);
  const first = decoders[0]!;
  const last = decoders[decoders.length - 1]!;
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        reject(err);
      };
      for (const d of decoders) d.on('error', fail);
      body.on('error', fail);
      last.on('data', (chunk: Buffer) => {
        try {
          if (!keep(chunk)) {
            settled = true;
            resolve();
          }
        } catch (err) {
          fail(err);
        }
      });
      last.on('end', () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      });
      body.on('data', (chunk: Buffer) => {
        try {
          onRaw(chunk.length);
        } catch (err) {
          fail(err);
          return;
        }
        if (!first.write(chunk)) {
          body.pause();
          first.once('drain', () => body.resume());
        }
      });
      body.on('end', () => first.end());
    });
  } finally {
    for (const d of decoders) d.destroy();
  }
}
