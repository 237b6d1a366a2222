/**
 * The agent fields the spec gives a type, checked before anything is sent: a name that
 * is a number or tools given as one string is a mistake in the user's file, and says so
 * (exit 2) instead of coming back as a server's refusal. Fields the spec does not show
 * pass through: the service may accept more than it documents.
 */
import { UsageError } from '../errors.js';

const STRING_FIELDS = ['name', 'voice_name', 'greeting', 'call_purpose', 'prompt', 'language', 'direction', 'status'] as const;
const STRING_ARRAY_FIELDS = ['tools', 'kb_item_ids'] as const;

/** What a JSON value is, in words: "a number", "an array", "null". */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return v ? 'true' : 'false';
    case 'object': return 'an object';
    default: return typeof v;
  }
}

/** Every field of the wrong type, as "name must be a string (got a number)". Nulls and undefined are left to the caller. */
export function agentFieldProblems(fields: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const k of STRING_FIELDS) {
    const v = fields[k];
    if (v !== undefined && v !== null && typeof v !== 'string') problems.push(`${k} must be a string (got ${jsonKind(v)})`);
  }
  for (const k of STRING_ARRAY_FIELDS) {
    const v = fields[k];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) {
      problems.push(`${k} must be an array of strings (got ${jsonKind(v)})`);
      continue;
    }
    const bad = v.findIndex((x) => typeof x !== 'string');
    if (bad !== -1) problems.push(`${k}[${bad}] must be a string (got ${jsonKind(v[bad])})`);
  }
  return problems;
}

/** Throws a UsageError (exit 2) naming each field of the wrong type; `source` says where they came from. */
export function checkAgentFields(fields: Record<string, unknown>, source?: string): void {
  const problems = agentFieldProblems(fields);
  if (problems.length === 0) return;
  const where = source ? ` in ${source}` : '';
  throw new UsageError(problems.length === 1 ? `${problems[0]}${where}.` : `Fields of the wrong type${where}: ${problems.join('; ')}.`, {
    hint: 'name, voice_name, greeting, call_purpose, prompt, language, direction and status are strings; tools and kb_item_ids are arrays of strings, for example "tools": ["take_message"].',
  });
}
