/** Agent columns and the mapping from flags to API fields, shared by the agent verbs. */
import type { Agent, AgentFields } from '../../api/agents.js';
import type { Column } from '../../io/output.js';
import { UsageError } from '../../errors.js';
import { JsonTooDeepError, parseJsonWithin } from '../../util/json-depth.js';
import type { AgentFlags } from './definition.js';
import { readTextFile } from '../../agents/text-file.js';
import { isObject } from '../../util/is-object.js';

export const AGENT_COLUMNS: Column<Agent>[] = [
  { header: 'ID', key: 'id', id: true },
  { header: 'NAME', key: 'name', max: 32 },
  { header: 'STATUS', key: 'status', drop: 1 },
  { header: 'LANGUAGE', key: 'language', drop: 3 },
  { header: 'VOICE', key: 'voice_name', drop: 2 },
  { header: 'DIRECTION', key: 'direction', drop: 4 },
];

export const AGENT_FIELDS: Column<Agent>[] = [
  { header: 'id', key: 'id' },
  { header: 'name', key: 'name' },
  { header: 'status', key: 'status' },
  { header: 'language', key: 'language' },
  { header: 'voice', key: 'voice_name' },
  { header: 'direction', key: 'direction' },
  { header: 'greeting', key: 'greeting' },
  { header: 'call purpose', key: 'call_purpose' },
  { header: 'prompt', key: 'prompt' },
  { header: 'tools', key: 'tools' },
  { header: 'kb items', key: 'kb_item_ids' },
];

export const FLAG_FOR_FIELD: Record<string, string> = {
  name: '--name',
  voice_name: '--voice',
  greeting: '--greeting',
  call_purpose: '--call-purpose',
  prompt: '--prompt or --prompt-file',
};

/** The API fields the flags set; undefined fields are left out. */
export async function fieldsFromFlags(flags: AgentFlags, signal?: AbortSignal): Promise<AgentFields> {
  if (flags.prompt !== undefined && flags.promptFile !== undefined) {
    throw new UsageError('Pass --prompt or --prompt-file, not both.');
  }
  const prompt = flags.promptFile !== undefined ? (await readTextFile(flags.promptFile, 'the prompt file', undefined, signal)).trim() : flags.prompt;
  const fields: AgentFields = {
    name: flags.name,
    voice_name: flags.voice,
    language: flags.language,
    greeting: flags.greeting,
    call_purpose: flags.callPurpose,
    prompt,
    tools: flags.tools,
    kb_item_ids: flags.kb,
    direction: flags.direction,
    status: flags.status,
  };
  for (const k of Object.keys(fields) as (keyof AgentFields)[]) if (fields[k] === undefined) delete fields[k];
  return fields;
}

/**
 * Fields the service sets and shows (GET /agents), which POST /agents does not take: left
 * out of a file, so `agent get X --json | agent create --file -` copies an agent. Only
 * as the service shows them (strings): `"status": true` is a mistake, and is named as one.
 */
export const SERVICE_FIELDS = ['id', 'status', 'phone_number', 'created_at', 'updated_at'] as const;

/** Reads an agent JSON file (the shape of POST /agents). */
export async function fieldsFromFile(path: string, stdin?: NodeJS.ReadableStream, leftOut?: (names: string[]) => void, signal?: AbortSignal): Promise<AgentFields> {
  const text = await readTextFile(path, 'the agent file', stdin, signal);
  let parsed: unknown;
  try {
    parsed = parseJsonWithin(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw new UsageError(`The agent file "${path}" cannot be used: ${err.message}.`);
    throw new UsageError(`The agent file "${path}" is not valid JSON: ${(err as Error).message}.`);
  }
  if (!isObject(parsed)) {
    throw new UsageError(`The agent file "${path}" must hold one JSON object with the agent's fields.`);
  }
  const fields = { ...parsed };
  const shown = SERVICE_FIELDS.filter((k) => typeof fields[k] === 'string');
  const dropped = shown.filter((k) => k !== 'id');
  for (const k of shown) delete fields[k];
  if (dropped.length > 0) leftOut?.(dropped);
  for (const [k, v] of Object.entries(fields)) if (v === null) delete fields[k];
  return fields as AgentFields;
}
