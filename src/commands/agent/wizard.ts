/**
 * `agent create` at a terminal with fields missing: says which fields the flags gave,
 * then runs the wizard (src/wizard/wizard.ts), which asks for the rest.
 */
import type { Agent, AgentFields } from '../../api/agents.js';
import type { Context } from '../../context.js';
import { LABELS, STEPS, type Step } from '../../wizard/review.js';
import { runWizard } from '../../wizard/wizard.js';

const FLAG: Record<Step, string> = {
  language: '--language', voice_name: '--voice', name: '--name', greeting: '--greeting', call_purpose: '--call-purpose',
  prompt: '--prompt', tools: '--tools', kb_item_ids: '--kb', direction: '--direction',
};

export default async function agentWizard(ctx: Context, given: AgentFields): Promise<Agent> {
  // No address or no key: say so now, not after a dozen answers.
  await ctx.api();
  const c = ctx.errColor;
  const prefilled = STEPS.filter((s) => given[s] !== undefined);
  ctx.info(c.bold('Create a voice agent'));
  ctx.info(c.dim('Answer each question; you can review everything before anything is created. Ctrl-C quits at any point.'));
  if (prefilled.length > 0) ctx.info(c.dim(`From your flags: ${prefilled.map((s) => `${LABELS[s].toLowerCase()} (${FLAG[s]})`).join(', ')}.`));
  return runWizard(ctx, given);
}
