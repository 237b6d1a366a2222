import type { Context } from '../../context.js';
import { allCampaigns, isListUnsupported, listCampaigns, type Campaign } from '../../api/campaigns.js';
import type { ApiError } from '../../api/errors.js';
import { collectAll, type IncompleteListError } from '../../api/pagination.js';
import { FailureError } from '../../errors.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { campaignColumns } from './fields.js';
import { agentNames } from '../../agents/names.js';
import { note } from '../../io/render.js';
import type { ListFlags } from './definition.js';

type Flags = ListFlags;

export default async function campaignList(ctx: Context, flags: Flags): Promise<void> {
  const api = await ctx.api();
  const filters = { status: flags.status };
  let campaigns: Campaign[];
  let total: number | undefined;
  let incomplete: IncompleteListError | undefined;
  try {
    if (flags.all) {
      ({ items: campaigns, incomplete } = await withSpinner(ctx, 'Fetching campaigns', () =>
        collectAll(allCampaigns(api, filters, { offset: flags.offset, signal: ctx.signal }))));
    } else {
      ({ items: campaigns, total } = await withSpinner(ctx, 'Fetching campaigns', () =>
        listCampaigns(api, filters, { limit: flags.limit, offset: flags.offset }, ctx.signal)));
    }
  } catch (err) {
    if (isListUnsupported(err)) {
      throw new FailureError(`This service does not list campaigns (GET /campaigns answered HTTP ${(err as ApiError).status}).`, {
        hint: 'Read one campaign by its id instead: `voicectl campaign get ID` (the id is printed by `voicectl campaign create`).',
      });
    }
    throw err;
  }
  // A server that ignores ?status= would otherwise list everything under the filter's name.
  if (flags.status) campaigns = campaigns.filter((c) => c.status === undefined || c.status === flags.status);
  const agents = new Map<string, string>();
  const created = campaigns.some((c) => typeof c.created_at === 'string');
  await printList(ctx, campaigns, campaignColumns(agents, created ? ctx.timeZone : 'UTC', created), {
    beforeTable: async () => {
      if (!campaigns.some((c) => c.agent_id)) return;
      for (const [id, name] of await agentNames(api, ctx.signal)) agents.set(id, name);
    },
    empty: flags.status ? `No ${flags.status} campaigns.` : 'No campaigns yet. Create one with `voicectl campaign create`.',
  });
  if (total !== undefined && total > (flags.offset ?? 0) + campaigns.length) {
    note(ctx, ctx.errColor.dim(`Showing ${campaigns.length} of ${total}. Use --all for every campaign.`));
  }
  // What was read is printed; the exit status says it is not the whole list.
  if (incomplete) throw incomplete;
}
