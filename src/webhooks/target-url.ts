import { UsageError } from '../errors.js';

/** An http(s) URL of the user's own receiver (--forward-to, trigger --to); any host is fine. */
export function checkForwardUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`"${raw}" is not a URL.`, { hint: 'For example: --forward-to http://localhost:3000/webhooks' });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`"${raw}" is not an http(s) URL.`);
  return u.href;
}
