/**
 * The account as files: what voicectl.yaml declares, once loaded and resolved. Names of
 * the file's keys live here so the loader, the schema, pull and plan agree on them.
 */
import { isObject } from '../util/is-object.js';

export const CONFIG_NAMES = ['voicectl.yaml', 'voicectl.yml', 'voicectl.json'] as const;
export const LOCK_NAME = 'voicectl.lock.json';

/** Agent fields the spec lets a client write, in the order pull writes them. */
export const AGENT_TEXT_FIELDS = ['name', 'voice_name', 'language', 'direction', 'status', 'greeting', 'call_purpose', 'prompt'] as const;
export type AgentTextField = (typeof AGENT_TEXT_FIELDS)[number];

/** Fields whose text may live in a file of its own (`prompt: !file x.md` or `prompt_file: x.md`). */
export const FILE_FIELDS = ['greeting', 'call_purpose', 'prompt'] as const;

/**
 * Fields the service sets itself: never written to the files, never sent. Timestamps
 * change on every update and would show as drift; an inbound agent's number is assigned.
 */
export const SERVER_SET_AGENT_FIELDS = ['id', 'created_at', 'updated_at', 'phone_number'];

/** The knowledge-base reference of an agent is `documents` in the files, `kb_item_ids` on the wire. */
export const AGENT_KEYS = [...AGENT_TEXT_FIELDS, 'tools', 'documents', 'other_fields'] as const;

export interface DesiredAgent {
  /** The key under `agents:`; the lock maps it to the agent's id, so `name` can change. */
  handle: string;
  /** Only the fields the file sets: a field left out is left alone in the account. */
  text: Partial<Record<AgentTextField, string>>;
  tools?: string[];
  /** Local document paths, relative to the folder. */
  documents?: string[];
  /** Fields the service returned that voicectl has no key for, kept as they came. */
  other: Record<string, unknown>;
}

export interface DesiredDocument {
  /** Local path relative to the folder, with forward slashes: the key under `documents:`. */
  local: string;
  /** The knowledge-base folder ('' for the top level) and file name: the document's identity in the account. */
  folder: string;
  name: string;
  /** Absent when the file is not in the folder: a reference to the account's copy. */
  content?: { sha256: string; size: number; absPath: string; root: string };
}

export interface DesiredWebhook {
  handle: string;
  url: string;
  /** Undefined means every event type. */
  events?: string[];
  enabled?: boolean;
}

export interface Desired {
  dir: string;
  /** The file it came from, for messages. */
  file: string;
  /** `agents.x.field: …` with the line and column of that key appended, where the file has it. */
  place?: (message: string) => string;
  agents: Map<string, DesiredAgent>;
  documents: Map<string, DesiredDocument>;
  webhooks: Map<string, DesiredWebhook>;
}

/** `policies/2025` + `refunds.pdf` → `policies/2025/refunds.pdf`: how the account names a document. */
export function kbPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

export function normalizeFolder(folder: string | undefined): string {
  return (folder ?? '').split('/').map((s) => s.trim()).filter(Boolean).join('/');
}

/** JSON with object keys sorted: equal values give equal text whatever the key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (isObject(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    }
    return v;
  });
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** Lists whose order carries no meaning (tools, documents, events) compare as sets. */
export function sameSet(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = new Set(a ?? []);
  const y = new Set(b ?? []);
  if (x.size !== y.size) return false;
  for (const v of x) if (!y.has(v)) return false;
  return true;
}

export function containsNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(containsNull);
  if (value && typeof value === 'object') return Object.values(value).some(containsNull);
  return false;
}
