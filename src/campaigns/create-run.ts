/**
 * Creating the campaigns of one `campaign create`, one POST at a time (a POST is never
 * retried), and launching them with --launch. When a part fails, what was created is
 * listed with its id and the exact command that creates the rest, so a re-run never
 * creates a campaign twice.
 */
import type { ApiClient } from '../api/client.js';
import { createCampaign, type Campaign, type CampaignDraft } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { InputContact } from './input.js';
import { launch } from './launch-flow.js';
import { plural } from '../io/text.js';
import { mapRejection } from './rejection.js';

export interface Part {
  /** 0-based position in the split. */
  index: number;
  draft: CampaignDraft;
  contacts: InputContact[];
}

export interface Created extends Part {
  campaign: Campaign;
  id?: string;
}

export interface RunInfo {
  parts: number;
  fileName: string;
  where(row: number): string;
  /** The command that creates parts from `n` (1-based) on. */
  resume(fromPart: number): string;
}

export async function createAll(ctx: Context, api: ApiClient, todo: Part[], info: RunInfo): Promise<Created[]> {
  const created: Created[] = [];
  for (const part of todo) {
    let campaign: Campaign;
    try {
      campaign = await createCampaign(api, part.draft, { signal: ctx.signal });
    } catch (err) {
      reportStop(ctx, part, created, info, err);
      throw mapRejection(err, part.contacts, info.where, info.fileName);
    }
    const id = idOf(campaign);
    created.push({ ...part, campaign, id });
    if (info.parts > 1) {
      ctx.info(ctx.errColor.green(`✓ Created "${part.draft.name}" (${id ?? 'no id returned'}): ${plural(part.contacts.length, 'contact')}.`));
    }
    if (!id) ctx.warn(`the service created "${part.draft.name}" but returned no id; \`voicectl campaign list\` should show it.`);
  }
  return created;
}

/** Launches each created campaign in turn; on a failure, says which are launched and which are still drafts. */
export async function launchAll(ctx: Context, api: ApiClient, created: Created[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let i = 0; i < created.length; i++) {
    const c = created[i]!;
    if (!c.id) {
      ctx.warn(`"${c.draft.name}" cannot be launched: the service returned no id for it.`);
      results.push(undefined);
      continue;
    }
    try {
      results.push(await launch(ctx, api, c.id));
    } catch (err) {
      const launched = created.slice(0, i);
      if (launched.length > 0) ctx.info(`Launched: ${launched.map((x) => `"${x.draft.name}" (${x.id})`).join(', ')}.`);
      ctx.info('Created but not launched (drafts, nothing dialed):');
      for (const d of created.slice(i)) ctx.info(`  "${d.draft.name}"  ${d.id}    launch with: voicectl campaign launch ${d.id}`);
      throw err;
    }
    ctx.info(ctx.errColor.green(`✓ Launched "${c.draft.name}" (${c.id}): dialing ${plural(c.contacts.length, 'contact')}.`));
  }
  return results;
}

function reportStop(ctx: Context, failed: Part, created: Created[], info: RunInfo, err: unknown): void {
  // No answer at all (timeout, dropped connection): the service may have created it anyway.
  const unknown = err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout');
  if (info.parts <= 1) {
    if (unknown) {
      ctx.warn(`the request to create "${failed.draft.name}" got no answer, so it may or may not have been created. `
        + 'Check `voicectl campaign list` before running the command again, so it is not created twice.');
    }
    return;
  }
  const c = ctx.errColor;
  const n = failed.index + 1;
  ctx.info(c.red(`Part ${n} of ${info.parts} ("${failed.draft.name}") ${unknown ? 'may or may not have been created (the request got no answer)' : 'was not created'}; parts after it were not attempted.`));
  const earlier = failed.index - created.length;
  if (created.length > 0 || earlier > 0) {
    ctx.info('Already created (do not create them again):');
    if (earlier > 0) ctx.info(`  parts 1 to ${earlier}, in an earlier run`);
    for (const x of created) ctx.info(`  ${x.draft.name}  ${x.id ?? '(no id returned)'}`);
  }
  if (unknown) {
    ctx.info(`Check \`voicectl campaign list\` for "${failed.draft.name}".`);
    ctx.info(n < info.parts ? `If it is there, finish with:\n  ${info.resume(n + 1)}` : 'If it is there, every part has been created.');
    ctx.info(`If it is not, finish with:\n  ${info.resume(n)}`);
  } else {
    ctx.info(`When the problem is fixed, create the rest with:\n  ${info.resume(n)}`);
  }
}

export function idOf(c: Campaign | undefined): string | undefined {
  if (!c || typeof c !== 'object') return undefined;
  const id = c.id ?? (c as { campaign_id?: unknown }).campaign_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

export { shellQuote } from '../io/text.js';
