import type { Context } from '../../context.js';
import { allAgents, listAgents, type Agent } from '../../api/agents.js';
import { extractList } from '../../api/envelope.js';
import { collectAll, type IncompleteListError } from '../../api/pagination.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { AGENT_COLUMNS } from './fields.js';
import { note } from '../../io/render.js';
import type { ListFlags } from './definition.js';

export default async function agentList(ctx: Context, opts: ListFlags): Promise<void> {
  const api = await ctx.api();
  let agents: Agent[];
  let total: number | undefined;
  let incomplete: IncompleteListError | undefined;
  if (opts.all) {
    ({ items: agents, incomplete } = await withSpinner(ctx, 'Fetching agents', () => collectAll(allAgents(api))));
  } else {
    const page = await withSpinner(ctx, 'Fetching agents', () => listAgents(api, { limit: opts.limit, offset: opts.offset }));
    ({ items: agents, total } = extractList<Agent>(page, 'agents', api.url('/agents')));
  }
  await printList(ctx, agents, AGENT_COLUMNS, { empty: 'No agents yet. Create one with `voicectl agent create`.' });
  if (total !== undefined && total > (opts.offset ?? 0) + agents.length) {
    note(ctx, ctx.errColor.dim(`Showing ${agents.length} of ${total}. Use --all for every agent.`));
  }
  // What was read is printed; the exit status says it is not the whole list.
  if (incomplete) throw incomplete;
}
