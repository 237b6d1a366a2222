import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';
import { unwrap } from './envelope.js';
import { UsageError } from '../errors.js';

/**
 * An agent's writable fields. Declared on their own: `Omit<Agent, 'id'>` would keep only
 * the index signature and type every field as unknown.
 */
export interface AgentFields {
  name?: string;
  status?: string;
  language?: string;
  voice_name?: string;
  greeting?: string;
  call_purpose?: string;
  prompt?: string;
  tools?: string[];
  kb_item_ids?: string[];
  direction?: string;
  [key: string]: unknown;
}

export interface Agent extends AgentFields {
  id: string;
  name: string;
}

export function listAgents(api: ApiClient, options: { limit?: number; offset?: number } = {}) {
  return api.get<{ agents?: Agent[]; total?: number; limit?: number; offset?: number }>('/agents', { query: options });
}

export function allAgents(api: ApiClient): AsyncGenerator<Agent> {
  return api.paginate<Agent>('/agents', 'agents');
}

export async function createAgent(api: ApiClient, fields: AgentFields): Promise<Agent> {
  return unwrap<Agent>(await api.post('/agents', fields), 'agent');
}

/** PATCH sends only the fields given; the spec rejects null, so nulls never leave here. */
export async function updateAgent(api: ApiClient, id: string, fields: AgentFields): Promise<Agent | undefined> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null) body[k] = v;
  const res = await api.patch(`/agents/${encodeURIComponent(id)}`, body);
  const agent = unwrap<Agent | undefined>(res, 'agent');
  return agent && typeof agent === 'object' && 'id' in agent ? agent : undefined;
}

export async function deleteAgent(api: ApiClient, id: string): Promise<void> {
  await api.delete(`/agents/${encodeURIComponent(id)}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Finds an agent by id or exact name. The spec shows no single-agent read, so this
 * tries GET /agents/{id} for an id and falls back to listing; a name matching two
 * agents is an error that lists both ids.
 */
export async function resolveAgent(api: ApiClient, idOrName: string): Promise<Agent> {
  if (UUID.test(idOrName)) {
    try {
      const one = unwrap<Agent>(await api.get(`/agents/${encodeURIComponent(idOrName)}`), 'agent');
      if (one && typeof one === 'object' && one.id) return one;
    } catch (err) {
      // 404 could be "no such agent" or "no such endpoint": listing settles it.
      // 405/501 mean the server has no single-agent read.
      if (!(err instanceof ApiError) || ![404, 405, 501].includes(err.status ?? 0)) throw err;
    }
  }
  const byName: Agent[] = [];
  for await (const a of allAgents(api)) {
    if (a.id === idOrName) return a;
    if (a.name === idOrName) byName.push(a);
  }
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    throw new UsageError(`The name "${idOrName}" matches ${byName.length} agents: ${byName.map((a) => a.id).join(', ')}.`, {
      hint: 'Use the id instead.',
    });
  }
  throw new ApiError({
    kind: 'http', status: 404, method: 'GET', url: api.url(`/agents/${encodeURIComponent(idOrName)}`),
    message: `no agent with id or name "${idOrName}"`,
  });
}
