/**
 * The steps of a plan, what apply does with the account and the lock: planned in plan.ts,
 * run in apply.ts, shown in render.ts.
 */
import type { Move } from './moves.js';
import type { DesiredDocument, DesiredWebhook } from './model.js';

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
