/**
 * Launching places real calls that use balance: a confirmation that shows what will be
 * dialed, then one POST per campaign (never retried), with the service's refusals
 * (a missing calls:dispatch scope, a campaign that is not a draft) said in words.
 * Shared by `campaign launch` and `campaign create --launch`.
 */
import type { ApiClient } from '../api/client.js';
import { launchCampaign } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import type { Context } from '../context.js';
import { AuthError, FailureError, UsageError } from '../errors.js';
import { confirm } from '../io/prompter.js';
import { plural } from '../text/text.js';
import { noSuchCampaign } from './read.js';
import { isSandboxTarget } from '../webhooks/url-policy.js';

export interface LaunchTarget {
  id?: string;
  name?: string;
  /** How many contacts the launch dials, when known. */
  dial?: number;
}

function describeTargets(targets: LaunchTarget[]): { what: string; dial?: number } {
  const dial = targets.every((t) => t.dial !== undefined) ? targets.reduce((n, t) => n + t.dial!, 0) : undefined;
  const one = targets[0]!;
  const what = targets.length === 1
    ? (one.name ? `"${one.name}"${one.id ? ` (${one.id})` : ''}` : `campaign ${one.id}`)
    : `${targets.length} campaigns (${targets.map((t) => `"${t.name ?? t.id}"`).join(', ')})`;
  return { what, dial };
}

/**
 * Asks before dialing; --yes answers for the user. Off a terminal (or under --no-input)
 * without --yes it refuses, naming the flag: nothing is dialed by accident in CI.
 */
export async function confirmLaunch(ctx: Context, targets: LaunchTarget[], options: { declined?: string } = {}): Promise<void> {
  if (ctx.opts.yes) return;
  const { what, dial } = describeTargets(targets);
  const dials = dial !== undefined ? `dials ${plural(dial, 'contact')}` : 'dials every pending contact';
  const cost = launchCost(ctx);
  if (!ctx.io.canPrompt()) {
    const why = ctx.io.whyNoPrompt();
    throw new UsageError(`Launching ${what} ${dials}: ${cost}. Pass --yes to confirm (${why}).`, {
      hint: 'Add --yes (or -y) to launch without being asked.',
    });
  }
  const ok = await confirm(ctx, `Launch ${what}? It ${dials}: ${cost}.`, { flag: '--yes' });
  if (!ok) throw new FailureError(options.declined ?? 'Cancelled: nothing was launched.');
}

/** What a launch's calls cost: real calls on the balance, or simulated ones in the sandbox. */
export function launchCost(ctx: Context): string {
  return isSandboxTarget(ctx.settings()) ? 'simulated calls in the sandbox, no balance used' : 'real calls that use the account balance';
}

/** POST /campaigns/{id}/launch with the refusals a user can act on turned into words. */
export async function launch(ctx: Context, api: ApiClient, id: string): Promise<unknown> {
  try {
    return await launchCampaign(api, id, { signal: ctx.signal });
  } catch (err) {
    throw launchError(err, id);
  }
}

export function launchError(err: unknown, id: string): unknown {
  if (!(err instanceof ApiError) || err.kind !== 'http') return err;
  switch (err.status) {
    case 403:
      return new AuthError(`This API key cannot launch campaigns: it lacks the "calls:dispatch" scope (the service answered 403: ${err.message}).`, {
        hint: 'Launching needs a key with calls:dispatch (calls:write only creates campaigns). Create one in the dashboard under API access.',
      });
    case 404:
      return noSuchCampaign(id);
    case 409:
      return new FailureError(`Campaign ${id} cannot be launched: it is not a draft (the service answered 409: ${err.message}).`, {
        hint: `A campaign is launched once. Follow it with \`voicectl watch ${id}\`, or create a new campaign to call these contacts again.`,
      });
    default:
      return err;
  }
}

/** Said before sending when the campaign is already known not to be a draft. */
export function notDraft(id: string, name: string | undefined, status: string): FailureError {
  const label = name ? `"${name}" (${id})` : id;
  const already = status === 'running'
    ? 'it is already running'
    : status === 'completed' ? 'it has already run to completion' : `its status is "${status}"`;
  return new FailureError(`Campaign ${label} cannot be launched: only a draft can be, and ${already}.`, {
    hint: status === 'running'
      ? `Follow it: voicectl watch ${id}`
      : 'To call these contacts again, create a new campaign from the same file.',
  });
}
