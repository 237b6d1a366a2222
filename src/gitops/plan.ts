/**
 * What apply would do: the files, the lock and the account compared, as a list of
 * steps. Pure: no requests, no files. Conflicts that a person must settle (an agent of
 * the same name made outside the files, a null to send) stop the plan with all of them.
 */
import type { Agent } from '../api/agents.js';
import type { WebhookEndpoint } from '../api/webhooks.js';
import { UsageError } from '../errors.js';
import { EVENT_TYPES } from '../webhooks/signature.js';
import type { Account } from './account.js';
import type { Lock, LockedWebhook } from './lock.js';
import { planMoves, type Move } from './moves.js';
import {
  AGENT_TEXT_FIELDS, containsNull, kbPath, sameSet, sameValue,
  type Desired, type DesiredAgent, type DesiredDocument, type DesiredWebhook,
} from './model.js';

export interface FieldChange {
  field: string;
  old?: unknown;
  new: unknown;
}

/** The agent fields of a request, with documents still as account paths: ids of new uploads are known only during apply. */
export interface AgentBody {
  fields: Record<string, unknown>;
  /** Account paths (folder/name) for kb_item_ids, when the list is sent. */
  documents?: string[];
}

export type Step =
  | { kind: 'upload-document'; key: string; doc: DesiredDocument; reason: string; id?: string }
  | { kind: 'record-document'; key: string; id: string }
  | { kind: 'create-webhook'; handle: string; hook: DesiredWebhook; resend?: boolean; note?: string }
  | { kind: 'update-webhook'; handle: string; id: string; changes: FieldChange[]; body: Record<string, unknown>; hook: DesiredWebhook; adopt?: boolean }
  | { kind: 'record-webhook'; handle: string; id: string; hook: DesiredWebhook }
  | { kind: 'create-agent'; handle: string; name: string; body: AgentBody; note?: string; resend?: boolean }
  | { kind: 'update-agent'; handle: string; id: string; name: string; changes: FieldChange[]; body: AgentBody; adopt?: boolean }
  | { kind: 'record-agent'; handle: string; id: string; name: string }
  | { kind: 'delete-agent'; handle: string; id: string; name?: string }
  | { kind: 'delete-document'; key: string; id: string }
  | { kind: 'delete-webhook'; handle: string; id: string; url?: string }
  | { kind: 'forget'; section: 'agents' | 'documents' | 'webhooks'; key: string; why: string }
  | Move;

export interface Plan {
  steps: Step[];
  /** Things worth knowing that change nothing. */
  notes: string[];
  /** Things that may be wrong: creates an earlier run left unanswered, a lock that maps two handles to one resource. */
  warnings: string[];
  /** Resources the files managed and no longer declare, left in the account (without --prune): "agent sales". */
  left: string[];
}

export interface PlanOptions {
  prune?: boolean;
  /** Take over resources of the same name that these files do not manage yet. */
  adopt?: boolean;
}

/**
 * A create an earlier run sent without hearing the answer, of a resource the account
 * does not show: it may still be on its way, so it is not sent again without a yes.
 */
export function isResend(step: Step): step is Extract<Step, { kind: 'create-agent' | 'create-webhook' }> {
  return (step.kind === 'create-agent' || step.kind === 'create-webhook') && step.resend === true;
}

/** Steps that send a request (the others only bring the lock up to date). */
export function sendsRequest(step: Step): boolean {
  return !step.kind.startsWith('record-') && step.kind !== 'forget' && step.kind !== 'move';
}

export function makePlan(desired: Desired, recorded: Lock, account: Account, options: PlanOptions = {}): Plan {
  const notes: string[] = [];
  const warnings = lockWarnings(recorded);
  const errors: string[] = [];
  // Renamed handles first: everything after plans against the lock as it will be.
  const { moves, lock } = planMoves(desired, recorded, account, errors);
  const steps: Step[] = [...moves];
  const docIds = planDocuments(desired, lock, account, options, steps, errors);
  planWebhooks(desired, lock, account, options, steps, notes, errors);
  planAgents(desired, lock, account, options, docIds, steps, errors);
  checkNames(account, lock, steps, errors);
  const left = planPrune(desired, lock, account, options, steps, notes);
  warnings.push(...statusWarnings(desired, account));
  for (const step of steps) {
    if (step.kind !== 'update-agent' && step.kind !== 'record-agent' && step.kind !== 'update-webhook' && step.kind !== 'record-webhook') continue;
    const section = step.kind.endsWith('agent') ? 'agents' : 'webhooks';
    if (lock[section][step.handle]?.pending) {
      warnings.push(`${section}.${step.handle}: an earlier apply sent its create and stopped before the answer; it did arrive (${step.id}), and apply records it instead of creating another.`);
    }
  }
  if (errors.length) {
    const place = desired.place ?? ((e: string) => e);
    throw new UsageError(`The files cannot be applied as they are:\n${errors.map((e) => `  ${place(e)}`).join('\n')}`);
  }
  return { steps, notes, warnings, left };
}

/** The agent directions the spec names. */
const DIRECTIONS = ['outbound', 'inbound'] as const;

/** The spec names one agent status, `active`; an account's own agents show the others it uses. */
const KNOWN_STATUSES = ['active'];

function statusWarnings(desired: Desired, account: Account): string[] {
  const known = new Set([...KNOWN_STATUSES, ...account.agents.map((a) => a.status).filter((s): s is string => typeof s === 'string')]);
  const warnings: string[] = [];
  for (const a of desired.agents.values()) {
    const status = a.text.status;
    if (status !== undefined && !known.has(status)) {
      warnings.push(`agents.${a.handle}.status: "${status}" is not a status voicectl knows (known: ${[...known].sort().join(', ')}); the service may refuse it.`);
    }
  }
  return warnings;
}

/** What the lock itself says may be wrong. */
function lockWarnings(lock: Lock): string[] {
  const warnings: string[] = [];
  for (const [handle, d] of Object.entries(lock.documents)) {
    if (d.pending) warnings.push(`documents.${handle}: an earlier upload did not finish; apply uploads it again (the same name in the same folder replaces it).`);
  }
  const twice = (section: string, entries: Array<[string, string | undefined]>, what: string) => {
    const seen = new Map<string, string[]>();
    for (const [handle, value] of entries) if (value !== undefined) seen.set(value, [...(seen.get(value) ?? []), handle]);
    for (const [value, handles] of seen) {
      if (handles.length > 1) warnings.push(`the lock maps ${section} ${handles.join(', ')} to one ${what} ${JSON.stringify(value)}; keep one entry in voicectl.lock.json (a merge may have kept both sides).`);
    }
  };
  twice('agents', Object.entries(lock.agents).map(([h, a]) => [h, a.id]), 'id');
  twice('agents', Object.entries(lock.agents).map(([h, a]) => [h, a.name]), 'name');
  twice('webhooks', Object.entries(lock.webhooks).map(([h, w]) => [h, w.id]), 'id');
  return warnings;
}

/** Account path → id, for the documents whose id is known now. */
function planDocuments(desired: Desired, lock: Lock, account: Account, options: PlanOptions, steps: Step[], errors: string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const doc of desired.documents.values()) {
    const key = kbPath(doc.folder, doc.name);
    const server = account.documents.get(key);
    const locked = lock.documents[key];
    if (!server) {
      if (!doc.content) {
        errors.push(`documents.${doc.local}: the file is not in the folder, and the account has no document ${key} to refer to`);
      } else {
        steps.push({ kind: 'upload-document', key, doc, reason: locked?.id ? 'deleted from the account; uploading again' : 'new' });
      }
      continue;
    }
    ids.set(key, server.id);
    const managed = locked !== undefined || options.adopt;
    if (!managed && doc.content) {
      errors.push(`documents.${doc.local}: the account already has ${key} (id ${server.id}), which these files do not manage; pass --adopt to replace it with the local file`);
      continue;
    }
    if (doc.content) {
      const c = doc.content;
      const sizeDiffers = server.size_bytes !== undefined && server.size_bytes !== c.size;
      let reason: string | undefined;
      if (!locked?.sha256) reason = 'content never uploaded from these files';
      else if (locked.sha256 !== c.sha256) reason = 'changed';
      else if (sizeDiffers) reason = 'changed in the account';
      if (reason) {
        steps.push({ kind: 'upload-document', key, doc, reason, id: server.id });
        continue;
      }
    }
    if (locked?.id !== server.id) steps.push({ kind: 'record-document', key, id: server.id });
  }
  return ids;
}

function isAllEvents(events: unknown): boolean {
  return !Array.isArray(events) || events.length === 0 || EVENT_TYPES.every((t) => events.includes(t));
}

function webhookChanges(hook: DesiredWebhook, current: { url?: unknown; events?: unknown; enabled?: unknown }): { changes: FieldChange[]; body: Record<string, unknown> } {
  const changes: FieldChange[] = [];
  const body: Record<string, unknown> = {};
  if (current.url !== hook.url) {
    changes.push({ field: 'url', old: current.url, new: hook.url });
    body.url = hook.url;
  }
  const same = hook.events === undefined ? isAllEvents(current.events) : Array.isArray(current.events) && sameSet(hook.events, current.events as string[]);
  if (!same) {
    // PATCH cannot "leave out" events to mean all of them: the whole list says it.
    const events = hook.events ?? [...EVENT_TYPES];
    changes.push({ field: 'events', old: current.events ?? 'all', new: hook.events ?? 'all' });
    body.events = events;
  }
  if (hook.enabled !== undefined && current.enabled !== hook.enabled) {
    changes.push({ field: 'enabled', old: current.enabled, new: hook.enabled });
    body.enabled = hook.enabled;
  }
  return { changes, body };
}

function planWebhooks(desired: Desired, lock: Lock, account: Account, options: PlanOptions, steps: Step[], notes: string[], errors: string[]): void {
  const listed = account.webhooks;
  const byId = new Map((listed ?? []).map((e) => [String(e.id), e]));
  const managedIds = new Set(Object.values(lock.webhooks).map((w) => w.id).filter(Boolean));
  if (!listed && (desired.webhooks.size > 0 || Object.keys(lock.webhooks).length > 0)) {
    notes.push('This service does not list webhook endpoints: they are compared with what voicectl last applied, so changes made elsewhere do not show.');
  }
  for (const hook of desired.webhooks.values()) {
    const locked = lock.webhooks[hook.handle];
    if (!listed) {
      if (locked?.id) {
        const { changes, body } = webhookChanges(hook, locked);
        if (changes.length) steps.push({ kind: 'update-webhook', handle: hook.handle, id: locked.id, changes, body, hook });
      } else {
        // This service cannot list endpoints: an unanswered create can never be found.
        steps.push({ kind: 'create-webhook', handle: hook.handle, hook, resend: locked?.pending === 'create' || undefined });
      }
      continue;
    }
    const server = locked?.id ? byId.get(locked.id) : undefined;
    if (server) {
      pushWebhookUpdate(steps, hook, server, false, locked);
      continue;
    }
    const candidates = (listed ?? []).filter((e) => e.url === hook.url && !managedIds.has(String(e.id)));
    if (candidates.length && (locked?.pending || options.adopt)) {
      if (candidates.length > 1) errors.push(`webhooks.${hook.handle}: ${candidates.length} endpoints have the URL ${hook.url} (${candidates.map((c) => c.id).join(', ')}); delete all but one, then apply again`);
      else pushWebhookUpdate(steps, hook, candidates[0]!, true, locked);
    } else if (candidates.length) {
      errors.push(`webhooks.${hook.handle}: the account already has an endpoint for ${hook.url} (id ${candidates.map((c) => c.id).join(', ')}) that these files do not manage; pass --adopt to take it over`);
    } else {
      steps.push({ kind: 'create-webhook', handle: hook.handle, hook, resend: locked?.pending === 'create' || undefined });
    }
  }
}

function pushWebhookUpdate(steps: Step[], hook: DesiredWebhook, server: WebhookEndpoint, adopt: boolean, locked: LockedWebhook | undefined): void {
  const id = String(server.id);
  const { changes, body } = webhookChanges(hook, server);
  if (changes.length) steps.push({ kind: 'update-webhook', handle: hook.handle, id, changes, body, hook, adopt });
  else if (adopt || locked?.id !== id || locked.url !== hook.url || !sameValue(locked.events ?? null, hook.events ?? null)) {
    steps.push({ kind: 'record-webhook', handle: hook.handle, id, hook });
  }
}

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

function planAgents(desired: Desired, lock: Lock, account: Account, options: PlanOptions, docIds: Map<string, string>, steps: Step[], errors: string[]): void {
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
function checkNames(account: Account, lock: Lock, steps: Step[], errors: string[]): void {
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

function planPrune(desired: Desired, lock: Lock, account: Account, options: PlanOptions, steps: Step[], notes: string[]): string[] {
  const kept: string[] = [];
  const agentsById = new Map(account.agents.map((a) => [a.id, a]));
  for (const [handle, locked] of Object.entries(lock.agents)) {
    if (desired.agents.has(handle)) continue;
    const server = locked.id ? agentsById.get(locked.id) : undefined;
    if (!server && locked.pending) {
      // Its create was sent and never answered: the agent may exist, now managed by nothing.
      const found = account.agents.filter((a) => a.name === locked.name).map((a) => a.id);
      if (found.length) notes.push(`agents.${handle} left the files while its create was unanswered; the account has "${locked.name}" (${found.join(', ')}), which is left alone.`);
    }
    if (!server) steps.push({ kind: 'forget', section: 'agents', key: handle, why: 'no longer in the files or the account' });
    else if (options.prune) steps.push({ kind: 'delete-agent', handle, id: server.id, name: String(server.name ?? locked.name ?? '') });
    else kept.push(`agent ${handle}`);
  }
  const desiredKeys = new Set([...desired.documents.values()].map((d) => kbPath(d.folder, d.name)));
  for (const key of Object.keys(lock.documents)) {
    if (desiredKeys.has(key)) continue;
    const server = account.documents.get(key);
    if (!server) steps.push({ kind: 'forget', section: 'documents', key, why: 'no longer in the files or the account' });
    else if (options.prune) steps.push({ kind: 'delete-document', key, id: server.id });
    else kept.push(`document ${key}`);
  }
  const byId = account.webhooks ? new Map(account.webhooks.map((e) => [String(e.id), e])) : undefined;
  for (const [handle, locked] of Object.entries(lock.webhooks)) {
    if (desired.webhooks.has(handle)) continue;
    const exists = locked.id !== undefined && (byId ? byId.has(locked.id) : true);
    if (!exists) steps.push({ kind: 'forget', section: 'webhooks', key: handle, why: 'no longer in the files or the account' });
    else if (options.prune) steps.push({ kind: 'delete-webhook', handle, id: locked.id!, url: locked.url });
    else kept.push(`webhook ${handle}`);
  }
  if (kept.length) notes.push(`No longer in the files, left in the account: ${kept.join(', ')} (--prune deletes them).`);
  return kept;
}
