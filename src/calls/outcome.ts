/**
 * What a call came to, in one word, the same in every view (call list and get, watch,
 * tail, the campaign report): the outcome the agent set, else the call's end reason (the
 * more telling word for a call that did not connect: "busy", "number_unreachable"), else
 * its status ("failed", "no_answer"). The spec types outcome as a string; another service may still send
 * null or nothing for a call the agent never spoke on.
 */
export function outcomeWord(call: Record<string, unknown> | { outcome?: unknown; end_reason?: unknown; status?: unknown }): string {
  return text(call.outcome) ?? text(call.end_reason) ?? text(call.status) ?? 'unknown';
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}
