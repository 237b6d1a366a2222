/**
 * The create-and-launch workflow as values: `createCampaigns(api, plan, hooks)` creates
 * each planned campaign (one POST at a time, never retried), then launches those marked
 * for launch, and returns what it created and launched. When a step fails it throws one
 * `CampaignsStopped` holding what was created and launched, the step that failed (or
 * whose answer never came: unknown, it may have happened), what was not attempted, and
 * the command that resumes. It prints nothing: hooks tell the caller of each step (a
 * journal written before every POST, a line for a person) and the verb renders the result.
 * `waitForCompletion` then polls a launched campaign until the service says it completed.
 */
import type { ApiClient } from '../api/client.js';
import { createCampaign, getCampaign, launchCampaign, type Campaign, type CampaignDraft } from '../api/campaigns.js';
import type { Context } from '../context.js';
import { ApiError } from '../api/errors.js';
import { FailureError } from '../errors.js';

export interface PlannedCampaign {
  draft: CampaignDraft;
  /** Launch it once created. */
  launch: boolean;
  /** Created earlier (a resumed run): not created again, only launched if `launch`. */
  id?: string;
}

export interface CampaignResult {
  planned: PlannedCampaign;
  id: string;
  /** The service's answer to the create (absent for one created earlier). */
  campaign?: Campaign;
  launched: boolean;
  /** The service's answer to the launch, as received. */
  launch_result?: unknown;
}

export interface CampaignHooks {
  /** Before each create is sent: record that it is about to be (a journal write). */
  beforeCreate?(p: PlannedCampaign): Promise<void> | void;
  created?(p: PlannedCampaign, id: string, campaign: Campaign): Promise<void> | void;
  /** Before each launch is sent; `false` leaves the campaign a draft. */
  beforeLaunch?(p: PlannedCampaign, id: string): Promise<boolean | void> | boolean | void;
  launched?(p: PlannedCampaign, id: string, result: unknown): Promise<void> | void;
}

export type Step = 'create' | 'launch';

export class CampaignsStopped extends Error {
  constructor(
    /** Created (and perhaps launched) before the stop. */
    readonly done: CampaignResult[],
    /** The campaign whose step failed or got no answer. */
    readonly at: { planned: PlannedCampaign; step: Step; id?: string },
    /** True when the request got no answer: the step may or may not have happened. */
    readonly unknown: boolean,
    /** Planned campaigns not attempted (not created; or created and not launched, listed in `done`). */
    readonly notAttempted: PlannedCampaign[],
    override readonly cause: unknown,
    /** The command that finishes the work, when the caller said how. */
    readonly resume?: string,
  ) {
    super(`stopped at the ${at.step} of "${at.planned.draft.name}"${unknown ? ' (no answer: it may or may not have happened)' : ''}`);
    this.name = 'CampaignsStopped';
  }

  /** Created, not launched, though planned to be: the drafts a resume would launch. */
  get drafts(): CampaignResult[] {
    return this.done.filter((r) => r.planned.launch && !r.launched);
  }
}

/** A request that got no answer at all (timeout, dropped connection): the service may have acted on it. */
export function noAnswer(err: unknown): boolean {
  return err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout');
}

export interface CampaignOptions {
  /** The command that resumes from a stop (put in the error). */
  resume?: (at: { planned: PlannedCampaign; step: Step }) => string;
  /** Stops a request under way (Ctrl-C); a POST so stopped is an unknown step. */
  signal?: AbortSignal;
}

export async function createCampaigns(api: ApiClient, plan: PlannedCampaign[], hooks: CampaignHooks = {}, options: CampaignOptions = {}): Promise<CampaignResult[]> {
  const done: CampaignResult[] = [];
  const stop = (at: { planned: PlannedCampaign; step: Step; id?: string }, unknown: boolean, rest: PlannedCampaign[], err: unknown) =>
    new CampaignsStopped(done, at, unknown, rest, err, options.resume?.(at));
  for (let i = 0; i < plan.length; i++) {
    const p = plan[i]!;
    if (p.id !== undefined) {
      done.push({ planned: p, id: p.id, launched: false });
      continue;
    }
    await hooks.beforeCreate?.(p);
    let campaign: Campaign;
    try {
      campaign = await createCampaign(api, p.draft, { signal: options.signal });
    } catch (err) {
      throw stop({ planned: p, step: 'create' }, noAnswer(err), plan.slice(i + 1), err);
    }
    const id = idOf(campaign);
    if (!id) {
      const err = new FailureError(`The service created "${p.draft.name}" but returned no id, so voicectl cannot launch or follow it.`, {
        hint: '`voicectl campaign list` should show it.',
      });
      throw stop({ planned: p, step: 'create' }, true, plan.slice(i + 1), err);
    }
    done.push({ planned: p, id, campaign, launched: false });
    await hooks.created?.(p, id, campaign);
  }
  for (const r of done) {
    if (!r.planned.launch) continue;
    if ((await hooks.beforeLaunch?.(r.planned, r.id)) === false) continue;
    try {
      r.launch_result = await launchCampaign(api, r.id, { signal: options.signal });
    } catch (err) {
      throw stop({ planned: r.planned, step: 'launch', id: r.id }, noAnswer(err), [], err);
    }
    r.launched = true;
    await hooks.launched?.(r.planned, r.id, r.launch_result);
  }
  return done;
}

/** The id of a created campaign: `id`, or `campaign_id` where a service names it so. */
export function idOf(c: Campaign | undefined): string | undefined {
  if (!c || typeof c !== 'object') return undefined;
  const id = c.id ?? (c as { campaign_id?: unknown }).campaign_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

export interface CompletionWait {
  /** How long to wait on the context's clock before `timedOut`. */
  timeoutMs: number;
  /** Between reads of the campaign. */
  intervalMs: number;
  /** The error when the campaign has not completed in time, given its last status. */
  timedOut(status: string | undefined): Error;
}

/** Reads the campaign every `intervalMs` (the context's clock and sleep) until its status is completed. */
export async function waitForCompletion(ctx: Context, api: ApiClient, id: string, wait: CompletionWait): Promise<void> {
  const deadline = ctx.now().getTime() + wait.timeoutMs;
  for (;;) {
    const c = await getCampaign(api, id, { signal: ctx.signal });
    if (c.status === 'completed') return;
    if (ctx.now().getTime() > deadline) throw wait.timedOut(c.status);
    await ctx.sleep(wait.intervalMs, ctx.signal);
  }
}
