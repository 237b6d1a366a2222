/**
 * HMAC-SHA256 written out from RFC 2104 over a plain SHA-256, so tests check the
 * signature module (which uses createHmac) against a second, independent construction.
 */
import { createHash } from 'node:crypto';

const BLOCK = 64;

export function referenceHmacHex(key: string, message: Uint8Array): string {
  let k = Buffer.from(key, 'utf8');
  if (k.length > BLOCK) k = createHash('sha256').update(k).digest();
  const padded = Buffer.alloc(BLOCK);
  k.copy(padded);
  const ipad = Buffer.from(padded.map((b) => b ^ 0x36));
  const opad = Buffer.from(padded.map((b) => b ^ 0x5c));
  const inner = createHash('sha256').update(ipad).update(message).digest();
  return createHash('sha256').update(opad).update(inner).digest('hex');
}

/** Checks a `Service-Signature` header against raw bytes the way a careful receiver would. */
export function referenceCheck(secret: string, raw: Uint8Array, header: string): { t: number; ok: boolean } {
  const parts = header.split(',').map((p) => p.split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const v1s = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
  const expected = referenceHmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), raw]));
  return { t, ok: v1s.includes(expected) };
}
