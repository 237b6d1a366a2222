/**
 * The campaign verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options (FlagsOf), so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, InvalidArgumentError, Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { commaList, nonNegativeInt, pageLimit, positiveInt, type FlagsOf, tableHelp } from '../shared.js';
import { verb, type Group } from '../spec.js';
import { spanMs } from './span.js';

const STATUSES = 'pending, initiated, completed, no_answer or failed';

/** --exclude, --exclude-called-within, --no-default-exclude: shared by create and redial. */
/** @internal */
export function exclusionOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--exclude <files...>', 'leave out the numbers in these files: CSV or .xlsx with a phone column, or one number a line')
    .option('--exclude-called-within <span>', 'leave out numbers with a call started in this span, e.g. 7d, 36h, 90m', (v: string) => spanMs(v))
    .option('--no-default-exclude', 'do not apply the profile\'s do_not_call_file');
}

/** The calling-hours flags of every verb that dials. */
/** @internal */
export function hoursOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--calling-hours <window>', 'local-time window for dialing, e.g. 10:00-19:00 (default: the profile\'s calling_hours, else 09:00-21:00)')
    .option('--ignore-calling-hours', 'launch even when contacts are outside calling hours')
    .option('--wait-for-calling-hours', 'when contacts are outside calling hours, wait until the window opens for all, then launch');
}

/** --split and --split-from: shared by create and redial. @internal */
function splitOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--split', 'over 10,000 contacts: create several campaigns named "NAME (1/3)", "NAME (2/3)" ...')
    .option('--split-from <n>', 'with --split: start at part N (to finish a split that stopped part-way)', positiveInt);
}

/** @internal */
export function createOptions(cmd: Command) {
  return hoursOptions(exclusionOptions(splitOptions(cmd
    .requiredOption('--name <name>', 'campaign name')
    .requiredOption('--agent <agent>', 'agent id or exact name')
    .option('--csv <file>', 'contacts spreadsheet: .csv (comma, semicolon or tab separated) or .xlsx')
    .option('--contacts <file.json>', 'contacts as a JSON array of {phone_number, name, extra}')
    .option('--default-country <cc>', 'country for numbers written without +, e.g. IN (default: the profile\'s default_country)')
    .option('--phone-column <header>', 'the phone column\'s header (default: found by name: phone, mobile, number ...)')
    .option('--name-column <header>', 'the name column\'s header (default: name, customer name, contact name, lead name, full name, or first + last name)')
    .option('--country-column <header>', 'the column with each row\'s country (US, India, +91 ...), read as that row\'s default country (default: a column headed country, country code or ISO)')
    .option('--sheet <name|n>', 'with --csv FILE.xlsx: the sheet to read, by name or number from 1 (default: the first)')
    .option('--campaign-prompt <text>', 'extra instruction for the agent in this campaign')
    .option('--kb <ids>', 'knowledge-base item ids for this campaign, comma-separated (override the agent\'s)', commaList)
    .option('--skip-invalid', 'create with the valid rows and list the skipped ones (default: send nothing if a row is invalid)')
    .option('--keep-duplicates', 'keep rows whose number repeats an earlier row\'s (default: drop them)')
    .option('--strict', 'every warning about the contacts is an error (exit 2, nothing sent): duplicates, numbers read in another country\'s style, missing names (default: the profile\'s strict setting)'))
    .option('--dry-run', 'validate and print what would be sent, sending nothing')
    .option('--launch', 'launch right after creating (asks first; --yes to skip the question)')));
}

/** @internal */
export function redialOptions(cmd: Command<[string]>) {
  return hoursOptions(exclusionOptions(splitOptions(cmd
    .option('--status <statuses>', 'contact statuses to call again, comma-separated (default: no_answer,failed)', commaList)
    .option('--outcome <outcomes>', 'only contacts whose call had one of these outcomes, e.g. callback_scheduled (any status unless --status)', commaList)
    .option('--exclude-outcome <outcomes>', 'never call contacts whose call had these outcomes (default: do_not_call)', commaList)
    .option('--name <name>', 'the new campaign\'s name (default: "<original> (redial)")')
    .option('--agent <agent>', 'agent id or exact name (default: the original campaign\'s agent)')
    .option('--default-country <cc>', 'country for numbers written without +, in exclude files and as the service returns the contacts (default: the profile\'s default_country)'))
    .option('--dry-run', 'show what would be created, sending nothing')
    .option('--launch', 'launch right after creating (asks first; --yes to skip the question)')
    // --at-requested-time: a campaign run that holds each callback until its time.
    .option('--at-requested-time', 'start a campaign run that calls each contact back no earlier than the time they asked for (read as `campaign followups` reads it), inside calling hours; voicectl keeps running to release each wave')
    .option('--wave-size <n>', 'with --at-requested-time: the most contacts in one wave (default 500)', positiveInt)
    .option('--journal <file>', 'with --at-requested-time: where the run keeps its state (default: campaign-ID.callbacks.run.json)')));
}

const collect = (v: string, previous: string[] | undefined) => [...(previous ?? []), v];

/** @internal */
export function runOptions(cmd: Command<[string | undefined, string | undefined]>) {
  return exclusionOptions(cmd
    .option('--name <name>', 'the run\'s name; each wave is a campaign named "NAME (wave N, run ID)"')
    .option('--agent <agent>', 'agent id or exact name')
    .option('--csv <file>', 'contacts spreadsheet: .csv or .xlsx')
    .option('--contacts <file.json>', 'contacts as a JSON array of {phone_number, name, extra}')
    .option('--from-campaign <id>', 'the contacts of an existing draft campaign (which itself is never launched)')
    .option('--default-country <cc>', 'country for numbers written without +, e.g. IN (default: the profile\'s default_country)')
    .option('--phone-column <header>', 'the phone column\'s header')
    .option('--name-column <header>', 'the name column\'s header')
    .option('--country-column <header>', 'the column with each row\'s country (US, India, +91 ...) (default: a column headed country, country code or ISO)')
    .option('--keep-duplicates', 'keep rows whose number repeats an earlier row\'s')
    .option('--skip-invalid', 'run with the valid rows and list the skipped ones (default: start nothing if a row is invalid)')
    .option('--strict', 'every warning about the contacts is an error (exit 2, nothing sent): duplicates, numbers read in another country\'s style, missing names (default: the profile\'s strict setting)')
    .option('--campaign-prompt <text>', 'extra instruction for the agent in every wave')
    .option('--kb <ids>', 'knowledge-base item ids for every wave, comma-separated', commaList)
    .option('--policy <file.yaml>', 'the policy (calling hours, wave size, cap, retries, deadline, exclusions) from a YAML file; the flags given here win over it (schema: voicectl schema --run-policy)')
    .option('--calling-hours <window>', 'local-time window, repeatable: 09:00-21:00 for all, US=08:00-21:00 for one country (default: the profile\'s calling_hours, else 09:00-21:00)', collect)
    .option('--wave-size <n>', 'the most contacts in one wave (default 500): the only concurrency lever the API allows, since a launch dials a whole campaign at once', positiveInt)
    .option('--daily-cap <n>', 'the most contacts dialed per day (in your zone, --tz) across all waves', positiveInt)
    .option('--attempts <n>', 'dial attempts per contact, the first included (default 1)', positiveInt)
    .option('--retry-after <span>', 'wait before another attempt, e.g. 2h (default 2h)', (v: string) => spanMs(v))
    .option('--retry-on <statuses>', 'statuses that earn another attempt (default no_answer,failed); a do_not_call outcome never does', commaList)
    .option('--deadline <time>', 'release no wave after this: a date-time (in your zone without an offset) or a span from now such as 36h')
    .option('--journal <file>', 'where the run keeps its state (default: NAME.run.json beside the contacts file)')
    .option('--resume <journal>', 'continue a run from its journal (after Ctrl-C, a crash or a pause)')
    .option('--accept-rates', 'with --resume after the answer-rate breaker paused the run: take the rate it saw as the new baseline')
    .addOption(new Option('--breaker <mode>', 'the answer-rate breaker: pause the run (exit 7) when connects collapse or failures rise, warn and go on, or off (default: the policy file\'s breaker, else pause)').choices(['off', 'warn', 'pause']))
    .option('--baseline-connect-rate <share>', 'the connect rate the breaker compares with, 0 to 1 (default: the policy file\'s, else the agent\'s recent calls, else the run\'s first 200 dials)', shareOf)
    .option('--rate-card <file.yaml>', 'your prices per country (currency, rates: {IN: {per_minute, connection, min_seconds}}): the forecast\'s cost range, the spend in run status and the report (default: the policy file\'s rate_card, else the profile\'s)')
    .option('--rehearse', 'play the whole run first on a sandbox inside voicectl, days in seconds: no key needed, nothing but reads sent to your account; ends with the report and the forecast beside what happened')
    .option('--html <file>', 'with --rehearse: the rehearsal\'s report as a page too')
    .option('--dry-run', 'print the forecast and the wave plan; send nothing but reads'));
}

/** A share from 0 to 1, or a percentage such as 52%. */
function shareOf(value: string): number {
  const pct = value.trim().endsWith('%');
  const n = Number(pct ? value.trim().slice(0, -1) : value) / (pct ? 100 : 1);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new InvalidArgumentError('expected a share above 0 and at most 1, such as 0.52 or 52%.');
  return n;
}

/** @internal */
export function reportOptions(cmd: Command<[string[]]>) {
  return cmd
    .addOption(new Option('--format <format>', 'md (for CI job summaries) or json; default: a summary at a terminal').choices(['md', 'json']))
    .option('--html <file>', 'also write one self-contained page with charts and a searchable table of calls')
    .option('--no-transcripts', 'leave transcripts out of the page (one request fewer per connected call)')
    .option('--recordings', 'in the page, an audio player for each recorded call; its link is fetched now and expires after an hour')
    .option('--name-prefix <prefix>', 'add every campaign whose name starts with PREFIX')
    .option('--run <journal>', 'report a campaign run from its journal: the run as one campaign, then a section per wave and per zone')
    .option('--rate-card <file.yaml>', 'your prices per country (currency, rates: {IN: {per_minute, connection, min_seconds}}): the spend so far, per country (default: the run\'s own with --run, else the profile\'s rate_card)');
}

/** @internal */
export function followupsOptions(cmd: Command<[string[]]>) {
  return cmd
    .option('--out <file>', 'write a spreadsheet: FILE.xlsx (phone numbers as text, times as dates) or FILE.csv')
    .option('--outcomes <outcomes>', 'the outcomes that need a follow-up, comma-separated (default: callbacks, messages taken and interested leads)', commaList)
    .option('--run <journal>', 'the follow-ups of every wave of a campaign run, from its journal');
}

/** @internal */
export function listOptions(cmd: Command) {
  return cmd
    .option('--status <status>', 'only campaigns with this status: draft, running or completed')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)', pageLimit)
    .option('--offset <n>', 'skip this many campaigns', nonNegativeInt);
}

/** @internal */
export function contactsOptions(cmd: Command<[string]>) {
  return cmd
    .option('--status <status>', `only contacts with this status: ${STATUSES}`);
}

/** @internal */
export type ExclusionOptionFlags = FlagsOf<typeof exclusionOptions<[], {}, {}>>;
/** @internal */
export type CreateFlags = FlagsOf<typeof createOptions>;
/** @internal */
export type RedialFlags = FlagsOf<typeof redialOptions>;
/** @internal */
export type LaunchFlags = FlagsOf<typeof hoursOptions<[string], {}, {}>>;
/** @internal */
export type RunFlags = FlagsOf<typeof runOptions>;
/** @internal */
export type ReportFlags = FlagsOf<typeof reportOptions>;
/** @internal */
export type FollowupsFlags = FlagsOf<typeof followupsOptions>;
/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
/** @internal */
export type ContactsFlags = FlagsOf<typeof contactsOptions>;

const idArgument = () => new Argument('<id>', 'the campaign\'s id');

/** @internal */
export const campaign: Group = {
  name: 'campaign', alias: 'campaigns', summary: 'Create, launch and follow calling campaigns',
  verbs: [
    verb({ name: 'create', summary: 'Create a campaign (a draft: nothing is dialed) from a spreadsheet or a JSON file of contacts', action: () => import('./create.js'),
      options: createOptions,
      help: [`Every row is checked before anything is sent: numbers are normalized to E.164 and must be
valid for their country. One invalid row and nothing is created (exit 2), with the row
numbers as a spreadsheet shows them (the header is row 1). \`voicectl contacts validate\`
runs the same checks on their own.`],
      examples: [{ command: 'voicectl campaign create --name "Diwali offer" --agent "Sales desk" --csv leads.csv --default-country IN' }, { command: 'voicectl campaign create --name Survey --agent AGENT_ID --contacts contacts.json --dry-run --json' }, { command: ['voicectl campaign create --name "Week 2" --agent "Sales desk" --csv leads.csv --default-country IN', '--exclude do-not-call.csv --exclude-called-within 7d --dry-run --json'], }] }),
    verb({ name: 'launch', summary: 'Launch a draft campaign: dials every pending contact (real calls that use balance)', action: () => import('./launch.js'),
      arguments: [idArgument()], options: (cmd: Command) => hoursOptions(cmd),
      help: [`Asks for confirmation on a terminal; elsewhere (CI, --no-input) pass --yes.
Refuses (exit 2) when a pending contact is outside calling hours in its own time zone
(from its number), and says when the window opens for all of them.`],
      examples: [{ command: 'voicectl campaign launch CAMPAIGN_ID --yes' }, { command: 'voicectl campaign launch CAMPAIGN_ID --calling-hours 10:00-19:00 --wait-for-calling-hours --yes' }] }),
    verb({ name: 'redial', summary: 'Create a draft campaign that calls a campaign\'s unanswered contacts again (never those who asked not to be called)', action: () => import('./redial.js'),
      arguments: [new Argument('<id>', 'the campaign to redial')], options: redialOptions,
      help: [`Contacts keep their name and extra. Outcomes are read from the campaign's calls; a
contact whose call ended with an excluded outcome is never included, whatever its status.`],
      examples: [{ command: 'voicectl campaign redial CAMPAIGN_ID --dry-run' }, { command: 'voicectl campaign redial CAMPAIGN_ID --status no_answer --exclude do-not-call.csv --name "Diwali offer, second try"' }, { command: 'voicectl campaign redial CAMPAIGN_ID --outcome callback_scheduled --launch --yes' }] }),
    verb({ name: 'run', summary: 'Release a list as a series of small campaigns ("waves"), each only when its contacts\' calling windows are open; retries, daily cap, deadline; crash-safe', action: () => import('./run.js'),
      arguments: [
        new Argument('[status]', '"status" to read a run\'s journal and the service, releasing nothing'),
        new Argument('[journal]', 'the journal, with status'),
      ],
      options: runOptions,
      help: [`Each wave is one campaign, created and then launched, holding contacts whose
local calling window is open now and stays open for the wave's expected length
(from this agent's past calls). The run's whole state is in one journal file,
written before every create and every launch: after Ctrl-C or a crash, --resume
continues without creating or launching any wave twice. A released wave cannot
be stopped: the API has no cancel. Ctrl-C stops releasing waves; calls in flight
finish on the service. Details: docs/campaign-run.md.`],
      examples: [{ command: ['voicectl campaign run --name "Renewals" --agent "Sales desk" --csv leads.csv', '--default-country IN --dry-run'] }, { command: ['voicectl campaign run --name "Renewals" --agent "Sales desk" --csv leads.csv', '--default-country IN --calling-hours 10:00-19:00 --calling-hours US=08:00-20:00', '--wave-size 25 --deadline 3d --yes'], }, { command: 'voicectl campaign run status leads.run.json' }, { command: 'voicectl campaign run --resume leads.run.json --yes' }] }),
    verb({ name: 'report', summary: 'The numbers a manager asks for: contacts by status, connect rate, outcomes, durations, calls per hour', action: () => import('./report.js'),
      arguments: [new Argument('[ids...]', 'one campaign, or several side by side')], options: reportOptions,
      help: [`Connect rate: connected calls (status completed) of finished calls. Times and hours are in
your zone (--tz); --json keeps UTC. The page (--html) groups outcomes into success, neutral,
failure and no contact, and works offline; with --recordings it holds each call's recording
link, which expires after an hour. Details: docs/reports.md.`],
      examples: [{ command: 'voicectl campaign report CAMPAIGN_ID' }, { command: 'voicectl campaign report CAMPAIGN_ID --format md >> "$GITHUB_STEP_SUMMARY"' }, { command: 'voicectl campaign report --name-prefix "Renewals" --html renewals.html' }, { command: 'voicectl campaign report CAMPAIGN_ID --html report.html --recordings' }] }),
    verb({ name: 'followups', summary: 'Who needs a person\'s call after a campaign: callbacks at the time asked for, messages taken, interested leads', action: () => import('./followups.js'),
      arguments: [new Argument('[ids...]', 'one campaign or several (or --run JOURNAL)')], options: followupsOptions,
      help: [`One row per contact whose latest call needs a follow-up. A callback's requested time is read
from the summary, else from the transcript ("tomorrow at 4 pm", "kal shaam 5 baje", "next
Monday morning"), as a time in the contact's zone (extra.timezone, else the number's, else
yours); where none can be read the cell is empty and the words are shown. Details:
docs/reports.md.`, tableHelp(['PHONE', 'NAME', 'FOLLOW-UP', 'REQUESTED'], 'REQUESTED is the whole time with its zone.')],
      examples: [{ command: 'voicectl campaign followups CAMPAIGN_ID' }, { command: 'voicectl campaign followups CAMPAIGN_ID --out followups.xlsx' }, { command: 'voicectl campaign followups CAMPAIGN_ID --out followups.csv --outcomes callback_scheduled,message_taken' }, { command: 'voicectl campaign followups CAMPAIGN_ID --json' }] }),
    verb({ name: 'list', alias: 'ls', summary: 'List campaigns', options: listOptions, action: () => import('./list.js'),
      help: [tableHelp(['ID', 'NAME', 'STATUS', 'CONTACTS', 'PROGRESS', 'CREATED'], 'CREATED is there when the service says when a campaign was created.')],
      examples: [{ command: 'voicectl campaign list' }, { command: 'voicectl campaign list --status running --json' }] }),
    verb({ name: 'get', summary: 'Show a campaign: its status and how many contacts are in each state', arguments: [idArgument()], action: () => import('./get.js'),
      examples: [{ command: 'voicectl campaign get CAMPAIGN_ID' }, { command: 'voicectl campaign get CAMPAIGN_ID --json | jq .contacts_by_status' }] }),
    verb({ name: 'contacts', summary: 'List a campaign\'s contacts with their status and call ids', arguments: [idArgument()], options: contactsOptions, action: () => import('./contacts.js'),
      help: [tableHelp(['NUMBER', 'NAME', 'STATUS', 'CALL ID'])],
      examples: [{ command: 'voicectl campaign contacts CAMPAIGN_ID' }, { command: 'voicectl campaign contacts CAMPAIGN_ID --status failed -o csv > failed.csv' }] }),
  ],
};
