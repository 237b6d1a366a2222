/**
 * The tools of `voicectl mcp` that change the account: the write tools (only under
 * --allow-write) and the launch, which spends (only under --allow-launch, and then only
 * with a person's approval). None of them deletes.
 */
import { z } from './sdk.js';
import {
  annotate, argument, asObject, id, object, option, pathText, rowsInput, text, ToolFailure, WRITE, type LaunchArgs, type Param, type ToolSpec,
} from './tool-spec.js';

/** The properties that set an agent's fields, shared by agent_create and agent_update. */
function agentFields(required: boolean): Record<string, Param> {
  const must = required ? { required: true } : {};
  return {
    name: option('name', text(200), must),
    voice: option('voice', text(200), must),
    language: option('language', z.string().min(1).max(35)),
    greeting: option('greeting', text(2000), must),
    call_purpose: option('call-purpose', text(2000), must),
    prompt: option('prompt', text(20_000), must),
    tools: option('tools', z.array(z.string().min(1).max(60)).max(10)),
    kb: option('kb', z.array(id()).max(100)),
  };
}

const exclusions = {
  exclude: option('exclude', z.array(pathText()).max(20)),
  exclude_called_within: option('exclude-called-within', z.string().min(1).max(20)),
};

export const WRITE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'agent_create',
    verb: 'agent create',
    kind: 'write',
    description: 'Create a voice agent (as `voicectl agent create --json`). The service may answer a plan limit (exit 5).',
    annotations: annotate('Create an agent', WRITE),
    input: agentFields(true),
    output: z.looseObject({ id: z.string() }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(deps.argv(args))) }),
  },
  {
    name: 'agent_update',
    verb: 'agent update',
    kind: 'write',
    description: 'Change some fields of an agent; only the fields given are sent (as `voicectl agent update --json`). Applies from the agent\'s next call.',
    annotations: annotate('Update an agent', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }),
    input: {
      agent: argument('agent', id()),
      ...agentFields(false),
      status: option('status', z.string().min(1).max(40)),
    },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(deps.argv(args))) }),
  },
  {
    name: 'campaign_create',
    verb: 'campaign create',
    kind: 'write',
    description: 'Create a campaign as a draft (nothing is dialed) from a spreadsheet path, a contacts JSON path or inline rows (as `voicectl campaign create --json`). Invalid rows stop it unless skip_invalid.',
    annotations: annotate('Create a draft campaign', WRITE),
    paths: ['csv', 'contacts', 'exclude'],
    input: {
      name: option('name', text(200)),
      agent: option('agent', id()),
      csv: option('csv', pathText()),
      contacts: option('contacts', pathText()),
      rows: rowsInput,
      default_country: option('default-country', z.string().regex(/^[A-Za-z]{2}$/)),
      campaign_prompt: option('campaign-prompt', text(20_000)),
      kb: option('kb', z.array(id()).max(100)),
      skip_invalid: option('skip-invalid'),
      keep_duplicates: option('keep-duplicates'),
      ...exclusions,
    },
    output: z.looseObject({}),
    call: async (args, deps) => {
      const sources = ['csv', 'contacts', 'rows'].filter((k) => args[k] !== undefined);
      if (sources.length !== 1) throw new ToolFailure('error: give exactly one of csv, contacts or rows.', 2);
      const csv = args.rows !== undefined ? await deps.rowsFile(args.rows as Array<Record<string, unknown>>) : args.csv;
      return { structured: asObject(await deps.cli(deps.argv({ ...args, csv }))) };
    },
  },
  {
    name: 'campaign_redial',
    verb: 'campaign redial',
    kind: 'write',
    description: 'Create a draft campaign that calls again the contacts of a campaign that did not answer or failed (as `voicectl campaign redial --json`). Nothing is dialed. With at_requested_time, nothing is created either: it answers the plan of the campaign run that calls each callback back at the time the customer asked for (the waves, their contacts, the callbacks without a readable time) and the command a person runs to start it, since a run lasts longer than a tool call.',
    annotations: annotate('Create a redial draft', WRITE),
    paths: ['exclude'],
    input: {
      campaign_id: argument('id', id()),
      status: option('status', z.array(z.string().min(1).max(40)).max(10)),
      outcome: option('outcome', z.array(z.string().min(1).max(60)).max(20)),
      exclude_outcome: option('exclude-outcome', z.array(z.string().min(1).max(60)).max(20)),
      name: option('name', text(200)),
      agent: option('agent', id()),
      ...exclusions,
      default_country: option('default-country', z.string().regex(/^[A-Za-z]{2}$/)),
      at_requested_time: option('at-requested-time'),
      wave_size: option('wave-size', z.number().int().min(1).max(10_000)),
      calling_hours: option('calling-hours', z.string().min(1).max(40)),
    },
    output: z.looseObject({}),
    call: async (args, deps) => {
      // The run's planner and the follow-up reader load only for this call.
      if (args.at_requested_time === true) return (await import('./redial-plan.js')).redialPlan(args, deps);
      for (const k of ['wave_size', 'calling_hours'] as const) {
        if (args[k] !== undefined) throw new ToolFailure(`error: ${k} goes with at_requested_time.`, 2);
      }
      return { structured: asObject(await deps.cli(deps.argv(args))) };
    },
  },
  {
    name: 'kb_upload',
    verb: 'kb upload',
    kind: 'write',
    description: 'Upload files or folders (recursively) to the knowledge base (as `voicectl kb upload --json`).',
    annotations: annotate('Upload to the knowledge base', WRITE),
    paths: ['paths'],
    input: {
      paths: argument('path', z.array(pathText()).min(1).max(100)),
      folder: option('folder', z.string().min(1).max(1000)),
    },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(deps.argv(args))) }),
  },
  {
    name: 'campaign_launch',
    verb: 'campaign launch',
    kind: 'spend',
    description: 'Launch a draft campaign: real calls that use the account balance. Without a person\'s approval it launches nothing and answers the launch plan and its hash; a person approves that exact plan with `voicectl approve HASH` at a terminal, then the same call launches, once.',
    annotations: annotate('Launch a campaign (needs a person\'s approval)', { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }),
    input: {
      campaign_id: argument('id', id()),
      calling_hours: option('calling-hours', z.string().min(1).max(40)),
      ignore_calling_hours: option('ignore-calling-hours'),
    },
    output: z.looseObject({
      outcome: z.enum(['approval_required', 'launched']),
      plan_hash: z.string(),
      plan: object.optional(),
      campaign: object.optional(),
    }),
    call: (args, deps) => deps.launch(args as unknown as LaunchArgs),
  },
];
