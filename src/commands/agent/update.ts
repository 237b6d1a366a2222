import type { Context } from '../../context.js';
import { resolveAgent, updateAgent } from '../../api/agents.js';
import { UsageError } from '../../errors.js';
import { printObject } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { AGENT_FIELDS, fieldsFromFlags, type AgentFlags } from './fields.js';

export default async function agentUpdate(ctx: Context, idOrName: string, opts: AgentFlags): Promise<void> {
  const fields = await fieldsFromFlags(opts);
  if (Object.keys(fields).length === 0) {
    throw new UsageError('Nothing to update: give at least one field flag.', { hint: 'For example: voicectl agent update <agent> --greeting "Namaste!"' });
  }
  const api = await ctx.api();
  const current = await resolveAgent(api, idOrName);
  const updated = await withSpinner(ctx, 'Updating agent', () => updateAgent(api, current.id, fields));
  // Servers that answer a PATCH without the agent: show what we know it is now.
  const shown = updated ?? { ...current, ...fields };
  await printObject(ctx, shown, AGENT_FIELDS);
  if (!ctx.machineOutput) ctx.info(ctx.errColor.green(`Updated ${Object.keys(fields).join(', ')} of agent ${current.name} (${current.id}).`));
}
