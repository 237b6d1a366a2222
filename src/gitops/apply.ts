/**
 * Carrying out a plan, one step at a time, the lock written after each. Every step can
 * be repeated: creates are announced in the lock before they are sent, uploads replace
 * by name and folder, updates send what still differs, deletes accept a 404. So a run
 * that stops anywhere (an error, a kill) is finished by running apply again. POST and
 * PATCH are never retried.
 */
import type { ApiClient } from '../api/client.js';
import { createAgent, deleteAgent, updateAgent } from '../api/agents.js';
import { ApiError } from '../api/errors.js';
import { deleteItem, uploadFile } from '../api/kb.js';
import { createEndpoint, deleteEndpoint, findSecret, updateEndpoint } from '../api/webhooks.js';
import { FailureError, UsageError } from '../errors.js';
import { openInside, RefusedFile } from './files.js';
import { writeLock, type Lock } from './lock.js';
import { containsNull } from './model.js';
import type { AgentBody, Plan, Step } from './steps.js';
import { stepTitle } from './render.js';

export interface ApplyHooks {
  /** Called when a step is done. */
  done(step: Step, title: string): void;
  /** A new webhook endpoint's secret: the caller decides where it may go (never the files). */
  secret(handle: string, id: string, secret: string | undefined): Promise<void>;
}

export interface ApplyResult {
  done: Step[];
}

/** Thrown when a step fails: what was done and what was not, with the cause. */
export class ApplyStopped extends Error {
  constructor(readonly failed: Step, readonly done: Step[], readonly remaining: Step[], override readonly cause: unknown) {
    super(`apply stopped at: ${stepTitle(failed)}`);
    this.name = 'ApplyStopped';
  }
}

export async function applyPlan(api: ApiClient, plan: Plan, lock: Lock, lockFile: string, hooks: ApplyHooks): Promise<ApplyResult> {
  const done: Step[] = [];
  const save = () => writeLock(lockFile, lock);
  for (let i = 0; i < plan.steps.length; i++) {
    const step = plan.steps[i]!;
    try {
      await runStep(api, step, lock, save, hooks);
    } catch (cause) {
      // The lock holds whatever the step managed before it failed.
      await save().catch(() => {});
      throw new ApplyStopped(step, done, plan.steps.slice(i + 1), cause);
    }
    await save();
    done.push(step);
    hooks.done(step, stepTitle(step));
  }
  return { done };
}

/** Every body leaves through here: the service rejects null, and a null here would be a bug. */
function checked(body: Record<string, unknown>, what: string): Record<string, unknown> {
  if (containsNull(body)) throw new FailureError(`refusing to send null in ${what}`);
  return body;
}

function agentFields(body: AgentBody, lock: Lock): Record<string, unknown> {
  const fields = { ...body.fields };
  if (body.documents) {
    fields.kb_item_ids = body.documents.map((key) => {
      const id = lock.documents[key]?.id;
      if (!id) throw new FailureError(`the document ${key} has no id yet (its upload did not complete)`);
      return id;
    });
  }
  return fields;
}

function isGone(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/**
 * The service answered the create with a refusal (400, 402, 422…): nothing was made, so
 * the entry goes back to what it was instead of staying `pending`. A 5xx, a timeout or
 * a lost connection says nothing about whether it was made: the entry stays pending.
 */
function refused(err: unknown): boolean {
  return err instanceof ApiError && typeof err.status === 'number' && err.status >= 400 && err.status < 500;
}

/** After a refused create, the lock entry as it was before the create was announced. */
function restoreIfRefused<T>(section: Record<string, T>, handle: string, before: T | undefined, err: unknown): void {
  if (!refused(err)) return;
  if (before === undefined) delete section[handle];
  else section[handle] = before;
}

async function runStep(api: ApiClient, step: Step, lock: Lock, save: () => Promise<void>, hooks: ApplyHooks): Promise<void> {
  switch (step.kind) {
    case 'upload-document': {
      const { doc } = step;
      const previous = lock.documents[step.key];
      lock.documents[step.key] = { ...previous, pending: 'upload' };
      await save();
      // Checked again as it is sent: the file may have been replaced by a link since the plan.
      const { handle, size } = await openInside(doc.content!.root, doc.local).catch((err: unknown) => {
        throw err instanceof RefusedFile ? new UsageError(`${doc.local}: refused: ${err.message} (voicectl reads only regular files inside the folder)`) : err;
      });
      await handle.close();
      if (size !== doc.content!.size) throw new FailureError(`${doc.local} changed since the plan was made; run apply again`);
      const res = await uploadFile(api, doc.content!.absPath, { name: doc.name, folder: doc.folder || undefined, size });
      lock.documents[step.key] = { id: res.item.id, sha256: doc.content!.sha256, size_bytes: size };
      return;
    }
    case 'record-document':
      lock.documents[step.key] = { ...lock.documents[step.key], id: step.id, pending: undefined };
      return;
    case 'create-webhook': {
      const { hook } = step;
      const before = lock.webhooks[step.handle];
      lock.webhooks[step.handle] = { pending: 'create', url: hook.url };
      await save();
      const created = await createEndpoint(api, { url: hook.url, events: hook.events })
        .catch((err: unknown) => { restoreIfRefused(lock.webhooks, step.handle, before, err); throw err; });
      const id = String(created.id);
      lock.webhooks[step.handle] = { id, url: hook.url, events: hook.events, enabled: true };
      await save();
      await hooks.secret(step.handle, id, findSecret(created));
      if (hook.enabled === false) {
        await updateEndpoint(api, id, checked({ enabled: false }, 'a webhook update') as { enabled: boolean });
        lock.webhooks[step.handle]!.enabled = false;
      }
      return;
    }
    case 'update-webhook': {
      await updateEndpoint(api, step.id, checked(step.body, 'a webhook update'));
      const prev = lock.webhooks[step.handle];
      lock.webhooks[step.handle] = { id: step.id, url: step.hook.url, events: step.hook.events, enabled: step.hook.enabled ?? prev?.enabled };
      return;
    }
    case 'record-webhook':
      lock.webhooks[step.handle] = { id: step.id, url: step.hook.url, events: step.hook.events, enabled: step.hook.enabled };
      return;
    case 'create-agent': {
      const fields = checked(agentFields(step.body, lock), 'an agent');
      const before = lock.agents[step.handle];
      lock.agents[step.handle] = { pending: 'create', name: step.name };
      await save();
      const agent = await createAgent(api, fields)
        .catch((err: unknown) => { restoreIfRefused(lock.agents, step.handle, before, err); throw err; });
      if (!agent || typeof agent !== 'object' || agent.id === undefined) {
        throw new FailureError('the service created the agent but its answer names no id; run apply again to find it by name');
      }
      lock.agents[step.handle] = { id: String(agent.id), name: step.name };
      return;
    }
    case 'update-agent': {
      const fields = checked(agentFields(step.body, lock), 'an agent update');
      // Recorded first: an adopted agent is managed from here on, whatever the answer.
      lock.agents[step.handle] = { id: step.id, name: step.name };
      await save();
      await updateAgent(api, step.id, fields);
      lock.agents[step.handle] = { id: step.id, name: typeof fields.name === 'string' ? fields.name : step.name };
      return;
    }
    case 'record-agent':
      lock.agents[step.handle] = { id: step.id, name: step.name };
      return;
    case 'delete-agent':
    case 'delete-document':
    case 'delete-webhook': {
      const [remove, section, key] = step.kind === 'delete-agent' ? [deleteAgent, 'agents', step.handle] as const
        : step.kind === 'delete-document' ? [deleteItem, 'documents', step.key] as const
          : [deleteEndpoint, 'webhooks', step.handle] as const;
      // Already gone is what a delete wanted.
      await remove(api, step.id).catch((err: unknown) => { if (!isGone(err)) throw err; });
      delete lock[section][key];
      return;
    }
    case 'forget':
      delete lock[step.section][step.key];
      return;
    case 'move': {
      const section = lock[step.section] as Record<string, unknown>;
      if (section[step.from] !== undefined) section[step.to] = section[step.from];
      delete section[step.from];
      return;
    }
  }
}
