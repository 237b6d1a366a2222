/**
 * A phone check's result is one string: the E.164 number (always starting with "+")
 * when the number is valid, otherwise the reason (never starting with "+"). One string
 * is cheap to send between worker threads and to cache.
 */
export type PhoneCheck = (raw: string) => string;

/** True when a check's result is a normalized number rather than a reason. */
export function isE164(result: string): boolean {
  return result.charCodeAt(0) === 43; // "+"
}

/** Every reason for a number in another country's style starts so (phone.ts, foreignReason). */
const FOREIGN_STYLE = /^(?:looks like a US\/Canada number|is written the way )/;

/** True when a check refused the cell for being written in another country's style (foreign.ts). */
export function isForeignStyleReason(result: string): boolean {
  return !isE164(result) && FOREIGN_STYLE.test(result);
}
