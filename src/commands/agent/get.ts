import type { Context } from '../../context.js';
import { resolveAgent } from '../../api/agents.js';
import { printObject } from '../../io/output.js';
import { AGENT_FIELDS } from './fields.js';

export default async function agentGet(ctx: Context, idOrName: string): Promise<void> {
  const api = await ctx.api();
  const agent = await resolveAgent(api, idOrName);
  await printObject(ctx, agent, AGENT_FIELDS);
}
