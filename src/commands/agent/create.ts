import type { Context } from '../../context.js';
import { createAgent, type Agent, type AgentFields } from '../../api/agents.js';
import { UsageError } from '../../errors.js';
import { checkAgentFields } from '../../agents/validate.js';
import { printObject } from '../../io/output.js';
import { terminalLine } from '../../text/terminal-text.js';
import { withSpinner } from '../../io/progress.js';
import { AGENT_FIELDS, FLAG_FOR_FIELD, fieldsFromFile, fieldsFromFlags } from './fields.js';
import { note } from '../../io/render.js';
import type { CreateFlags } from './definition.js';

export const REQUIRED_FIELDS = ['name', 'voice_name', 'greeting', 'call_purpose', 'prompt'] as const;

export default async function agentCreate(ctx: Context, opts: CreateFlags): Promise<void> {
  const fromFile = opts.file
    ? await fieldsFromFile(opts.file, ctx.io.stdin, (names) => ctx.info(ctx.errColor.dim(`Left out of ${opts.file === '-' ? 'the input' : opts.file}: ${names.join(', ')} (the service sets ${names.length === 1 ? 'it' : 'them'}).`)), ctx.signal)
    : {};
  // The file's types are checked before anything else: a wrong one is the file's mistake, not the server's.
  if (opts.file) checkAgentFields(fromFile, opts.file);
  const fields: AgentFields = { ...fromFile, ...(await fieldsFromFlags(opts, ctx.signal)) };
  checkAgentFields(fields);
  const missing = REQUIRED_FIELDS.filter((k) => fields[k] === undefined || fields[k] === '');
  if (missing.length > 0 && ctx.io.canPrompt()) {
    // The wizard and inquirer load only when a person is there to answer.
    const { default: wizard } = await import('./wizard.js');
    return printCreated(ctx, await wizard(ctx, fields));
  }
  if (missing.length > 0) {
    throw new UsageError(`Missing ${missing.map((k) => FLAG_FOR_FIELD[k]).join(', ')}.`, {
      hint: 'Give every field as a flag, or put them in a JSON file and pass --file agent.json.',
    });
  }
  fields.tools ??= [];
  const api = await ctx.api();
  const agent = await withSpinner(ctx, 'Creating agent', () => createAgent(api, fields));
  await printCreated(ctx, agent);
}

async function printCreated(ctx: Context, agent: Agent): Promise<void> {
  await printObject(ctx, agent, AGENT_FIELDS);
  note(ctx, ctx.errColor.green(terminalLine(`Created agent ${agent.name ?? ''} (${agent.id}).`)));
  note(ctx, ctx.errColor.dim(`Next: voicectl campaign create --agent ${agent.id} --name "…" --csv leads.csv`));
}
