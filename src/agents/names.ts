/**
 * Agents' names by id, to show beside the ids that campaigns carry: one read of the agent
 * list (its pages), never one request per row. The names are a help to the reader, not
 * the data, so a key without agents:read, or a service that fails the read, gives no names
 * rather than no answer.
 */
import type { ApiClient } from '../api/client.js';
import { allAgents } from '../api/agents.js';

export async function agentNames(api: ApiClient, signal?: AbortSignal): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    for await (const a of allAgents(api)) {
      if (signal?.aborted) break;
      if (a.id && typeof a.name === 'string') names.set(a.id, a.name);
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    return new Map();
  }
  return names;
}

/** "Priya renewals", "(deleted)" for a campaign whose agent was deleted, or the id when its name is unknown. */
export function agentLabel(agentId: string | null | undefined, names: Map<string, string>): string {
  if (agentId === null) return '(deleted)';
  if (!agentId) return '';
  return names.get(agentId) ?? agentId;
}
