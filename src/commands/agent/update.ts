import type { Context } from '../../context.js';
import { resolveAgent, updateAgent, type Agent } from '../../api/agents.js';
import { FailureError, UsageError } from '../../errors.js';
import { printObject } from '../../io/output.js';
import { terminalLine } from '../../text/terminal-text.js';
import { checkAgentFields } from '../../agents/validate.js';
import { withSpinner } from '../../io/progress.js';
import { AGENT_FIELDS, fieldsFromFlags } from './fields.js';
import { note } from '../../io/render.js';
import type { UpdateFlags } from './definition.js';

export default async function agentUpdate(ctx: Context, idOrName: string, opts: UpdateFlags): Promise<void> {
  const fields = await fieldsFromFlags(opts, ctx.signal);
  checkAgentFields(fields);
  const editsKb = opts.kbAdd !== undefined || opts.kbRemove !== undefined;
  if (editsKb && opts.kb !== undefined) {
    throw new UsageError('Pass --kb (the whole list) or --kb-add/--kb-remove (changes to it), not both.');
  }
  if (Object.keys(fields).length === 0 && !editsKb) {
    throw new UsageError('Nothing to update: give at least one field flag.', { hint: 'For example: voicectl agent update <agent> --greeting "Namaste!"' });
  }
  const api = await ctx.api();
  const current = await resolveAgent(api, idOrName);
  if (editsKb) {
    const kb = editedKbList(ctx, current, opts);
    if (kb) fields.kb_item_ids = kb;
    if (Object.keys(fields).length === 0) {
      await printObject(ctx, current, AGENT_FIELDS);
      ctx.info(terminalLine(`Nothing to change: agent ${current.name} (${current.id}) already has exactly those knowledge-base items.`));
      return;
    }
  }
  const updated = await withSpinner(ctx, 'Updating agent', () => updateAgent(api, current.id, fields));
  // Servers that answer a PATCH without the agent: show what we know it is now.
  const shown = updated ?? { ...current, ...fields };
  await printObject(ctx, shown, AGENT_FIELDS);
  note(ctx, ctx.errColor.green(terminalLine(`Updated ${Object.keys(fields).join(', ')} of agent ${current.name} (${current.id}).`)));
}

type KbEditFlags = Pick<UpdateFlags, 'kbAdd' | 'kbRemove'>;

/**
 * The agent's new document list from its current one: the API replaces the whole array,
 * so a change is sent as the full list. Undefined when nothing would change.
 */
function editedKbList(ctx: Context, agent: Agent, opts: KbEditFlags): string[] | undefined {
  if (agent.kb_item_ids !== undefined && !Array.isArray(agent.kb_item_ids)) {
    throw new FailureError(`The service sent agent ${agent.id}'s kb_item_ids in an unexpected form, so --kb-add/--kb-remove cannot work out the new list.`, {
      hint: 'Set the whole list with --kb ID,ID instead.',
    });
  }
  if (agent.kb_item_ids === undefined) {
    // Guessing "none" could detach every document the agent has.
    throw new FailureError(`The service did not say which knowledge-base items agent ${agent.id} has, so --kb-add/--kb-remove cannot work out the new list.`, {
      hint: 'Set the whole list with --kb ID,ID instead.',
    });
  }
  const current = agent.kb_item_ids.map(String);
  const remove = new Set(opts.kbRemove ?? []);
  const add = (opts.kbAdd ?? []).filter((id) => !remove.has(id));
  const clash = (opts.kbAdd ?? []).filter((id) => remove.has(id));
  if (clash.length > 0) throw new UsageError(`${clash.join(', ')} given to both --kb-add and --kb-remove.`);
  const absent = [...remove].filter((id) => !current.includes(id));
  if (absent.length > 0) ctx.warn(`not attached to agent ${agent.name}, nothing to remove: ${absent.join(', ')}`);
  const next = current.filter((id) => !remove.has(id));
  for (const id of add) if (!next.includes(id)) next.push(id);
  const same = next.length === current.length && next.every((id, i) => id === current[i]);
  return same ? undefined : next;
}
