/**
 * `campaign_redial` with `at_requested_time`: the plan of the campaign run that calls each
 * callback back at the time the customer asked for, for a person to start. One tool call
 * cannot hold a process for the days such a run lasts, so nothing is created, launched or
 * written: the answer is the waves by time with their contacts, the callbacks without a
 * readable time, and the exact `voicectl campaign redial … --at-requested-time` command.
 *
 * The selection, the follow-up reader and the schedule are the verb's own: chooseRedial,
 * the exclude lists, prepareCallbackRun (which reads each requested time as `campaign
 * followups` does), and the run's planner (chooseWave), waves numbered from 1.
 */
import { applyRules, buildRules, type ExclusionChoice } from '../campaigns/exclusions.js';
import { chooseRedial } from '../campaigns/redial.js';
import { prepareCallbackRun, type Unread } from '../campaigns/run/callbacks.js';
import type { RunContact } from '../campaigns/run/journal.js';
import { capDay, chooseWave, Planner } from '../campaigns/run/plan.js';
import { placeOf } from '../hours/phone-zones.js';
import { runExclusions } from '../campaigns/run/start.js';
import { shellQuote } from '../text/text.js';
import { isoIn } from '../reports/followups.js';
import type { ToolAnswer, ToolDeps } from './tool-spec.js';

export interface PlannedWave {
  n: number;
  /** When the run would release it: ISO 8601 with the offset of the user's zone. */
  at: string;
  contacts: Array<{ phone_number: string; name?: string; requested_time: string; requested_as?: string; zone: string }>;
}

/** The flags `campaign redial` parsed, as its parser types them (the verb's spec: src/commands/campaign/definition.ts). */
interface RedialValues {
  status?: string[];
  outcome?: string[];
  excludeOutcome?: string[];
  name?: string;
  agent?: string;
  defaultCountry?: string;
  exclude?: string[];
  excludeCalledWithin?: number;
  defaultExclude?: boolean;
  callingHours?: string;
  waveSize?: number;
}

export async function redialPlan(args: Record<string, unknown>, deps: ToolDeps): Promise<ToolAnswer> {
  const id = String(args.campaign_id);
  // The verb's parser checks every value first (a bad span, a wave size of 0: exit 2, the CLI's words).
  const structured = await deps.instead(deps.argv(args), async (ctx, parsed) => {
    const flags = parsed as RedialValues;
    const api = await ctx.api();
    const defaultCountry = flags.defaultCountry ?? ctx.settings().defaultCountry;
    // The verb's exclusion options, as the campaigns layer takes them (commands/campaign/plans.ts maps them the same way).
    const exclusion: ExclusionChoice = { files: flags.exclude ?? [], calledWithinMs: flags.excludeCalledWithin, profileList: flags.defaultExclude !== false };
    const rules = await buildRules(ctx, exclusion, { defaultCountry, api: async () => api, ignoreCampaignId: id });
    const { plan, readBack } = await chooseRedial(api, id, { statuses: flags.status, outcomes: flags.outcome, excludeOutcomes: flags.excludeOutcome, defaultCountry, signal: ctx.signal });
    const { kept, excluded } = applyRules(plan.contacts, rules);
    const run = await prepareCallbackRun(ctx, api, {
      id, campaign: plan.campaign, kept, excluded, outcomes: flags.outcome, dryRun: true,
      normalize: readBack,
      name: flags.name, agent: flags.agent, callingHours: flags.callingHours, waveSize: flags.waveSize,
      exclusions: runExclusions(ctx, exclusion, defaultCountry),
    });
    const j = run.journal;
    const { waves, expire } = plannedWaves(j.contacts, j.policy, ctx.now().getTime(), ctx.timeZone);
    return {
      outcome: 'plan',
      started: false,
      source_campaign: { id, name: plan.campaign.name ?? null },
      name: j.name,
      agent_id: j.agent_id,
      policy: j.policy,
      contacts: waves.reduce((n, w) => n + w.contacts.length, 0),
      waves,
      unread: run.unread satisfies Unread[],
      no_zone: j.contacts.filter((c) => c.state === 'no_zone').map((c) => ({ phone_number: c.phone_number, ...(c.name !== undefined ? { name: c.name } : {}) })),
      would_expire: expire,
      excluded: excluded.length,
      command: startCommand(id, args),
      note: 'Nothing was created, launched or written. The run holds each callback until its time, so it lasts as long as the latest one: a person starts it with `command` in a terminal that stays open (or resumes it from its journal), and a released wave cannot be stopped.',
    };
  });
  return { structured };
}

/**
 * The waves of the run as its planner would release them, each with its contacts: the
 * loop of the forecast's simulation, keeping who is in each wave.
 */
export function plannedWaves(contacts: RunContact[], policy: ConstructorParameters<typeof Planner>[1], start: number, zone: string): { waves: PlannedWave[]; expire: number } {
  const copy = contacts.map((c) => ({ ...c }));
  const planner = new Planner(copy, policy);
  const days: Record<string, number> = {};
  const waves: PlannedWave[] = [];
  let t = start;
  for (let guard = 0; guard < 100_000; guard++) {
    const choice = chooseWave(planner, copy, days, t);
    if (choice.take.length === 0) {
      if (choice.nextAt === undefined) break;
      t = choice.nextAt;
      continue;
    }
    waves.push({
      n: waves.length + 1,
      at: isoIn(t, zone),
      contacts: choice.take.map((i) => {
        const c = copy[i]!;
        c.state = 'done';
        const own = c.zone ?? placeOf(c.phone_number).zones[0] ?? zone;
        return {
          phone_number: c.phone_number,
          ...(c.name !== undefined ? { name: c.name } : {}),
          requested_time: isoIn(Date.parse(c.not_before!), own),
          ...(c.requested_as !== undefined ? { requested_as: c.requested_as } : {}),
          zone: own,
        };
      }),
    });
    const day = capDay(t, policy.day_zone);
    days[day] = (days[day] ?? 0) + choice.take.length;
    t += policy.wave_length_ms;
  }
  return { waves, expire: copy.filter((c) => c.state === 'waiting').length };
}

/** The command a person runs to start the run: the tool's selection as flags. */
function startCommand(id: string, args: Record<string, unknown>): string {
  const words = ['voicectl', 'campaign', 'redial', id];
  const add = (flag: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      if (value.length > 0) words.push(flag, value.map(String).join(','));
    } else words.push(flag, String(value));
  };
  add('--status', args.status);
  add('--outcome', args.outcome);
  add('--exclude-outcome', args.exclude_outcome);
  add('--name', args.name);
  add('--agent', args.agent);
  for (const f of (args.exclude as string[] | undefined) ?? []) words.push('--exclude', f);
  add('--exclude-called-within', args.exclude_called_within);
  add('--calling-hours', args.calling_hours);
  add('--wave-size', args.wave_size);
  words.push('--at-requested-time');
  return words.map(shellQuote).join(' ');
}
