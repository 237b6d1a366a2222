import type { Context } from '../../context.js';
import { resolveAgent } from '../../api/agents.js';
import { applyRules, buildRules, summarizeExclusions } from '../../campaigns/exclusions.js';
import { checkHoursChoice, gateCallingHours } from '../../hours/hours-gate.js';
import { chooseRedial, type RedialContact, type RedialPlan } from '../../campaigns/redial.js';
import { MAX_CONTACTS_PER_CAMPAIGN, splitContacts } from '../../contacts/report.js';
import { UsageError } from '../../errors.js';
import { withSpinner } from '../../io/progress.js';
import { commandLine, createAndLaunch, partsOf, sharedResumeArgs, type Part } from './create-flow.js';
import { printDryRun } from './dry-run.js';
import { confirmLaunch } from '../../campaigns/launch-flow.js';
import { grouped, plural } from '../../text/text.js';
import { render } from '../../io/render.js';
import type { RedialFlags } from './definition.js';
import { exclusionChoice, hoursChoice } from './plans.js';
import { NEEDS_PERSON_RULE, NO_TIME_RULE, prepareCallbackRun, type Unread } from '../../campaigns/run/callbacks.js';
import { startRun } from '../../campaigns/run/session.js';
import { runExclusions } from '../../campaigns/run/start.js';
import { runScreen } from './run-screen.js';


export default async function campaignRedial(ctx: Context, id: string, flags: RedialFlags): Promise<void> {
  if (flags.splitFrom !== undefined && !flags.split) throw new UsageError('--split-from goes with --split.');
  if (flags.name !== undefined && flags.name.trim() === '') throw new UsageError('--name is empty: give the campaign a name.');
  if (flags.atRequestedTime) {
    const clash = (['split', 'splitFrom', 'waitForCallingHours', 'ignoreCallingHours'] as const).filter((k) => Boolean(flags[k]));
    if (clash.length > 0) {
      throw new UsageError(`--at-requested-time starts a campaign run that releases each callback in a wave at its time, inside calling hours, so it does not take --${clash.map((k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join(', --')}.`, {
        hint: '--wave-size sets the most contacts in one wave; the run waits for each window itself.',
      });
    }
  } else {
    const only = (['journal', 'waveSize'] as const).filter((k) => flags[k] !== undefined);
    if (only.length > 0) throw new UsageError(`--${only.map((k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join(' and --')} go${only.length === 1 ? 'es' : ''} with --at-requested-time.`);
  }
  const defaultCountry = flags.defaultCountry ?? ctx.settings().defaultCountry;
  // With or without --dry-run: a dry run that passes promises a launch that would.
  if (flags.launch && !flags.atRequestedTime) checkHoursChoice(ctx, hoursChoice(flags));
  const api = await ctx.api();
  // The lists are local files: a bad one is exit 2 before any request.
  const rules = await withSpinner(ctx, 'Reading exclude lists', () => buildRules(ctx, exclusionChoice(flags), { defaultCountry, api: async () => api, ignoreCampaignId: id }));
  // The service may return numbers as uploaded: every one is normalized as `campaign create` does before any list compares it.
  const { plan, readBack } = await chooseRedial(api, id, { statuses: flags.status, outcomes: flags.outcome, excludeOutcomes: flags.excludeOutcome, defaultCountry, signal: ctx.signal }, (work) => withSpinner(ctx, 'Reading the campaign, its contacts and calls', work));
  const { kept, excluded, counts } = applyRules(plan.contacts, rules);
  const original = plan.campaign.name ?? id;
  const name = flags.name?.trim() ?? `${original} (redial)`;
  summarize(ctx, plan, kept.length);
  summarizeExclusions(ctx, counts);
  warnUnreadable(ctx, plan, defaultCountry);
  if (flags.atRequestedTime) {
    const run = await withSpinner(ctx, 'Reading the requested times', () => prepareCallbackRun(ctx, api, {
      id, campaign: plan.campaign, kept, excluded, outcomes: flags.outcome, dryRun: Boolean(flags.dryRun),
      normalize: readBack,
      name: flags.name, agent: flags.agent, callingHours: flags.callingHours, waveSize: flags.waveSize,
      journal: flags.journal,
      exclusions: runExclusions(ctx, exclusionChoice(flags), defaultCountry),
    }));
    warnUnread(ctx, run.unread);
    if (!run.journal.contacts.some((c) => c.state === 'waiting')) {
      ctx.info(`No callback of "${original}" has a time voicectl can call back at: no run was started, nothing was sent.`);
      await render(ctx, { json: { held: [], unread: run.unread }, lines: [] });
      return;
    }
    await startRun(ctx, run, runScreen(ctx), { dryRun: Boolean(flags.dryRun) });
    return;
  }

  if (kept.length > MAX_CONTACTS_PER_CAMPAIGN && !flags.split) {
    const parts = Math.ceil(kept.length / MAX_CONTACTS_PER_CAMPAIGN);
    throw new UsageError(`The redial has ${grouped(kept.length)} contacts; a campaign takes at most ${grouped(MAX_CONTACTS_PER_CAMPAIGN)}.`, {
      hint: `Pass --split to create ${parts} campaigns named "${name} (1/${parts})" and so on.`,
    });
  }
  const chunks = kept.length === 0 ? [] : flags.split ? splitContacts(kept) : [kept];
  const start = (flags.splitFrom ?? 1) - 1;
  if (chunks.length > 0 && start >= chunks.length) throw new UsageError(`--split-from ${flags.splitFrom}: the redial makes only ${plural(chunks.length, 'part')}.`);

  const agentId = flags.agent ? (await withSpinner(ctx, 'Finding the agent', () => resolveAgent(api, flags.agent!))).id : plan.campaign.agent_id;
  if (!agentId) {
    throw new UsageError(`Campaign ${original} has no agent (it was deleted), so the redial needs one.`, { hint: 'Pass --agent <id|name>.' });
  }
  const parts = partsOf(name, chunks, {
    agent_id: agentId,
    ...(typeof plan.campaign.campaign_prompt === 'string' ? { campaign_prompt: plan.campaign.campaign_prompt } : {}),
    ...(Array.isArray(plan.campaign.kb_item_ids) ? { kb_item_ids: plan.campaign.kb_item_ids as string[] } : {}),
  });
  const todo = parts.slice(start);

  if (flags.dryRun) {
    await printPlan(ctx, id, plan, todo, excluded, agentId);
    ctx.info(ctx.errColor.yellow(`Dry run: nothing was created${flags.launch ? ' and nothing launched' : ''}.`));
    return;
  }
  if (todo.length === 0) {
    ctx.info(`Nothing to redial: no contact of "${original}" matches.`);
    await render(ctx, { json: [], lines: [] });
    return;
  }
  const gate = flags.launch ? gateCallingHours(ctx, todo.flatMap((p) => p.contacts.map((c) => c.phone_number)), hoursChoice(flags), 'nothing was created or launched') : undefined;
  if (flags.launch) {
    await confirmLaunch(ctx, todo.map((p) => ({ name: p.draft.name, dial: p.contacts.length })), { declined: 'Cancelled: nothing was created or launched.' });
  }
  await createAndLaunch(ctx, api, {
    parts: parts.length,
    todo,
    fileName: `the contacts of campaign ${id}`,
    where: (row) => `contact ${row}`,
    resume: (from) => resumeCommand(ctx, id, flags, agentId, from),
    ...(gate ? { gate } : {}),
  });
}

function summarize(ctx: Context, plan: RedialPlan, keptAfterRules: number): void {
  const label = plan.campaign.name ? `"${plan.campaign.name}" (${plan.campaign.id ?? ''})` : plan.campaign.id;
  const kept = Object.entries(plan.kept).map(([k, n]) => `${grouped(n)} ${k}`).join(', ');
  const left = Object.entries(plan.leftOut).map(([k, n]) => `${grouped(n)} ${k}`).join(', ');
  ctx.info(`Campaign ${label}: ${plural(plan.total, 'contact')}.`);
  ctx.info(`Redial: ${plural(plan.contacts.length, 'contact')}${kept ? ` (${kept})` : ''}.`);
  if (left) ctx.info(`Left out: ${left}.`);
  if (keptAfterRules !== plan.contacts.length) ctx.info(`After the exclude lists: ${plural(keptAfterRules, 'contact')}.`);
}

/**
 * The contacts left out because their number does not normalize: never redialed, since no
 * do-not-call list can be checked for them. Each is named, so a person can decide.
 */
function warnUnreadable(ctx: Context, plan: RedialPlan, defaultCountry: string | undefined): void {
  const n = plan.unreadable.length;
  if (n === 0) return;
  const shown = plan.unreadable.slice(0, 10).map((u) => `  contact ${u.row}${u.name ? ` (${u.name})` : ''}: ${JSON.stringify(u.phone_number) ?? String(u.phone_number)} ${u.reason}`);
  if (n > 10) shown.push(`  … and ${grouped(n - 10)} more (--dry-run --json lists them all under "unreadable")`);
  const noCountry = !defaultCountry && plan.unreadable.some((u) => /no country code/.test(u.reason));
  ctx.warn(`${plural(n, 'contact')} of the campaign ${n === 1 ? 'has a number' : 'have numbers'} that voicectl cannot read as a phone number${defaultCountry ? ` (default country ${defaultCountry.toUpperCase()})` : ''}, so ${n === 1 ? 'it is' : 'they are'} left out of the redial: no do-not-call list can be checked for ${n === 1 ? 'it' : 'them'}.\n${shown.join('\n')}`
    + (noCountry ? '\nPass --default-country (for example --default-country IN) to read numbers written without +<country code>.' : ''));
}

async function printPlan(ctx: Context, id: string, plan: RedialPlan, todo: Part[], excluded: unknown[], agentId: string): Promise<void> {
  const refused = plan.refused.map((c: RedialContact) => ({ row: c.row, phone_number: c.phone_number, name: c.name, outcome: c.outcome }));
  const body = {
    source_campaign: { id, name: plan.campaign.name },
    would_create: todo.map((p) => p.draft),
    kept: plan.kept,
    left_out: plan.leftOut,
    refused_outcome: refused,
    excluded,
    unreadable: plan.unreadable,
  };
  await render(ctx, {
    json: body,
    terminalOnly: true,
    human: async () => {
      if (todo.length > 0) await printDryRun(ctx, todo, agentId, (row) => `contact ${row}`);
      else ctx.out('Would create nothing: no contact matches.');
    },
  });
}

/** The command that creates parts `from`.. of this redial: the same selection, the agent by id. */
function resumeCommand(ctx: Context, id: string, flags: RedialFlags, agentId: string, from: number): string {
  const args = ['voicectl', 'campaign', 'redial', id, '--agent', agentId];
  if (flags.name !== undefined) args.push('--name', flags.name);
  if (flags.status) args.push('--status', flags.status.join(','));
  if (flags.outcome) args.push('--outcome', flags.outcome.join(','));
  if (flags.excludeOutcome) args.push('--exclude-outcome', flags.excludeOutcome.join(','));
  if (flags.defaultCountry) args.push('--default-country', flags.defaultCountry);
  return commandLine([...args, ...sharedResumeArgs(ctx, flags, from)]);
}

/** Callbacks whose time could not be read: never dialed by the run, each named with the words said. */
function warnUnread(ctx: Context, unread: Unread[]): void {
  if (unread.length === 0) return;
  const shown = unread.slice(0, 10).map((c) => `  ${c.phone_number}${c.name ? ` (${c.name})` : ''}: ${c.requested_as ? `"${c.requested_as}"` : c.outcome ?? 'no callback found'}${c.conflict ? ' (two times said)' : ''}`);
  if (unread.length > 10) shown.push(`  … and ${grouped(unread.length - 10)} more (the journal lists them all: state "excluded", rule "${NO_TIME_RULE}" or "${NEEDS_PERSON_RULE}")`);
  ctx.warn(`${plural(unread.length, 'callback')} without a requested time voicectl could read ${unread.length === 1 ? 'is' : 'are'} not dialed: voicectl does not choose a time for them.\n${shown.join('\n')}\n`
    + 'Call them by hand, or with `voicectl campaign followups` for the list.');
}
