import type { Context } from '../../context.js';
import { resolveAgent } from '../../api/agents.js';
import type { CampaignDraft } from '../../api/campaigns.js';
import { applyRules, buildRules, summarizeExclusions } from '../../campaigns/exclusions.js';
import { checkHoursFlags, gateCallingHours } from '../../campaigns/hours-gate.js';
import { DEFAULT_EXCLUDED_OUTCOMES, planRedial, type RedialContact, type RedialPlan } from '../../campaigns/redial.js';
import { MAX_CONTACTS_PER_CAMPAIGN, partName, splitContacts } from '../../contacts/report.js';
import { UsageError } from '../../errors.js';
import { withSpinner } from '../../io/progress.js';
import { createAll, launchAll, shellQuote, type Part } from '../../campaigns/create-run.js';
import { printCreated } from './create.js';
import { printDryRun } from './dry-run.js';
import { toWire } from '../../campaigns/input.js';
import { confirmLaunch } from '../../campaigns/launch-flow.js';
import { plural } from '../../io/text.js';
import { render } from '../../io/render.js';
import type { RedialFlags } from './definition.js';
import type { ApiClient } from '../../api/client.js';
import { callingWindow } from '../../campaigns/hours-gate.js';
import { formatWindow } from '../../campaigns/calling-hours.js';
import { collectFollowups } from '../../reports/followups.js';
import { planCallbackWaves } from '../../reports/callback-waves.js';


export default async function campaignRedial(ctx: Context, id: string, flags: RedialFlags): Promise<void> {
  if (flags.splitFrom !== undefined && !flags.split) throw new UsageError('--split-from goes with --split.');
  if (flags.name !== undefined && flags.name.trim() === '') throw new UsageError('--name is empty: give the campaign a name.');
  if (flags.atRequestedTime) {
    const clash = (['launch', 'split', 'splitFrom', 'waitForCallingHours', 'ignoreCallingHours'] as const).filter((k) => Boolean(flags[k]));
    if (clash.length > 0) {
      throw new UsageError(`--at-requested-time prints the waves to schedule and creates nothing, so it does not take --${clash.map((k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join(', --')}.`, {
        hint: 'Each wave\'s command launches it at its time.',
      });
    }
  }
  const defaultCountry = flags.defaultCountry ?? ctx.settings().defaultCountry;
  // With or without --dry-run: a dry run that passes promises a launch that would.
  if (flags.launch) checkHoursFlags(ctx, flags);
  const api = await ctx.api();
  // The lists are local files: a bad one is exit 2 before any request.
  const rules = await withSpinner(ctx, 'Reading exclude lists', () => buildRules(ctx, flags, { defaultCountry, api: async () => api, ignoreCampaignId: id }));
  // The service may return numbers as uploaded: every one is normalized as `campaign create` does before any list compares it.
  const { createPhoneCheck, resolveDefaultCountry } = await import('../../contacts/index.js');
  const check = createPhoneCheck(resolveDefaultCountry(defaultCountry));
  const plan = await withSpinner(ctx, 'Reading the campaign, its contacts and calls', () => planRedial(api, id, {
    statuses: flags.status,
    outcomes: flags.outcome,
    excludeOutcomes: flags.excludeOutcome ?? DEFAULT_EXCLUDED_OUTCOMES,
    check,
    signal: ctx.signal,
  }));
  const { kept, excluded, counts } = applyRules(plan.contacts, rules);
  const original = plan.campaign.name ?? id;
  const name = flags.name?.trim() ?? `${original} (redial)`;
  summarize(ctx, plan, kept.length);
  summarizeExclusions(ctx, counts);
  warnUnreadable(ctx, plan, defaultCountry);
  if (flags.atRequestedTime) {
    await printCallbackWaves(ctx, api, id, flags, kept, plan.campaign.agent_id ?? undefined, name, check);
    return;
  }

  if (kept.length > MAX_CONTACTS_PER_CAMPAIGN && !flags.split) {
    const parts = Math.ceil(kept.length / MAX_CONTACTS_PER_CAMPAIGN);
    throw new UsageError(`The redial has ${kept.length.toLocaleString('en-US')} contacts; a campaign takes at most ${MAX_CONTACTS_PER_CAMPAIGN.toLocaleString('en-US')}.`, {
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
  const parts: Part[] = chunks.map((contacts, index) => {
    const draft: CampaignDraft = { name: partName(name, index, chunks.length), agent_id: agentId, contacts: contacts.map(toWire) };
    if (typeof plan.campaign.campaign_prompt === 'string') draft.campaign_prompt = plan.campaign.campaign_prompt;
    if (Array.isArray(plan.campaign.kb_item_ids)) draft.kb_item_ids = plan.campaign.kb_item_ids as string[];
    return { index, draft, contacts };
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
  const gate = flags.launch ? gateCallingHours(ctx, todo.flatMap((p) => p.contacts.map((c) => c.phone_number)), flags, 'nothing was created or launched') : undefined;
  if (flags.launch) {
    await confirmLaunch(ctx, todo.map((p) => ({ name: p.draft.name, dial: p.contacts.length })), { declined: 'Cancelled: nothing was created or launched.' });
  }
  const create = () => createAll(ctx, api, todo, {
    parts: parts.length,
    fileName: `the contacts of campaign ${id}`,
    where: (row) => `contact ${row}`,
    resume: (from) => resumeCommand(ctx, id, flags, agentId, from),
  });
  const created = todo.length === 1 ? await withSpinner(ctx, 'Creating the campaign', create) : await create();
  let launched: unknown[] | undefined;
  if (gate) {
    await gate.wait();
    launched = await launchAll(ctx, api, created);
  }
  await printCreated(ctx, created, launched);
}

function summarize(ctx: Context, plan: RedialPlan, keptAfterRules: number): void {
  const label = plan.campaign.name ? `"${plan.campaign.name}" (${plan.campaign.id ?? ''})` : plan.campaign.id;
  const kept = Object.entries(plan.kept).map(([k, n]) => `${n.toLocaleString('en-US')} ${k}`).join(', ');
  const left = Object.entries(plan.leftOut).map(([k, n]) => `${n.toLocaleString('en-US')} ${k}`).join(', ');
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
  if (n > 10) shown.push(`  … and ${(n - 10).toLocaleString('en-US')} more (--dry-run --json lists them all under "unreadable")`);
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
  for (const f of flags.exclude ?? []) args.push('--exclude', f);
  if (flags.excludeCalledWithin !== undefined) args.push('--exclude-called-within', `${Math.round(flags.excludeCalledWithin / 60_000)}m`);
  if (flags.defaultExclude === false) args.push('--no-default-exclude');
  args.push('--split', '--split-from', String(from));
  if (flags.launch) args.push('--launch');
  if (flags.callingHours) args.push('--calling-hours', flags.callingHours);
  if (flags.waitForCallingHours) args.push('--wait-for-calling-hours');
  if (flags.ignoreCallingHours) args.push('--ignore-calling-hours');
  if (ctx.opts.baseUrl) args.push('--base-url', ctx.opts.baseUrl);
  if (ctx.opts.profile) args.push('--profile', ctx.opts.profile);
  return args.map(shellQuote).join(' ');
}

/**
 * --at-requested-time: the waves that call each selected contact back at the time they
 * asked for, inside calling hours, with the command that creates and launches each. A
 * plan: voicectl holds nothing back and creates nothing.
 */
async function printCallbackWaves(
  ctx: Context, api: ApiClient, id: string, flags: RedialFlags, kept: RedialContact[], agentId: string | undefined, name: string, check: (raw: string) => string,
): Promise<void> {
  const window = callingWindow(ctx, flags.callingHours);
  const followups = await withSpinner(ctx, 'Reading the requested times', () => collectFollowups(api, [id], { outcomes: flags.outcome, userZone: ctx.timeZone, signal: ctx.signal }));
  const normalize = (raw: string) => {
    const r = check(raw);
    return r.startsWith('+') ? r : raw;
  };
  const plan = planCallbackWaves(kept, followups, window, ctx.now().getTime(), normalize);
  const agent = flags.agent ?? agentId;
  const command = (n: number) => {
    const args = ['voicectl', 'campaign', 'create', '--name', `${name} (callbacks ${n})`, '--agent', agent ?? 'AGENT', '--contacts', `callbacks-${n}.json`, '--calling-hours', formatWindow(window), '--launch'];
    if (ctx.opts.baseUrl) args.push('--base-url', ctx.opts.baseUrl);
    if (ctx.opts.profile) args.push('--profile', ctx.opts.profile);
    return args.map(shellQuote).join(' ');
  };
  const body = {
    source_campaign: id,
    calling_hours: formatWindow(window),
    held_by_voicectl: false,
    waves: plan.waves.map((w) => ({ ...w, command: command(w.n) })),
    no_time: plan.no_time,
    never_open: plan.never_open,
  };
  await render(ctx, {
    json: body,
    human: () => {
      if (plan.waves.length === 0) ctx.out('No wave to schedule: no selected contact has a requested time voicectl could read.');
      for (const w of body.waves) {
        ctx.out(`Wave ${w.n}: at ${w.at.slice(0, 16).replace('T', ' ')} ${w.zone} (${w.at.slice(19) || 'UTC'}), ${plural(w.contacts.length, 'contact')}`);
        for (const c of w.contacts) ctx.out(`  ${c.phone_number}${c.name ? ` ${c.name}` : ''}: asked for ${c.requested_time.slice(0, 16).replace('T', ' ')}${c.requested_as ? ` ("${c.requested_as}")` : ''}`);
        ctx.out(`  ${w.command}`);
      }
    },
  });
  if (plan.no_time.length > 0) {
    const shown = plan.no_time.slice(0, 10).map((c) => `  ${c.phone_number}${c.name ? ` (${c.name})` : ''}: ${c.requested_as ? `"${c.requested_as}"` : c.outcome ?? 'no callback found'}`);
    if (plan.no_time.length > 10) shown.push(`  … and ${(plan.no_time.length - 10).toLocaleString('en-US')} more (--json lists them all under "no_time")`);
    ctx.warn(`${plural(plan.no_time.length, 'contact')} without a requested time voicectl could read ${plan.no_time.length === 1 ? 'is' : 'are'} left out of the waves:\n${shown.join('\n')}`);
  }
  if (plan.never_open.length > 0) ctx.warn(`${plural(plan.never_open.length, 'contact')} whose calling window never opens ${plan.never_open.length === 1 ? 'is' : 'are'} left out (--json lists them under "never_open").`);
  if (plan.waves.length > 0) {
    ctx.info(`voicectl does not hold these waves: run each wave's command at its time (cron, at, or a person). Save a wave's contacts with: voicectl campaign redial ${shellQuote(id)} ... --at-requested-time --json | jq '.waves[N-1].contacts' > callbacks-N.json`);
  }
  ctx.info(ctx.errColor.yellow('Nothing was created or launched.'));
}
