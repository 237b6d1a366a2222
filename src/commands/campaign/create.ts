import type { Context } from '../../context.js';
import { resolveAgent } from '../../api/agents.js';
import { applyRules, buildRules, summarizeExclusions, type Excluded } from '../../campaigns/exclusions.js';
import { checkHoursChoice, gateCallingHours } from '../../hours/hours-gate.js';
import { assertCampaignSize, partName, splitContacts } from '../../contacts/report.js';
import { UsageError } from '../../errors.js';
import { withSpinner } from '../../io/progress.js';
import { plural } from '../../text/text.js';
import { readingArgs } from '../../contacts/options.js';
import { printDryRun } from './dry-run.js';
import { commandLine, createAndLaunch, partsOf, sharedResumeArgs, type Part } from './create-flow.js';
import { readContactsInput } from '../../campaigns/input.js';
import { confirmLaunch } from '../../campaigns/launch-flow.js';
import { CREATE_GOAL, settleContacts } from '../../campaigns/problems.js';
import { render } from '../../io/render.js';
import type { CreateFlags } from './definition.js';
import { createContactsSource, exclusionChoice, hoursChoice } from './plans.js';


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function campaignCreate(ctx: Context, flags: CreateFlags): Promise<void> {
  const name = flags.name.trim();
  if (name === '') throw new UsageError('--name is empty: give the campaign a name.');
  if (flags.splitFrom !== undefined && !flags.split) throw new UsageError('--split-from goes with --split.');
  const defaultCountry = flags.defaultCountry ?? ctx.settings().defaultCountry;
  // The launch's flags are checked with or without --dry-run: a dry run that passes promises a launch that would.
  if (flags.launch) checkHoursChoice(ctx, hoursChoice(flags));

  // Everything local first: a bad file is exit 2 before any request.
  const input = await withSpinner(ctx, 'Checking contacts', () => readContactsInput(createContactsSource(flags), defaultCountry, ctx.signal));
  // Invalid rows, warnings and --strict: exit 2 here, before any request.
  await settleContacts(ctx, input, { skipInvalid: flags.skipInvalid, keepDuplicates: flags.keepDuplicates, strict: flags.strict || ctx.settings().strict, goal: CREATE_GOAL });

  // Exclude lists are local files (read before any request); only --exclude-called-within asks the service.
  const rules = await withSpinner(ctx, 'Reading exclude lists', () => buildRules(ctx, exclusionChoice(flags), { defaultCountry, api: () => ctx.api() }));
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
    ? gateCallingHours(ctx, chunks.slice(start).flatMap((c) => c.map((x) => x.phone_number)), hoursChoice(flags), 'nothing was created or launched')
    : undefined;
  if (flags.launch && !flags.dryRun) {
    await confirmLaunch(ctx, chunks.slice(start).map((c, i) => ({ name: partName(name, start + i, chunks.length), dial: c.length })), {
      declined: 'Cancelled: nothing was created or launched.',
    });
  }

  // A dry run needs no request for an agent given by id; a name is looked up (a read).
  const api = flags.dryRun && UUID.test(flags.agent) ? undefined : await ctx.api();
  const agent = api ? await withSpinner(ctx, 'Finding the agent', () => resolveAgent(api, flags.agent)) : { id: flags.agent, name: undefined };

  const parts = partsOf(name, chunks, {
    agent_id: agent.id,
    ...(flags.campaignPrompt !== undefined ? { campaign_prompt: flags.campaignPrompt } : {}),
    ...(flags.kb !== undefined ? { kb_item_ids: flags.kb } : {}),
  });
  const todo = parts.slice(start);

  if (flags.dryRun) {
    const dryRun = () => printDryRun(ctx, todo, agent.name ? `"${agent.name}" (${agent.id})` : agent.id, input.where);
    if (rules.length > 0) await render(ctx, { json: excludedPlan(todo, excluded), terminalOnly: true, human: dryRun });
    else await dryRun();
    ctx.info(ctx.errColor.yellow(`Dry run: nothing was sent${flags.launch ? ' and nothing launched' : ''}.`));
    return;
  }

  await createAndLaunch(ctx, api!, {
    parts: parts.length,
    todo,
    fileName: input.fileName,
    where: input.where,
    resume: (from) => resumeCommand(ctx, flags, agent.id, defaultCountry, from),
    ...(gate ? { gate } : {}),
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

/** The command that creates parts `from`.. of this split: the same input and flags, the agent by id. */
function resumeCommand(ctx: Context, flags: CreateFlags, agentId: string, defaultCountry: string | undefined, from: number): string {
  const args = ['voicectl', 'campaign', 'create', '--name', flags.name, '--agent', agentId];
  if (flags.csv !== undefined) args.push('--csv', flags.csv);
  if (flags.contacts !== undefined) args.push('--contacts', flags.contacts);
  args.push(...readingArgs({ ...flags, defaultCountry, keepDuplicates: false }));
  if (flags.campaignPrompt !== undefined) args.push('--campaign-prompt', flags.campaignPrompt);
  if (flags.kb !== undefined) args.push('--kb', flags.kb.join(','));
  if (flags.skipInvalid) args.push('--skip-invalid');
  if (flags.keepDuplicates) args.push('--keep-duplicates');
  if (flags.strict) args.push('--strict');
  return commandLine([...args, ...sharedResumeArgs(ctx, flags, from)]);
}
