/** The agents of a plan: each agent of the files against the lock and the account, and the names they leave. */
import type { Agent } from '../api/agents.js';
import type { Account } from './account.js';
import type { Lock } from './lock.js';
import { AGENT_TEXT_FIELDS, containsNull, kbPath, sameSet, sameValue, type Desired, type DesiredAgent } from './model.js';
import type { AgentBody, FieldChange, PlanOptions, Step } from './steps.js';

/** The agent directions the spec names. */
const DIRECTIONS = ['outbound', 'inbound'] as const;

/** The fields of an agent that the file sets and the account does not have. */
function agentDiff(agent: DesiredAgent, server: Agent | undefined, docIds: Map<string, string>, desired: Desired, account: Account, errors: string[]): { changes: FieldChange[]; body: AgentBody } {
  const changes: FieldChange[] = [];
  const body: AgentBody = { fields: {} };
  for (const field of AGENT_TEXT_FIELDS) {
    const value = agent.text[field];
    if (value === undefined || server?.[field] === value) continue;
    changes.push({ field, old: server?.[field], new: value });
    body.fields[field] = value;
  }
  if (agent.tools && !(server && Array.isArray(server.tools) && sameSet(agent.tools, server.tools))) {
    changes.push({ field: 'tools', old: server?.tools, new: agent.tools });
    body.fields.tools = agent.tools;
  }
  if (agent.documents) {
    const keys = agent.documents.map((local) => {
      const d = desired.documents.get(local)!;
      return kbPath(d.folder, d.name);
    });
    const ids = keys.map((k) => docIds.get(k));
    const known = ids.every((id) => id !== undefined);
    const current = Array.isArray(server?.kb_item_ids) ? server.kb_item_ids.map(String) : undefined;
    if (!server || !known || !current || !sameSet(ids as string[], current)) {
      changes.push({ field: 'documents', old: current?.map((id) => documentLabel(id, desired, account)), new: agent.documents });
      body.documents = keys;
    }
  }
  for (const [key, value] of Object.entries(agent.other)) {
    if (server && sameValue(server[key], value)) continue;
    if (containsNull(value)) {
      errors.push(`agents.${agent.handle}.other_fields.${key}: differs from the account and holds null, which the service rejects; change it or remove the key`);
      continue;
    }
    changes.push({ field: `other_fields.${key}`, old: server?.[key], new: value });
    body.fields[key] = value;
  }
  return { changes, body };
}

/** An attached document as the files name it, else by its path in the account, else its id. */
function documentLabel(id: string, desired: Desired, account: Account): string {
  const doc = account.documentsById.get(id);
  if (!doc) return id;
  for (const d of desired.documents.values()) if (kbPath(d.folder, d.name) === doc.path) return d.local;
  return doc.path;
}

export function planAgents(desired: Desired, lock: Lock, account: Account, options: PlanOptions, docIds: Map<string, string>, steps: Step[], errors: string[]): void {
  const byId = new Map(account.agents.map((a) => [a.id, a]));
  const managedIds = new Set(Object.values(lock.agents).map((a) => a.id).filter(Boolean));
  for (const agent of desired.agents.values()) {
    const locked = lock.agents[agent.handle];
    const name = agent.text.name ?? locked?.name;
    let server = locked?.id ? byId.get(locked.id) : undefined;
    let adopt = false;
    if (!server) {
      const candidates = name === undefined ? [] : account.agents.filter((a) => a.name === name && !managedIds.has(a.id));
      if (candidates.length > 1) {
        errors.push(`agents.${agent.handle}: ${candidates.length} agents in the account are named "${name}" (${candidates.map((c) => c.id).join(', ')}); rename or delete all but one (voicectl agent update ID --name …), then apply again`);
        continue;
      }
      if (candidates.length === 1 && !(locked?.pending || options.adopt)) {
        errors.push(`agents.${agent.handle}: the account already has an agent named "${name}" (id ${candidates[0]!.id}) that these files do not manage; pass --adopt to take it over, or rename one`);
        continue;
      }
      server = candidates[0];
      adopt = server !== undefined;
    }
    const { changes, body } = agentDiff(agent, server, docIds, desired, account, errors);
    // Checked where they would be sent: a value the account already holds is the service's own.
    const direction = body.fields.direction;
    if (typeof direction === 'string' && !(DIRECTIONS as readonly string[]).includes(direction)) {
      errors.push(`agents.${agent.handle}.direction: must be ${DIRECTIONS.join(' or ')}, the values the spec names; got ${JSON.stringify(direction)}`);
      continue;
    }
    const voice = body.fields.voice_name;
    // Compared as the service's own voice lookup may (letter case aside): a near miss is its to judge.
    if (typeof voice === 'string' && account.voices && account.voices.size > 0 && ![...account.voices].some((v) => v.toLowerCase() === voice.toLowerCase())) {
      errors.push(`agents.${agent.handle}.voice_name: "${voice}" is not in the service's voice list; \`voicectl voice list\` shows them`);
      continue;
    }
    if (!server) {
      if (name === undefined) {
        errors.push(`agents.${agent.handle}: has no name, which creating an agent needs`);
        continue;
      }
      const resend = locked?.pending === 'create';
      const note = resend ? 'its earlier create was never answered' : locked?.id ? 'deleted from the account; creating it again' : undefined;
      steps.push({ kind: 'create-agent', handle: agent.handle, name, body, note, resend: resend || undefined });
    } else if (changes.length) {
      steps.push({ kind: 'update-agent', handle: agent.handle, id: server.id, name: String(server.name ?? name), changes, body, adopt });
    } else if (adopt || locked?.name !== server.name) {
      steps.push({ kind: 'record-agent', handle: agent.handle, id: server.id, name: String(server.name) });
    }
  }
}

/**
 * Names after the plan: a create or a rename must not leave two agents with one name in
 * the account (`--agent NAME` and `pull` could no longer tell them apart). Duplicates
 * the plan neither makes nor touches are left to `pull` to report.
 */
export function checkNames(account: Account, lock: Lock, steps: Step[], errors: string[]): void {
  const handleOf = new Map(Object.entries(lock.agents).filter(([, a]) => a.id).map(([h, a]) => [a.id!, h]));
  const finals = new Map<string, { name: string; label: string; changed: boolean }>();
  for (const a of account.agents) {
    const handle = handleOf.get(a.id);
    finals.set(a.id, { name: String(a.name), label: handle ? `agents.${handle}` : `agent ${a.id} (not managed by these files)`, changed: false });
  }
  for (const step of steps) {
    if (step.kind === 'update-agent' || step.kind === 'record-agent') {
      const renamed = step.kind === 'update-agent' && typeof step.body.fields.name === 'string' ? step.body.fields.name : undefined;
      const current = finals.get(step.id);
      finals.set(step.id, { name: renamed ?? current?.name ?? step.name, label: `agents.${step.handle}`, changed: renamed !== undefined });
    } else if (step.kind === 'create-agent') {
      finals.set(`new:${step.handle}`, { name: step.name, label: `agents.${step.handle} (new)`, changed: true });
    } else if (step.kind === 'delete-agent') {
      finals.delete(step.id);
    }
  }
  const byName = new Map<string, Array<{ label: string; changed: boolean }>>();
  for (const f of finals.values()) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  for (const [name, list] of byName) {
    if (list.length < 2 || !list.some((f) => f.changed)) continue;
    errors.push(`after this apply, ${list.map((f) => f.label).join(' and ')} would all be named "${name}"; agent names must be unique: give one another name`);
  }
}
