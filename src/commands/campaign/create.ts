import type { Context } from '../../context.js';
import { resolveAgent } from '../../api/agents.js';
import type { CampaignDraft } from '../../api/campaigns.js';
import { applyRules, buildRules, summarizeExclusions, type Excluded } from '../../campaigns/exclusions.js';
import { checkHoursFlags, gateCallingHours } from '../../campaigns/hours-gate.js';
import { assertCampaignSize, MAX_CONTACTS_PER_CAMPAIGN, partName, splitContacts } from '../../contacts/report.js';
import { UsageError } from '../../errors.js';
import { printList, printObject, type Column } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { createAll, launchAll, shellQuote, type Created, type Part } from '../../campaigns/create-run.js';
import { printDryRun } from './dry-run.js';
import { readContactsInput, toWire, type ContactsInput } from '../../campaigns/input.js';
import { confirmLaunch } from '../../campaigns/launch-flow.js';
import { plural } from '../../io/text.js';
import { printDuplicates, printProblems, printSkipped, summaryLine } from '../../campaigns/problems.js';
import { render } from '../../io/render.js';
import type { CreateFlags } from './definition.js';


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function campaignCreate(ctx: Context, flags: CreateFlags): Promise<void> {
  const name = flags.name.trim();
  if (name === '') throw new UsageError('--name is empty: give the campaign a name.');
  if (flags.splitFrom !== undefined && !flags.split) throw new UsageError('--split-from goes with --split.');
  const defaultCountry = flags.defaultCountry ?? ctx.settings().defaultCountry;
  // The launch's flags are checked with or without --dry-run: a dry run that passes promises a launch that would.
  if (flags.launch) checkHoursFlags(ctx, flags);

  // Everything local first: a bad file is exit 2 before any request.
  const input = await withSpinner(ctx, 'Checking contacts', () => readContactsInput(flags, defaultCountry, ctx.signal));
  if (input.report.invalid > 0 && !flags.skipInvalid) await rejectInvalid(ctx, input, flags.sheet);
  ctx.info(summaryLine(input));
  if (input.controlWarning) ctx.warn(input.controlWarning);
  for (const w of input.styleWarnings ?? []) ctx.warn(w);
  if (flags.skipInvalid) printSkipped(ctx, input);
  printDuplicates(ctx, input, Boolean(flags.keepDuplicates));
  if (input.contacts.length === 0) throw new UsageError(`${input.fileName} has no valid contacts to send.`);

  // Exclude lists are local files (read before any request); only --exclude-called-within asks the service.
  const rules = await withSpinner(ctx, 'Reading exclude lists', () => buildRules(ctx, flags, { defaultCountry, api: () => ctx.api() }));
  const { kept, excluded, counts } = applyRules(input.contacts, rules);
  summarizeExclusions(ctx, counts);
  if (kept.length === 0) {
    if (flags.dryRun) await render(ctx, { json: excludedPlan([], excluded) });
    throw new UsageError(`Every contact of ${input.fileName} is excluded, so there is nothing to send.`);
  }

  if (!flags.split) assertCampaignSize(kept.length);
  const chunks = flags.split ? splitContacts(kept) : [kept];
  const start = (flags.splitFrom ?? 1) - 1;
  if (start >= chunks.length) {
    throw new UsageError(`--split-from ${flags.splitFrom}: the file makes only ${plural(chunks.length, 'part')}.`);
  }
  const gate = flags.launch && !flags.dryRun
    ? gateCallingHours(ctx, chunks.slice(start).flatMap((c) => c.map((x) => x.phone_number)), flags, 'nothing was created or launched')
    : undefined;
  if (flags.launch && !flags.dryRun) {
    await confirmLaunch(ctx, chunks.slice(start).map((c, i) => ({ name: partName(name, start + i, chunks.length), dial: c.length })), {
      declined: 'Cancelled: nothing was created or launched.',
    });
  }

  // A dry run needs no request for an agent given by id; a name is looked up (a read).
  const api = flags.dryRun && UUID.test(flags.agent) ? undefined : await ctx.api();
  const agent = api ? await withSpinner(ctx, 'Finding the agent', () => resolveAgent(api, flags.agent)) : { id: flags.agent, name: undefined };

  const parts: Part[] = chunks.map((contacts, index) => {
    const draft: CampaignDraft = { name: partName(name, index, chunks.length), agent_id: agent.id, contacts: contacts.map(toWire) };
    if (flags.campaignPrompt !== undefined) draft.campaign_prompt = flags.campaignPrompt;
    if (flags.kb !== undefined) draft.kb_item_ids = flags.kb;
    return { index, draft, contacts };
  });
  const todo = parts.slice(start);

  if (flags.dryRun) {
    const dryRun = () => printDryRun(ctx, todo, agent.name ? `"${agent.name}" (${agent.id})` : agent.id, input.where);
    if (rules.length > 0) await render(ctx, { json: excludedPlan(todo, excluded), terminalOnly: true, human: dryRun });
    else await dryRun();
    ctx.info(ctx.errColor.yellow(`Dry run: nothing was sent${flags.launch ? ' and nothing launched' : ''}.`));
    return;
  }

  const client = api!;
  const create = () => createAll(ctx, client, todo, {
    parts: parts.length,
    fileName: input.fileName,
    where: input.where,
    resume: (from) => resumeCommand(ctx, flags, agent.id, defaultCountry, from),
  });
  // Several parts print a line each as they are created; a spinner would fight with them.
  const created = todo.length === 1 ? await withSpinner(ctx, 'Creating the campaign', create) : await create();

  let launched: unknown[] | undefined;
  if (gate) {
    await gate.wait();
    launched = await launchAll(ctx, client, created);
  }
  await printCreated(ctx, created, launched);
}

async function rejectInvalid(ctx: Context, input: ContactsInput, sheet: string | undefined): Promise<never> {
  await render(ctx, { json: input.report });
  printProblems(ctx, input);
  const { invalid } = input.report;
  const unit = input.kind === 'csv' ? 'row' : 'item';
  // What --skip-invalid would really send: the valid rows, less the repeated numbers dropped.
  const send = input.contacts.length;
  const dropped = send < input.report.valid ? ` (the valid ${unit}s less ${plural(input.report.valid - send, 'repeated number')})` : '';
  throw new UsageError(`${plural(invalid, unit)} of ${input.fileName} ${invalid === 1 ? 'is' : 'are'} invalid, so nothing was sent.`, {
    code: 'invalid_rows',
    details: { total_rows: input.report.total_rows, invalid, errors: input.report.errors },
    hint: `Fix ${invalid === 1 ? 'it' : 'them'} and run the command again, or add --skip-invalid to create the campaign with the other ${plural(send, 'contact')}${dropped}.`
      + (send > MAX_CONTACTS_PER_CAMPAIGN ? ' That is more than one campaign takes: add --split as well.' : '')
      + (input.kind === 'csv' ? ` \`voicectl contacts validate ${shellQuote(input.path)}${sheet !== undefined ? ` --sheet ${shellQuote(sheet)}` : ''} --errors-out bad-rows.csv\` writes every bad row to a file to fix in a spreadsheet.` : ''),
  });
}

/**
 * --dry-run with exclude lists, off a terminal: the bodies and who was left out, with
 * the contact's row in the file and the number's row in the list.
 */
function excludedPlan(todo: Part[], excluded: Excluded[]): unknown {
  const bodies = todo.map((p) => p.draft);
  return { would_create: bodies.length === 1 ? bodies[0] : bodies, excluded };
}

export async function printCreated(ctx: Context, created: Created[], launched: unknown[] | undefined): Promise<void> {
  const objects = created.map((c, i) => {
    const after = launched?.[i];
    return isCampaign(after) ? after : launched ? { ...c.campaign, status: c.campaign.status === 'draft' ? 'running' : c.campaign.status } : c.campaign;
  });
  // One row source for the table and for -o csv: what was created, as a person reads it.
  const rows = createdRows(created, objects, launched);
  await render(ctx, {
    json: objects.length === 1 ? objects[0] : objects,
    lines: objects,
    csv: { columns: ROW_COLUMNS, rows },
    human: async () => {
      if (rows.length === 1) {
        if (!launched) ctx.info(ctx.errColor.green(`✓ Created campaign "${rows[0]!.name}" with ${plural(rows[0]!.contacts, 'contact')}. Nothing is dialed until it is launched.`));
        await printObject(ctx, rows[0]!, ROW_COLUMNS);
      } else {
        await printList(ctx, rows, ROW_COLUMNS);
      }
    },
  });
  const ids = created.map((c) => c.id).filter((id): id is string => Boolean(id));
  if (ids.length === 0) return;
  const next = launched
    ? ids.map((id) => `voicectl watch ${id}`)
    : ids.map((id) => `voicectl campaign launch ${id}`);
  ctx.info(ctx.errColor.dim(`Next: ${next.length === 1 ? next[0] : `\n  ${next.join('\n  ')}`}`));
}

interface CreatedRow {
  id: string;
  name: string;
  status: string;
  /** How many contacts were sent: the service's campaign object does not say. */
  contacts: number;
}

/** The rows of the table and of -o csv: one per campaign created. */
export function createdRows(created: Created[], objects: Record<string, unknown>[], launched: unknown[] | undefined): CreatedRow[] {
  return created.map((c, i) => ({
    id: c.id ?? '',
    name: (objects[i]!.name as string | undefined) ?? c.draft.name,
    status: (objects[i]!.status as string | undefined) ?? (launched ? 'running' : 'draft'),
    contacts: c.contacts.length,
  }));
}

const ROW_COLUMNS: Column<CreatedRow>[] = [
  { header: 'id', key: 'id' },
  { header: 'name', key: 'name' },
  { header: 'status', key: 'status' },
  { header: 'contacts', key: 'contacts' },
];

function isCampaign(v: unknown): v is Record<string, unknown> & { id: string } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { id?: unknown }).id === 'string';
}

/** The command that creates parts `from`.. of this split: the same input and flags, the agent by id. */
function resumeCommand(ctx: Context, flags: CreateFlags, agentId: string, defaultCountry: string | undefined, from: number): string {
  const args = ['voicectl', 'campaign', 'create', '--name', flags.name, '--agent', agentId];
  if (flags.csv !== undefined) args.push('--csv', flags.csv);
  if (flags.contacts !== undefined) args.push('--contacts', flags.contacts);
  if (defaultCountry) args.push('--default-country', defaultCountry);
  if (flags.phoneColumn !== undefined) args.push('--phone-column', flags.phoneColumn);
  if (flags.nameColumn !== undefined) args.push('--name-column', flags.nameColumn);
  if (flags.sheet !== undefined) args.push('--sheet', flags.sheet);
  if (flags.campaignPrompt !== undefined) args.push('--campaign-prompt', flags.campaignPrompt);
  if (flags.kb !== undefined) args.push('--kb', flags.kb.join(','));
  if (flags.skipInvalid) args.push('--skip-invalid');
  if (flags.keepDuplicates) args.push('--keep-duplicates');
  args.push('--split', '--split-from', String(from));
  for (const f of flags.exclude ?? []) args.push('--exclude', f);
  if (flags.excludeCalledWithin !== undefined) args.push('--exclude-called-within', `${Math.round(flags.excludeCalledWithin / 60_000)}m`);
  if (flags.defaultExclude === false) args.push('--no-default-exclude');
  if (flags.launch) args.push('--launch');
  if (flags.callingHours) args.push('--calling-hours', flags.callingHours);
  if (flags.waitForCallingHours) args.push('--wait-for-calling-hours');
  if (flags.ignoreCallingHours) args.push('--ignore-calling-hours');
  // The same service and profile; never the key (it would land in shell history).
  if (ctx.opts.baseUrl) args.push('--base-url', ctx.opts.baseUrl);
  if (ctx.opts.profile) args.push('--profile', ctx.opts.profile);
  return args.map(shellQuote).join(' ');
}
