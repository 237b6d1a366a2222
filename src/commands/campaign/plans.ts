/**
 * What the campaign verbs hand the campaigns layer, made here from their flags with every
 * key written out: an option renamed or removed in a spec (definition.ts) then fails to
 * compile at the line that reads it, instead of being dropped on the way. The domain
 * types name what they need in their own words (HoursChoice, ExclusionChoice,
 * ContactsSource, RunPlan, RehearsalChoice); none of them mirrors a verb's flags.
 */
import type { ExclusionChoice } from '../../campaigns/exclusions.js';
import type { HoursChoice } from '../../hours/hours-gate.js';
import type { ContactsSource } from '../../campaigns/input.js';
import type { PolicyFileValues } from '../../campaigns/run/policy-file.js';
import type { RehearsalChoice } from '../../campaigns/run/rehearse.js';
import type { RunPlan } from '../../campaigns/run/start.js';
import type { CreateFlags, ExclusionOptionFlags, LaunchFlags, RunFlags } from './definition.js';

/** --calling-hours, --ignore-calling-hours, --wait-for-calling-hours. */
export function hoursChoice(flags: LaunchFlags): HoursChoice {
  return { window: flags.callingHours, ignore: Boolean(flags.ignoreCallingHours), wait: Boolean(flags.waitForCallingHours) };
}

/** --exclude, --exclude-called-within, --no-default-exclude. */
export function exclusionChoice(flags: ExclusionOptionFlags): ExclusionChoice {
  return { files: flags.exclude ?? [], calledWithinMs: flags.excludeCalledWithin, profileList: flags.defaultExclude !== false };
}

/** `campaign create`'s contacts: --csv or --contacts, the columns and sheet, --keep-duplicates. */
export function createContactsSource(flags: CreateFlags): ContactsSource {
  return {
    csv: flags.csv,
    json: flags.contacts,
    columns: { phone: flags.phoneColumn, name: flags.nameColumn, country: flags.countryColumn, sheet: flags.sheet },
    keepDuplicates: Boolean(flags.keepDuplicates),
  };
}

/**
 * A new `campaign run` from its flags and its --policy file: a flag given on the command
 * line wins over the file; windows add up (a country's later window wins); exclude lists
 * add up.
 */
export function runPlan(flags: RunFlags, file: PolicyFileValues = {}): RunPlan {
  return {
    name: flags.name,
    agent: flags.agent,
    contacts: {
      csv: flags.csv,
      json: flags.contacts,
      columns: { phone: flags.phoneColumn, name: flags.nameColumn, country: flags.countryColumn, sheet: undefined },
      keepDuplicates: Boolean(flags.keepDuplicates),
    },
    fromCampaign: flags.fromCampaign,
    defaultCountry: flags.defaultCountry,
    campaignPrompt: flags.campaignPrompt,
    kb: flags.kb,
    callingHours: [...(file.callingHours ?? []), ...(flags.callingHours ?? [])],
    waveSize: flags.waveSize ?? file.waveSize,
    dailyCap: flags.dailyCap ?? file.dailyCap,
    attempts: flags.attempts ?? file.attempts,
    retryAfter: flags.retryAfter ?? file.retryAfter,
    retryOn: flags.retryOn ?? file.retryOn,
    deadline: flags.deadline ?? file.deadline,
    journal: flags.journal,
    dryRun: Boolean(flags.dryRun),
    skipInvalid: Boolean(flags.skipInvalid),
    strict: Boolean(flags.strict),
    exclusions: {
      files: [...(file.exclude ?? []), ...(flags.exclude ?? [])],
      calledWithinMs: flags.excludeCalledWithin ?? file.excludeCalledWithin,
      profileList: flags.defaultExclude !== false,
    },
  };
}

/** `campaign run --rehearse`: what the rehearsal takes beside the run's plan (--html). */
export function rehearsalChoice(flags: RunFlags): RehearsalChoice {
  return { html: flags.html };
}
