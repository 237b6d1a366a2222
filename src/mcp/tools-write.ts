/**
 * The tools of `voicectl mcp` that change the account: the write tools (only under
 * --allow-write) and the launch, which spends (only under --allow-launch, and then only
 * with a person's approval). None of them deletes.
 */
import { z } from './sdk.js';
import {
  agentFlags, annotate, asObject, excludeFlags, flag, id, object, pos, rowsInput, text, ToolFailure, WRITE, type LaunchArgs, type ToolSpec,
} from './tool-spec.js';

export const WRITE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'agent_create',
    kind: 'write',
    description: 'Create a voice agent (as `voicectl agent create --json`). The service may answer a plan limit (exit 5).',
    annotations: annotate('Create an agent', WRITE),
    input: {
      name: text(200),
      voice: text(200).describe('voice_name from voice_list'),
      language: z.string().min(1).max(35).optional(),
      greeting: text(2000),
      call_purpose: text(2000),
      prompt: text(20_000),
      tools: z.array(z.enum(['schedule_callback', 'take_message', 'summarize_call'])).max(10).optional(),
      kb: z.array(id('knowledge-base item id')).max(100).optional(),
    },
    output: z.looseObject({ id: z.string() }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['agent', 'create', ...agentFlags(args)])) }),
  },
  {
    name: 'agent_update',
    kind: 'write',
    description: 'Change some fields of an agent; only the fields given are sent (as `voicectl agent update --json`). Applies from the agent\'s next call.',
    annotations: annotate('Update an agent', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }),
    input: {
      agent: id('agent id or exact name'),
      name: text(200).optional(),
      voice: text(200).optional(),
      language: z.string().min(1).max(35).optional(),
      greeting: text(2000).optional(),
      call_purpose: text(2000).optional(),
      prompt: text(20_000).optional(),
      tools: z.array(z.enum(['schedule_callback', 'take_message', 'summarize_call'])).max(10).optional(),
      kb: z.array(id('knowledge-base item id')).max(100).optional().describe('replaces the attached items'),
      status: z.string().min(1).max(40).optional(),
    },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['agent', 'update', ...agentFlags(args), ...flag('status', args.status), pos(args.agent)])) }),
  },
  {
    name: 'campaign_create',
    kind: 'write',
    description: 'Create a campaign as a draft (nothing is dialed) from a spreadsheet path, a contacts JSON path or inline rows (as `voicectl campaign create --json`). Invalid rows stop it unless skip_invalid.',
    annotations: annotate('Create a draft campaign', WRITE),
    paths: ['csv', 'contacts', 'exclude'],
    input: {
      name: text(200),
      agent: id('agent id or exact name'),
      csv: z.string().min(1).max(4096).optional().describe('CSV or .xlsx path'),
      contacts: z.string().min(1).max(4096).optional().describe('JSON file of [{phone_number, name, extra}]'),
      rows: rowsInput.optional(),
      default_country: z.string().regex(/^[A-Za-z]{2}$/).optional(),
      campaign_prompt: text(20_000).optional(),
      kb: z.array(id('knowledge-base item id')).max(100).optional(),
      skip_invalid: z.boolean().optional(),
      keep_duplicates: z.boolean().optional(),
      exclude: z.array(z.string().min(1).max(4096)).max(20).optional().describe('files of numbers to leave out'),
      exclude_called_within: z.string().min(1).max(20).optional().describe('leave out numbers called within this span, e.g. 7d'),
    },
    output: z.looseObject({}),
    call: async (args, deps) => {
      const sources = ['csv', 'contacts', 'rows'].filter((k) => args[k] !== undefined);
      if (sources.length !== 1) throw new ToolFailure('error: give exactly one of csv, contacts or rows.', 2);
      const csv = args.rows !== undefined ? await deps.rowsFile(args.rows as Array<Record<string, unknown>>) : args.csv;
      return { structured: asObject(await deps.cli(['campaign', 'create', ...flag('name', args.name), ...flag('agent', args.agent), ...flag('csv', csv),
        ...flag('contacts', args.contacts), ...flag('default-country', args.default_country), ...flag('campaign-prompt', args.campaign_prompt), ...flag('kb', args.kb),
        ...flag('skip-invalid', args.skip_invalid), ...flag('keep-duplicates', args.keep_duplicates), ...excludeFlags(args)])) };
    },
  },
  {
    name: 'campaign_redial',
    kind: 'write',
    description: 'Create a draft campaign that calls again the contacts of a campaign that did not answer or failed (as `voicectl campaign redial --json`). Nothing is dialed.',
    annotations: annotate('Create a redial draft', WRITE),
    paths: ['exclude'],
    input: {
      campaign_id: id('the campaign to call again'),
      status: z.array(z.string().min(1).max(40)).max(10).optional().describe('contact statuses to call again (default no_answer, failed)'),
      outcome: z.array(z.string().min(1).max(60)).max(20).optional(),
      exclude_outcome: z.array(z.string().min(1).max(60)).max(20).optional().describe('default do_not_call'),
      name: text(200).optional(),
      agent: id('agent id or exact name (default: the original campaign\'s)').optional(),
      exclude: z.array(z.string().min(1).max(4096)).max(20).optional(),
      exclude_called_within: z.string().min(1).max(20).optional(),
    },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['campaign', 'redial', ...flag('status', args.status), ...flag('outcome', args.outcome),
      ...flag('exclude-outcome', args.exclude_outcome), ...flag('name', args.name), ...flag('agent', args.agent), ...excludeFlags(args), pos(args.campaign_id)])) }),
  },
  {
    name: 'kb_upload',
    kind: 'write',
    description: 'Upload files or folders (recursively) to the knowledge base (as `voicectl kb upload --json`).',
    annotations: annotate('Upload to the knowledge base', WRITE),
    paths: ['paths'],
    input: {
      paths: z.array(z.string().min(1).max(4096)).min(1).max(100).describe('files or folders on this machine'),
      folder: z.string().min(1).max(1000).optional().describe('knowledge-base folder to upload into'),
    },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['kb', 'upload', ...flag('folder', args.folder), ...(args.paths as string[]).map(pos)])) }),
  },
  {
    name: 'campaign_launch',
    kind: 'spend',
    description: 'Launch a draft campaign: real calls that use the account balance. Without a person\'s approval it launches nothing and answers the launch plan and its hash; a person approves that exact plan with `voicectl approve HASH` at a terminal, then the same call launches, once.',
    annotations: annotate('Launch a campaign (needs a person\'s approval)', { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }),
    input: {
      campaign_id: id('draft campaign id'),
      calling_hours: z.string().min(1).max(40).optional().describe('local-time window, e.g. 10:00-19:00'),
      ignore_calling_hours: z.boolean().optional(),
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
