/**
 * The tools `voicectl mcp` serves, declared once: name, schemas, annotations, and the
 * command line each one runs. A read tool answers what `voicectl … --json` prints for the
 * same request; write tools exist only under --allow-write, the launch only under
 * --allow-launch, and nothing deletes.
 */
import { z } from './sdk.js';
import type { Arg, VerbOutcome } from './runner.js';

export type ToolKind = 'read' | 'write' | 'spend';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool's handler may use. */
export interface ToolDeps {
  /** Runs a command line with --json and answers its parsed output, or throws a ToolFailure with the CLI's message. */
  cli(argv: Arg[]): Promise<unknown>;
  /** The same, returning the outcome as is (contacts validate reports on exit 2 too). */
  cliOutcome(argv: Arg[]): Promise<VerbOutcome>;
  /** Writes inline rows as a CSV file that lives as long as the call; returns its path. */
  rowsFile(rows: Array<Record<string, unknown>>): Promise<string>;
  /** The launch, bound to a person's approval (src/mcp/launch.ts). */
  launch(args: LaunchArgs): Promise<ToolAnswer>;
}

export interface ToolAnswer {
  structured: Record<string, unknown>;
  /** A refusal the model should read (approval needed): an MCP tool error with the structured answer too. */
  isError?: boolean;
  text?: string;
}

export interface LaunchArgs {
  campaign_id: string;
  calling_hours?: string;
  ignore_calling_hours?: boolean;
}

export interface ToolSpec {
  name: string;
  kind: ToolKind;
  description: string;
  annotations: ToolAnnotations;
  input: z.ZodRawShape;
  /** Open objects: the service's objects carry more fields than any schema here names. */
  output: z.ZodObject;
  call(args: Record<string, unknown>, deps: ToolDeps): Promise<ToolAnswer>;
}

/** A failure in the CLI's own words (what it prints on stderr), with its exit code. */
export class ToolFailure extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Past this many characters of transcript, a call's transcript is cut and says so. */
export const TRANSCRIPT_CHARS = 20_000;

const id = (what: string) => z.string().min(1).max(200).describe(what);
const paging = {
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`items per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  cursor: z.string().max(200).optional().describe('next_cursor of the previous page; omit for the first page'),
};
const object = z.looseObject({});
const page = {
  items: z.array(object).describe('what `voicectl … --json` prints for this page'),
  next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
};
const text = (max: number) => z.string().min(1).max(max);
const rowsInput = z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))).min(1).max(10_000)
  .describe('spreadsheet rows as objects, header to cell, for example [{"phone": "+91 98123 45670", "name": "Asha"}]');

const READ: ToolAnnotations = { title: '', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const annotate = (title: string, a: Partial<ToolAnnotations> = {}): ToolAnnotations => ({ ...READ, ...a, title });
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };

/** An opaque cursor: the offset of the next page. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through to the error
  }
  throw new ToolFailure('error: the cursor is not one this server gave; start again without a cursor.', 2);
}

/** One page of a list verb that takes --limit and --offset: one more item is read, to know whether a next page exists. */
async function listPage(deps: ToolDeps, argv: Arg[], args: Record<string, unknown>): Promise<ToolAnswer> {
  const limit = (args.limit as number | undefined) ?? DEFAULT_LIMIT;
  const offset = decodeCursor(args.cursor as string | undefined);
  const all = asArray(await deps.cli([...argv, `--limit=${limit + 1}`, `--offset=${offset}`]));
  return { structured: { items: all.slice(0, limit), next_cursor: all.length > limit ? encodeCursor(offset + limit) : null } };
}

function asArray(value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value)) throw new ToolFailure('error: the command did not print a list.', 1);
  return value as Array<Record<string, unknown>>;
}

function asObject(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { items: value };
  if (value && typeof value === 'object') return value as Record<string, unknown>;
  throw new ToolFailure('error: the command did not print an object.', 1);
}

const flag = (name: string, value: unknown): string[] => {
  if (value === undefined || value === null || value === false) return [];
  if (value === true) return [`--${name}`];
  if (Array.isArray(value)) return value.length ? [`--${name}=${value.join(',')}`] : [];
  return [`--${name}=${String(value)}`];
};
const pos = (value: unknown): Arg => ({ positional: String(value) });

/** A call's transcript, cut past a size with a note that says how to read the rest. */
export function cutTranscript(call: Record<string, unknown>, max = TRANSCRIPT_CHARS): Record<string, unknown> {
  const t = call.transcript;
  if (t === undefined || t === null) return call;
  const size = (typeof t === 'string' ? t : JSON.stringify(t)).length;
  if (size <= max) return call;
  const how = `voicectl call get ${String(call.call_id ?? call.id ?? '<call_id>')} --json`;
  if (typeof t === 'string') {
    return { ...call, transcript: t.slice(0, max), transcript_note: `Transcript cut at ${max} of ${size} characters; the whole transcript: ${how}.` };
  }
  if (Array.isArray(t)) {
    const kept: unknown[] = [];
    let used = 2;
    for (const turn of t) {
      const n = JSON.stringify(turn).length + 1;
      if (used + n > max) break;
      kept.push(turn);
      used += n;
    }
    return { ...call, transcript: kept, transcript_note: `Transcript cut at ${kept.length} of ${t.length} turns (${max} characters); the whole transcript: ${how}.` };
  }
  return { ...call, transcript: null, transcript_note: `Transcript left out: ${size} characters, over ${max}; read it with ${how}.` };
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'agent_list',
    kind: 'read',
    description: 'List the account\'s voice agents, a page at a time (as `voicectl agent list --json`).',
    annotations: annotate('List agents'),
    input: { ...paging },
    output: z.looseObject(page),
    call: (args, deps) => listPage(deps, ['agent', 'list'], args),
  },
  {
    name: 'agent_get',
    kind: 'read',
    description: 'One agent by id or exact name (as `voicectl agent get --json`).',
    annotations: annotate('Get an agent'),
    input: { agent: id('agent id or exact name') },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['agent', 'get', pos(args.agent)])) }),
  },
  {
    name: 'voice_list',
    kind: 'read',
    description: 'The voices agents can speak with, optionally for one language (as `voicectl voice list --json`).',
    annotations: annotate('List voices'),
    input: { language: z.string().min(1).max(35).optional().describe('locale tag, for example hi-IN'), ...paging },
    output: z.looseObject(page),
    call: async (args, deps) => {
      const limit = (args.limit as number | undefined) ?? DEFAULT_LIMIT;
      const offset = decodeCursor(args.cursor as string | undefined);
      const all = asArray(await deps.cli(['voice', 'list', ...flag('language', args.language)]));
      return { structured: { items: all.slice(offset, offset + limit), next_cursor: all.length > offset + limit ? encodeCursor(offset + limit) : null } };
    },
  },
  {
    name: 'campaign_list',
    kind: 'read',
    description: 'List campaigns, optionally by status, a page at a time (as `voicectl campaign list --json`). Counts by contact status are in campaign_get.',
    annotations: annotate('List campaigns'),
    input: { status: z.enum(['draft', 'running', 'completed']).optional(), ...paging },
    output: z.looseObject(page),
    call: (args, deps) => listPage(deps, ['campaign', 'list', ...flag('status', args.status)], args),
  },
  {
    name: 'campaign_get',
    kind: 'read',
    description: 'One campaign with its status and contacts_by_status, the count of contacts in each status (as `voicectl campaign get --json`).',
    annotations: annotate('Get a campaign'),
    input: { campaign_id: id('campaign id') },
    output: z.looseObject({ contacts_by_status: z.record(z.string(), z.number()).optional() }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['campaign', 'get', pos(args.campaign_id)])) }),
  },
  {
    name: 'call_list',
    kind: 'read',
    description: 'List calls with the filters of `voicectl call list` (campaign, start time, status), a page at a time; no transcripts (call_get has them).',
    annotations: annotate('List calls'),
    input: {
      campaign_id: id('only calls of this campaign').optional(),
      since: z.string().min(1).max(64).optional().describe('calls that started at or after this time: ISO 8601, or a span back from now such as 24h or 7d'),
      until: z.string().min(1).max(64).optional().describe('calls that started before this time'),
      status: z.string().min(1).max(40).optional().describe('only calls with this status, for example completed'),
      ...paging,
    },
    output: z.looseObject(page),
    call: (args, deps) => listPage(deps, ['call', 'list', ...flag('campaign', args.campaign_id), ...flag('since', args.since), ...flag('until', args.until), ...flag('status', args.status)], args),
  },
  {
    name: 'call_get',
    kind: 'read',
    description: `One call with its transcript (as \`voicectl call get --json\`). A transcript over ${TRANSCRIPT_CHARS.toLocaleString('en-US')} characters is cut, and transcript_note says so.`,
    annotations: annotate('Get a call with its transcript'),
    input: { call_id: id('call id') },
    output: z.looseObject({ transcript_note: z.string().optional() }),
    call: async (args, deps) => ({ structured: cutTranscript(asObject(await deps.cli(['call', 'get', pos(args.call_id)]))) }),
  },
  {
    name: 'campaign_report',
    kind: 'read',
    description: 'The report of one or more campaigns as JSON: reach, outcomes, durations, by hour (as `voicectl campaign report --format json`). As markdown: the resource voicectl://campaigns/ID/report.',
    annotations: annotate('Campaign report'),
    input: { campaign_ids: z.array(id('campaign id')).min(1).max(20) },
    output: z.looseObject({ generated_at: z.string(), campaigns: z.array(object) }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['campaign', 'report', '--format=json', ...(args.campaign_ids as string[]).map(pos)])) }),
  },
  {
    name: 'contacts_validate',
    kind: 'read',
    description: 'Check a contacts spreadsheet (a CSV or .xlsx path on this machine) or inline rows before a campaign: counts, duplicates and each bad row with the reason (as `voicectl contacts validate --json`).',
    annotations: annotate('Validate contacts'),
    input: {
      path: z.string().min(1).max(4096).optional().describe('CSV or .xlsx file, relative to the folder the server runs in'),
      rows: rowsInput.optional(),
      default_country: z.string().regex(/^[A-Za-z]{2}$/).optional().describe('country for numbers written without +, e.g. IN'),
      phone_column: z.string().min(1).max(200).optional(),
      name_column: z.string().min(1).max(200).optional(),
      keep_duplicates: z.boolean().optional(),
    },
    output: z.looseObject({ total_rows: z.number(), valid: z.number(), invalid: z.number(), duplicates: z.number(), errors: z.array(object) }),
    call: async (args, deps) => {
      if ((args.path === undefined) === (args.rows === undefined)) throw new ToolFailure('error: give either path or rows.', 2);
      const file = args.path !== undefined ? String(args.path) : await deps.rowsFile(args.rows as Array<Record<string, unknown>>);
      const o = await deps.cliOutcome(['contacts', 'validate', ...flag('default-country', args.default_country), ...flag('phone-column', args.phone_column),
        ...flag('name-column', args.name_column), ...flag('keep-duplicates', args.keep_duplicates), pos(file)]);
      // Exit 2 with a report means "some rows are invalid": the report is the answer.
      const report = parseJson(o.stdout);
      if (report && typeof report === 'object' && 'total_rows' in report) return { structured: report as Record<string, unknown> };
      throw new ToolFailure(o.stderr.trim() || `error: contacts validate exited ${o.code}.`, o.code);
    },
  },
  {
    name: 'plan',
    kind: 'read',
    description: 'What `voicectl apply` would change in the account to match a folder with voicectl.yaml (as `voicectl plan --json`). Only list requests are made.',
    annotations: annotate('Plan an account folder'),
    input: {
      dir: z.string().min(1).max(4096).optional().describe('folder with voicectl.yaml, relative to the folder the server runs in (default .)'),
      prune: z.boolean().optional().describe('also show what would be deleted'),
    },
    output: z.looseObject({ changes_pending: z.number(), steps: z.array(object) }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(['plan', ...flag('prune', args.prune), pos(args.dir ?? '.')])) }),
  },
  {
    name: 'campaign_run_forecast',
    kind: 'read',
    description: 'The forecast and wave plan of a `voicectl campaign run` (as `voicectl campaign run --dry-run --json`): contacts per time zone after exclusions, when each window opens, what the agent\'s recent calls predict, the waves and the expected finish. Only reads are sent; nothing is created, launched or written.',
    annotations: annotate('Forecast a campaign run'),
    input: {
      name: text(200).describe('the run\'s name'),
      agent: id('agent id or exact name'),
      csv: z.string().min(1).max(4096).optional().describe('CSV or .xlsx path, relative to the folder the server runs in'),
      contacts: z.string().min(1).max(4096).optional().describe('JSON file of [{phone_number, name, extra}]'),
      rows: rowsInput.optional(),
      from_campaign: id('the contacts of this draft campaign').optional(),
      default_country: z.string().regex(/^[A-Za-z]{2}$/).optional(),
      calling_hours: z.array(z.string().min(1).max(40)).max(50).optional().describe('local-time windows: 09:00-21:00 for all, US=08:00-21:00 for one country'),
      wave_size: z.number().int().min(1).max(10_000).optional(),
      daily_cap: z.number().int().min(1).optional(),
      attempts: z.number().int().min(1).max(100).optional().describe('dial attempts per contact, the first included'),
      retry_after: z.string().min(1).max(20).optional().describe('wait before another attempt, e.g. 2h'),
      retry_on: z.array(z.string().min(1).max(40)).max(10).optional().describe('statuses that earn another attempt'),
      deadline: z.string().min(1).max(64).optional().describe('release no wave after this: ISO time or a span from now such as 36h'),
      exclude: z.array(z.string().min(1).max(4096)).max(20).optional().describe('files of numbers to leave out'),
      exclude_called_within: z.string().min(1).max(20).optional().describe('leave out numbers called within this span, e.g. 7d'),
    },
    output: z.looseObject({ name: z.string(), agent_id: z.string(), policy: object, forecast: z.looseObject({ contacts: z.number(), waves: z.array(object) }) }),
    call: async (args, deps) => {
      const sources = ['csv', 'contacts', 'rows', 'from_campaign'].filter((k) => args[k] !== undefined);
      if (sources.length !== 1) throw new ToolFailure('error: give exactly one of csv, contacts, rows or from_campaign.', 2);
      const csv = args.rows !== undefined ? await deps.rowsFile(args.rows as Array<Record<string, unknown>>) : args.csv;
      // --dry-run writes no journal (prepareRun only names its path), so none is passed.
      return { structured: asObject(await deps.cli(['campaign', 'run', '--dry-run', ...flag('name', args.name), ...flag('agent', args.agent), ...flag('csv', csv),
        ...flag('contacts', args.contacts), ...flag('from-campaign', args.from_campaign), ...flag('default-country', args.default_country),
        ...((args.calling_hours as string[] | undefined) ?? []).map((w) => `--calling-hours=${w}`), ...flag('wave-size', args.wave_size),
        ...flag('daily-cap', args.daily_cap), ...flag('attempts', args.attempts), ...flag('retry-after', args.retry_after), ...flag('retry-on', args.retry_on),
        ...flag('deadline', args.deadline), ...excludeFlags(args)])) };
    },
  },
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

function agentFlags(args: Record<string, unknown>): string[] {
  return [...flag('name', args.name), ...flag('voice', args.voice), ...flag('language', args.language), ...flag('greeting', args.greeting),
    ...flag('call-purpose', args.call_purpose), ...flag('prompt', args.prompt), ...flag('tools', args.tools), ...flag('kb', args.kb)];
}

function excludeFlags(args: Record<string, unknown>): string[] {
  return [...((args.exclude as string[] | undefined) ?? []).map((f) => `--exclude=${f}`), ...flag('exclude-called-within', args.exclude_called_within)];
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The tools a server started with these flags offers. */
export function toolsFor(options: { allowWrite?: boolean; allowLaunch?: boolean }): ToolSpec[] {
  return TOOLS.filter((t) => t.kind === 'read' || (t.kind === 'write' && options.allowWrite) || (t.kind === 'spend' && options.allowLaunch));
}
