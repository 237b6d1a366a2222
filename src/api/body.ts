/**
 * Reading a response body with bounds: decoded from gzip, brotli or deflate as it arrives
 * (node:zlib), and never held beyond a size cap, counted on the bytes received and on the
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
    body.destroy();
    throw err;
  }
  let received = 0;
  const counted = async function* (): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      received += (chunk as Buffer).length;
      if (received > opts.maxBytes) throw new BodyTooLargeError(opts.maxBytes, false);
      yield chunk as Buffer;
    }
  };
  let source: AsyncIterable<Buffer> = counted();
  if (steps.length > 0) {
    // Loaded only when a server compresses: most commands never need zlib.
    const zlib = await import('node:zlib');
    const { Readable: NodeReadable } = await import('node:stream');
    let stream: Readable = NodeReadable.from(source, { objectMode: false });
    for (const step of steps) {
      const decoder = step === 'gzip' ? zlib.createGunzip() : step === 'br' ? zlib.createBrotliDecompress() : zlib.createInflate();
      stream.on('error', (err) => decoder.destroy(err));
      stream = stream.pipe(decoder);
    }
    source = stream;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      if (size + buf.length > opts.maxBytes) {
        if (!opts.truncate) throw new BodyTooLargeError(opts.maxBytes, steps.length > 0);
        chunks.push(buf.subarray(0, opts.maxBytes - size));
        size = opts.maxBytes;
        break;
      }
      chunks.push(buf);
      size += buf.length;
    }
  } catch (err) {
    if (opts.truncate && err instanceof BodyTooLargeError) return Buffer.concat(chunks, size);
    throw err;
  } finally {
    if (!body.readableEnded) body.destroy();
    if (source !== body && 'destroy' in source) (source as Readable).destroy();
  }
  return Buffer.concat(chunks, size);
}
