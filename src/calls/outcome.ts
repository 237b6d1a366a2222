/**
 * What a call came to, in one word, the same in every view (call list and get, watch,
 * tail, the campaign report): the outcome the agent set, else the call's status (so a
 * call that failed or was not answered reads "failed" or "no_answer" everywhere), else
 * its end reason. The spec types outcome as a string; another service may still send
 * null or nothing for a call the agent never spoke on.
 */
export function outcomeWord(call: Record<string, unknown>): string {
  return text(call.outcome) ?? text(call.status) ?? text(call.end_reason) ?? 'unknown';
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}
