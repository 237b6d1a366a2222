/**
 * Numbers read back from the service (campaign contacts, calls) as the lists compare
 * them. The spec says E.164, but a service may return a number as it was uploaded
 * ("+91 98000 00004", "09800000005"); before any comparison with a do-not-call list it is
 * normalized by the same check a spreadsheet's cells go through.
 */
import { isE164, type PhoneCheck } from './e164.js';

/** The E.164 number, or the reason it is not one (the check's, as `contacts validate` says it). */
export function normalizeReadBack(check: PhoneCheck, raw: unknown): { e164: string } | { reason: string } {
  if (typeof raw !== 'string' && typeof raw !== 'number') return { reason: raw === undefined || raw === null ? 'has no phone number' : `phone number is ${Array.isArray(raw) ? 'a list' : typeof raw}, not text` };
  const text = String(raw);
  const result = check(text);
  if (isE164(result)) return { e164: result };
  // Already E.164 (the form every list entry is normalized to), though libphonenumber
  // does not know the range: the service took it, and no list entry can be written otherwise.
  if (STRICT_E164.test(text)) return { e164: text };
  return { reason: result };
}

const STRICT_E164 = /^\+[1-9]\d{6,14}$/;
