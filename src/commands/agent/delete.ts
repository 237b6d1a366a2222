import type { Context } from '../../context.js';
import { deleteAgent, resolveAgent } from '../../api/agents.js';
import { FailureError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { terminalLine } from '../../text/terminal-text.js';
import { render } from '../../io/render.js';

export default async function agentDelete(ctx: Context, idOrName: string): Promise<void> {
  const api = await ctx.api();
  const agent = await resolveAgent(api, idOrName);
  const ok = await confirm(ctx, terminalLine(`Delete agent "${agent.name}" (${agent.id})? Its past calls and campaigns remain.`));
  if (!ok) throw new FailureError('Cancelled: nothing deleted.');
  await deleteAgent(api, agent.id);
  await render(ctx, {
    json: { id: agent.id, deleted: true },
    layout: 'compact',
    human: () => ctx.info(ctx.errColor.green(terminalLine(`Deleted agent ${agent.name} (${agent.id}).`))),
  });
}
