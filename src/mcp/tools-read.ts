/** The read tools of `voicectl mcp`: each answers what `voicectl … --json` prints for the same request. */
import { z } from './sdk.js';
import {
  annotate, argument, asArray, asObject, cutTranscript, decodeCursor, DEFAULT_LIMIT, encodeCursor, id, listPage, object, option, page,
  paging, parseJson, pathText, rowsInput, text, ToolFailure, TRANSCRIPT_CHARS, type ToolSpec,
} from './tool-spec.js';
import { grouped } from '../text/text.js';

export const READ_TOOLS: readonly ToolSpec[] = [
  {
    name: 'agent_list',
    verb: 'agent list',
    kind: 'read',
    description: 'List the account\'s voice agents, a page at a time (as `voicectl agent list --json`).',
    annotations: annotate('List agents'),
    input: { ...paging },
    output: z.looseObject(page),
    call: (args, deps) => listPage(deps, deps.argv(args), args),
  },
  {
    name: 'agent_get',
    verb: 'agent get',
    kind: 'read',
    description: 'One agent by id or exact name (as `voicectl agent get --json`).',
    annotations: annotate('Get an agent'),
    input: { agent: argument('agent', id()) },
    output: z.looseObject({}),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(deps.argv(args))) }),
  },
  {
    name: 'voice_list',
    verb: 'voice list',
    kind: 'read',
    description: 'The voices agents can speak with, optionally for one language (as `voicectl voice list --json`).',
    annotations: annotate('List voices'),
    input: { language: option('language', z.string().min(1).max(35)), ...paging },
    output: z.looseObject(page),
    call: async (args, deps) => {
      const limit = (args.limit as number | undefined) ?? DEFAULT_LIMIT;
      const offset = decodeCursor(args.cursor as string | undefined);
      // The verb lists every voice at once: the tool pages it.
      const all = asArray(await deps.cli(deps.argv(args)));
      return { structured: { items: all.slice(offset, offset + limit), next_cursor: all.length > offset + limit ? encodeCursor(offset + limit) : null } };
    },
  },
  {
    name: 'campaign_list',
    verb: 'campaign list',
    kind: 'read',
    description: 'List campaigns, optionally by status, a page at a time (as `voicectl campaign list --json`). Counts by contact status are in campaign_get.',
    annotations: annotate('List campaigns'),
    input: { status: option('status', z.string().min(1).max(40)), ...paging },
    output: z.looseObject(page),
    call: (args, deps) => listPage(deps, deps.argv(args), args),
  },
  {
    name: 'campaign_get',
    verb: 'campaign get',
    kind: 'read',
    description: 'One campaign with its status and contacts_by_status, the count of contacts in each status (as `voicectl campaign get --json`).',
    annotations: annotate('Get a campaign'),
    input: { campaign_id: argument('id', id()) },
    output: z.looseObject({ contacts_by_status: z.record(z.string(), z.number()).optional() }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(deps.argv(args))) }),
  },
  {
    name: 'call_list',
    verb: 'call list',
    kind: 'read',
    description: 'List calls with the filters of `voicectl call list` (campaign, start time, status), a page at a time; no transcripts (call_get has them).',
    annotations: annotate('List calls'),
    input: {
      campaign_id: option('campaign', id(), { kept: true }),
      since: option('since', z.string().min(1).max(64)),
      until: option('until', z.string().min(1).max(64)),
      status: option('status', z.string().min(1).max(40)),
      ...paging,
    },
    output: z.looseObject(page),
    call: (args, deps) => listPage(deps, deps.argv(args), args),
  },
  {
    name: 'call_get',
    verb: 'call get',
    kind: 'read',
    description: `One call with its transcript (as \`voicectl call get --json\`). A transcript over ${grouped(TRANSCRIPT_CHARS)} characters is cut, and transcript_note says so.`,
    annotations: annotate('Get a call with its transcript'),
    input: { call_id: argument('call_id', id()) },
    output: z.looseObject({ transcript_note: z.string().optional() }),
    call: async (args, deps) => ({ structured: cutTranscript(asObject(await deps.cli(deps.argv(args)))) }),
  },
  {
    name: 'campaign_report',
    verb: 'campaign report',
    kind: 'read',
    description: 'The report of one or more campaigns as JSON: reach, outcomes, durations, by hour (as `voicectl campaign report --format json`). As markdown: the resource voicectl://campaigns/ID/report.',
    annotations: annotate('Campaign report'),
    input: { campaign_ids: argument('ids', z.array(id()).min(1).max(20), { required: true }) },
    output: z.looseObject({ generated_at: z.string(), campaigns: z.array(object) }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli([...deps.argv(args), '--format=json'])) }),
  },
  {
    name: 'contacts_validate',
    verb: 'contacts validate',
    kind: 'read',
    description: 'Check a contacts spreadsheet (a CSV or .xlsx path on this machine) or inline rows before a campaign: counts, duplicates and each bad row with the reason (as `voicectl contacts validate --json`).',
    annotations: annotate('Validate contacts'),
    paths: ['path'],
    input: {
      // Not required: inline rows may stand for the file.
      path: argument('file', pathText(), { kept: true, required: false }),
      rows: rowsInput,
      default_country: option('default-country', z.string().regex(/^[A-Za-z]{2}$/)),
      phone_column: option('phone-column', z.string().min(1).max(200)),
      name_column: option('name-column', z.string().min(1).max(200)),
      keep_duplicates: option('keep-duplicates'),
    },
    output: z.looseObject({ total_rows: z.number(), valid: z.number(), invalid: z.number(), duplicates: z.number(), errors: z.array(object) }),
    call: async (args, deps) => {
      if ((args.path === undefined) === (args.rows === undefined)) throw new ToolFailure('error: give either path or rows.', 2);
      const file = args.path !== undefined ? String(args.path) : await deps.rowsFile(args.rows as Array<Record<string, unknown>>);
      const o = await deps.cliOutcome(deps.argv({ ...args, path: file }));
      // Exit 2 with a report means "some rows are invalid": the report is the answer.
      const report = parseJson(o.stdout);
      if (report && typeof report === 'object' && 'total_rows' in report) return { structured: report as Record<string, unknown> };
      throw new ToolFailure(o.stderr.trim() || `error: contacts validate exited ${o.code}.`, o.code);
    },
  },
  {
    name: 'plan',
    verb: 'plan',
    kind: 'read',
    description: 'What `voicectl apply` would change in the account to match a folder with voicectl.yaml (as `voicectl plan --json`). Only list requests are made.',
    annotations: annotate('Plan an account folder'),
    paths: ['dir'],
    input: {
      dir: argument('dir', pathText()),
      prune: option('prune'),
    },
    output: z.looseObject({ changes_pending: z.number(), steps: z.array(object) }),
    call: async (args, deps) => ({ structured: asObject(await deps.cli(deps.argv({ ...args, dir: args.dir ?? '.' }))) }),
  },
  {
    name: 'campaign_run_forecast',
    verb: 'campaign run',
    kind: 'read',
    description: 'The forecast and wave plan of a `voicectl campaign run` (as `voicectl campaign run --dry-run --json`): contacts per time zone after exclusions, when each window opens, what the agent\'s recent calls predict, the waves and the expected finish; with a rate card, the cost range of the first attempts (forecast.cost; a country without a rate is listed under unpriced, never counted as 0). Only reads are sent; nothing is created, launched or written.',
    annotations: annotate('Forecast a campaign run'),
    paths: ['csv', 'contacts', 'exclude', 'rate_card'],
    input: {
      name: option('name', text(200), { required: true }),
      agent: option('agent', id(), { required: true }),
      csv: option('csv', pathText()),
      contacts: option('contacts', pathText()),
      rows: rowsInput,
      from_campaign: option('from-campaign', id()),
      default_country: option('default-country', z.string().regex(/^[A-Za-z]{2}$/)),
      calling_hours: option('calling-hours', z.array(z.string().min(1).max(40)).max(50)),
      wave_size: option('wave-size', z.number().int().min(1).max(10_000)),
      daily_cap: option('daily-cap', z.number().int().min(1)),
      attempts: option('attempts', z.number().int().min(1).max(100)),
      retry_after: option('retry-after', z.string().min(1).max(20)),
      retry_on: option('retry-on', z.array(z.string().min(1).max(40)).max(10)),
      deadline: option('deadline', z.string().min(1).max(64)),
      exclude: option('exclude', z.array(pathText()).max(20)),
      exclude_called_within: option('exclude-called-within', z.string().min(1).max(20)),
      rate_card: option('rate-card', pathText()),
    },
    output: z.looseObject({ name: z.string(), agent_id: z.string(), policy: object, forecast: z.looseObject({ contacts: z.number(), waves: z.array(object) }) }),
    call: async (args, deps) => {
      const sources = ['csv', 'contacts', 'rows', 'from_campaign'].filter((k) => args[k] !== undefined);
      if (sources.length !== 1) throw new ToolFailure('error: give exactly one of csv, contacts, rows or from_campaign.', 2);
      const csv = args.rows !== undefined ? await deps.rowsFile(args.rows as Array<Record<string, unknown>>) : args.csv;
      // --dry-run writes no journal (prepareRun only names its path), so none is passed.
      return { structured: asObject(await deps.cli([...deps.argv({ ...args, csv }), '--dry-run'])) };
    },
  },
];
