/** The read tools of `voicectl mcp`: each answers what `voicectl … --json` prints for the same request. */
import { z } from './sdk.js';
import {
  annotate, asArray, asObject, cutTranscript, decodeCursor, DEFAULT_LIMIT, encodeCursor, excludeFlags, flag, id, listPage, object, page,
  paging, parseJson, pos, rowsInput, text, ToolFailure, TRANSCRIPT_CHARS, type ToolSpec,
} from './tool-spec.js';

export const READ_TOOLS: readonly ToolSpec[] = [
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
    paths: ['path'],
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
    paths: ['dir'],
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
    paths: ['csv', 'contacts', 'exclude'],
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
];
