/** Reading a delivery request: headers as single strings, and the body under a size cap. */
import type http from 'node:http';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from './signature.js';

/** Bodies up to this size are read and discarded before the 413, so the sender sees the answer. */
const DRAIN_LIMIT = 8 * 1024 * 1024;

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v.join(',') : v;
  return s === undefined || s === '' ? undefined : s;
}

/** The headers a receiver needs to verify, relayed as the service sent them. */
export function relayHeaders(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [SIGNATURE_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER, 'Content-Type', 'User-Agent']) {
    const v = header(req, name);
    if (v !== undefined) out[name] = v;
  }
  out['Content-Type'] ??= 'application/json';
  return out;
}

export function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | 'too-large' | 'abandon'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) {
    req.resume();
    return Promise.resolve('abandon');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > DRAIN_LIMIT && !settled) {
        settled = true;
        resolve('abandon');
      } else if (size <= max) chunks.push(c);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(size > max ? 'too-large' : Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    });
  });
}
