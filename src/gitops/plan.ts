/**
 * What apply would do: the files, the lock and the account compared, as a list of
 * steps. Pure: no requests, no files. Conflicts that a person must settle (an agent of
 * the same name made outside the files, a null to send) stop the plan with all of them.
 * Agents are planned in plan-agents.ts, webhooks in plan-webhooks.ts.
 */
import { UsageError } from '../errors.js';
import type { Account } from './account.js';
import type { Lock } from './lock.js';
import { planMoves } from './moves.js';
import { kbPath, type Desired } from './model.js';
import { checkNames, planAgents } from './plan-agents.js';
import { planWebhooks } from './plan-webhooks.js';
import type { Plan, PlanOptions, Step } from './steps.js';

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
