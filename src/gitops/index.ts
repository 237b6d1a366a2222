/**
 * The account as code, as the verbs use it: plan a folder against the account, apply
 * it, pull the account into it. Prompts and output stay with the verbs (callbacks).
 */
import { resolve } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { UsageError } from '../errors.js';
import { readAccount } from './account.js';
import { applyPlan, type ApplyHooks, type ApplyResult } from './apply.js';
import { findConfig, loadDesired } from './load.js';
import { lockPath, openLock, type Lock } from './lock.js';
import { kbPath } from './model.js';
import { makePlan } from './plan.js';
import { isResend, sendsRequest, type Plan, type Step } from './steps.js';
import { stepTitle } from './render.js';
import { holdRunLock } from './run-lock.js';

export { pull, type PullResult } from './pull.js';
export { ApplyStopped, type ApplyHooks } from './apply.js';
export { renderPlan, planJson, planWarnings, pendingCount, stepTitle, maskKeyLike } from './render.js';
export type { Plan, Step } from './steps.js';

export interface FolderOptions {
  dir: string;
  baseUrl: string;
  lockFile?: string;
  prune?: boolean;
  adopt?: boolean;
}

export interface FolderPlan {
  plan: Plan;
  lock: Lock;
  lockFile: string;
}

export async function planFolder(api: ApiClient, options: FolderOptions): Promise<FolderPlan> {
  const dir = resolve(options.dir);
  const desired = await loadDesired(dir);
  const lockFile = lockPath(dir, options.lockFile);
  const lock = await openLock(lockFile, options.baseUrl);
  // Only the folders these files or the lock name: an account's whole knowledge base
  // can be large, and the rest of it is not ours to compare.
  const folders = new Set<string>();
  const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  for (const d of desired.documents.values()) folders.add(folderOf(kbPath(d.folder, d.name)));
  for (const key of Object.keys(lock.documents)) folders.add(folderOf(key));
  const webhooks = desired.webhooks.size > 0 || Object.keys(lock.webhooks).length > 0;
  const voices = [...desired.agents.values()].some((a) => a.text.voice_name !== undefined);
  const account = await readAccount(api, { folders, webhooks, voices });
  const plan = makePlan(desired, lock, account, { prune: options.prune, adopt: options.adopt });
  return { plan, lock, lockFile };
}

export interface ApplyOptions extends FolderOptions {
  /** Called with the plan as soon as it is made (for its warnings). */
  planned?(plan: Plan): void;
  /** Shown the plan, says whether to go on; not called when nothing would be sent. */
  confirm(plan: Plan): Promise<boolean>;
  /**
   * Creates an earlier run sent without hearing the answer, of resources the account
   * does not show now: says whether to send them again. Not asked: refused.
   */
  confirmResend?(steps: Step[]): Promise<boolean>;
  hooks: ApplyHooks;
}

export async function applyFolder(api: ApiClient, options: ApplyOptions): Promise<{ plan: Plan; result?: ApplyResult }> {
  const lockFile = lockPath(resolve(options.dir), options.lockFile);
  // A folder without the file gets that error, not one about locking.
  if (!findConfig(resolve(options.dir))) await loadDesired(resolve(options.dir));
  const release = await holdRunLock(lockFile, 'apply');
  try {
    const { plan, lock } = await planFolder(api, options);
    options.planned?.(plan);
    if (plan.steps.length === 0) return { plan };
    const resends = plan.steps.filter(isResend);
    if (resends.length && !(await options.confirmResend?.(resends))) throw resendRefused(resends, options.dir);
    if (plan.steps.some(sendsRequest) && !(await options.confirm(plan))) return { plan };
    return { plan, result: await applyPlan(api, plan, lock, lockFile, options.hooks) };
  } finally {
    await release();
  }
}

function resendRefused(steps: Step[], dir: string): UsageError {
  const lines = steps.map((s) => `  ${stepTitle(s)}`).join('\n');
  return new UsageError(`An earlier apply sent these creates and stopped before the answer, and the account does not show them now:\n${lines}\n`
    + 'The service may still be creating them (a slow answer, a timeout), or the create failed. Sending them again could make a second one.', {
    hint: `Wait a minute and run \`voicectl plan ${dir}\`: a create that arrived is found and recorded. If the account still lacks them, \`voicectl apply ${dir} --resend-pending\` sends them again.`,
  });
}
