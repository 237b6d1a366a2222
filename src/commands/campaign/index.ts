import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from '../../context.js';
import { commaList, group, lazy, nonNegativeInt, pageLimit, positiveInt } from '../shared.js';
import { watchVerb } from '../watch-verb.js';

const STATUSES = 'pending, initiated, completed, no_answer or failed';

/** --exclude, --exclude-called-within, --no-default-exclude: shared by create and redial. */
function exclusionOptions(cmd: Command): Command {
  return cmd
    .option('--exclude <files...>', 'leave out the numbers in these files: CSV or .xlsx with a phone column, or one number a line')
    .option('--exclude-called-within <span>', 'leave out numbers with a call started in this span, e.g. 7d, 36h, 90m', (v: string) => spanMs(v))
    .option('--no-default-exclude', 'do not apply the profile\'s do_not_call_file');
}

/** The calling-hours flags of every verb that dials. */
function hoursOptions(cmd: Command): Command {
  return cmd
    .option('--calling-hours <window>', 'local-time window for dialing, e.g. 10:00-19:00 (default: the profile\'s calling_hours, else 09:00-21:00)')
    .option('--ignore-calling-hours', 'launch even when contacts are outside calling hours')
    .option('--wait-for-calling-hours', 'when contacts are outside calling hours, wait until the window opens for all, then launch');
}

function spanMs(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/i.exec(v.trim());
  const unit: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  const ms = m ? Number(m[1]) * unit[m[2]!.toLowerCase()]! : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new InvalidArgumentError('expected a span such as 7d, 36h, 90m or 2w.');
  return ms;
}

export function campaignCommand(ctx: Context): Command {
  const campaign = group('campaign');

  const create = campaign
    .command('create')
    .description('Create a campaign (a draft: nothing is dialed) from a spreadsheet or a JSON file of contacts')
    .requiredOption('--name <name>', 'campaign name')
    .requiredOption('--agent <agent>', 'agent id or exact name')
    .option('--csv <file>', 'contacts spreadsheet: .csv (comma, semicolon or tab separated) or .xlsx')
    .option('--contacts <file.json>', 'contacts as a JSON array of {phone_number, name, extra}')
    .option('--default-country <cc>', 'country for numbers written without +, e.g. IN (default: the profile\'s default_country)')
    .option('--phone-column <header>', 'the phone column\'s header (default: found by name: phone, mobile, number ...)')
    .option('--name-column <header>', 'the name column\'s header (default: name, full name, or first + last name)')
    .option('--campaign-prompt <text>', 'extra instruction for the agent in this campaign')
    .option('--kb <ids>', 'knowledge-base item ids for this campaign, comma-separated (override the agent\'s)', commaList)
    .option('--skip-invalid', 'create with the valid rows and list the skipped ones (default: send nothing if a row is invalid)')
    .option('--keep-duplicates', 'keep rows whose number repeats an earlier row\'s (default: drop them)')
    .option('--split', 'over 10,000 contacts: create several campaigns named "NAME (1/3)", "NAME (2/3)" ...')
    .option('--split-from <n>', 'with --split: start at part N (to finish a split that stopped part-way)', positiveInt)
    .option('--dry-run', 'validate and print what would be sent, sending nothing')
    .option('--launch', 'launch right after creating (asks first; --yes to skip the question)');
  hoursOptions(exclusionOptions(create))
    .addHelpText('after', `
Every row is checked before anything is sent: numbers are normalized to E.164 and must be
valid for their country. One invalid row and nothing is created (exit 2), with the row
numbers as a spreadsheet shows them (the header is row 1). \`voicectl contacts validate\`
runs the same checks on their own.

Examples:
  voicectl campaign create --name "Diwali offer" --agent "Sales desk" --csv leads.csv --default-country IN
  voicectl campaign create --name Survey --agent AGENT_ID --contacts contacts.json --dry-run --json
  voicectl campaign create --name "Week 2" --agent "Sales desk" --csv leads.csv --default-country IN \\
    --exclude do-not-call.csv --exclude-called-within 7d --dry-run --json`)
    .action(lazy(ctx, () => import('./create.js')));

  const launch = campaign
    .command('launch')
    .description('Launch a draft campaign: dials every pending contact (real calls that use balance)')
    .argument('<id>', 'the campaign\'s id');
  hoursOptions(launch)
    .addHelpText('after', `
Asks for confirmation on a terminal; elsewhere (CI, --no-input) pass --yes.
Refuses (exit 2) when a pending contact is outside calling hours in its own time zone
(from its number), and says when the window opens for all of them.

Examples:
  voicectl campaign launch CAMPAIGN_ID --yes
  voicectl campaign launch CAMPAIGN_ID --calling-hours 10:00-19:00 --wait-for-calling-hours --yes`)
    .action(lazy(ctx, () => import('./launch.js')));

  const redial = campaign
    .command('redial')
    .description('Create a draft campaign that calls a campaign\'s unanswered contacts again (never those who asked not to be called)')
    .argument('<id>', 'the campaign to redial')
    .option('--status <statuses>', 'contact statuses to call again, comma-separated (default: no_answer,failed)', commaList)
    .option('--outcome <outcomes>', 'only contacts whose call had one of these outcomes, e.g. callback_scheduled (any status unless --status)', commaList)
    .option('--exclude-outcome <outcomes>', 'never call contacts whose call had these outcomes (default: do_not_call)', commaList)
    .option('--name <name>', 'the new campaign\'s name (default: "<original> (redial)")')
    .option('--agent <agent>', 'agent id or exact name (default: the original campaign\'s agent)')
    .option('--default-country <cc>', 'country for numbers written without + in exclude files (default: the profile\'s default_country)')
    .option('--split', 'over 10,000 contacts: create several campaigns named "NAME (1/3)", "NAME (2/3)" ...')
    .option('--split-from <n>', 'with --split: start at part N (to finish a split that stopped part-way)', positiveInt)
    .option('--dry-run', 'show what would be created, sending nothing')
    .option('--launch', 'launch right after creating (asks first; --yes to skip the question)');
  hoursOptions(exclusionOptions(redial))
    .addHelpText('after', `
Contacts keep their name and extra. Outcomes are read from the campaign's calls; a
contact whose call ended with an excluded outcome is never included, whatever its status.

Examples:
  voicectl campaign redial CAMPAIGN_ID --dry-run
  voicectl campaign redial CAMPAIGN_ID --status no_answer --exclude do-not-call.csv --name "Diwali offer, second try"
  voicectl campaign redial CAMPAIGN_ID --outcome callback_scheduled --launch --yes`)
    .action(lazy(ctx, () => import('./redial.js')));

  campaign
    .command('report')
    .description('The numbers a manager asks for: contacts by status, connect rate, outcomes, durations, calls per hour')
    .argument('[ids...]', 'one campaign, or several side by side')
    .addOption(new Option('--format <format>', 'md (for CI job summaries) or json; default: a summary at a terminal').choices(['md', 'json']))
    .option('--html <file>', 'also write one self-contained page with charts and a searchable table of calls')
    .option('--no-transcripts', 'leave transcripts out of the page (one request fewer per connected call)')
    .option('--name-prefix <prefix>', 'add every campaign whose name starts with PREFIX')
    .addHelpText('after', `
Connect rate: connected calls (status completed) of finished calls. Hours are UTC. Details: docs/reports.md.

Examples:
  voicectl campaign report CAMPAIGN_ID
  voicectl campaign report CAMPAIGN_ID --format md >> "$GITHUB_STEP_SUMMARY"
  voicectl campaign report --name-prefix "Renewals" --html renewals.html`)
    .action(lazy(ctx, () => import('./report.js')));

  campaign
    .command('list')
    .alias('ls')
    .description('List campaigns')
    .option('--status <status>', 'only campaigns with this status: draft, running or completed')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)', pageLimit)
    .option('--offset <n>', 'skip this many campaigns', nonNegativeInt)
    .addHelpText('after', `\nExamples:\n  voicectl campaign list\n  voicectl campaign list --status running --json`)
    .action(lazy(ctx, () => import('./list.js')));

  campaign
    .command('get')
    .description('Show a campaign: its status and how many contacts are in each state')
    .argument('<id>', 'the campaign\'s id')
    .addHelpText('after', `\nExamples:\n  voicectl campaign get CAMPAIGN_ID\n  voicectl campaign get CAMPAIGN_ID --json | jq .contacts_by_status`)
    .action(lazy(ctx, () => import('./get.js')));

  campaign
    .command('contacts')
    .description('List a campaign\'s contacts with their status and call ids')
    .argument('<id>', 'the campaign\'s id')
    .option('--status <status>', `only contacts with this status: ${STATUSES}`)
    .addHelpText('after', `\nExamples:\n  voicectl campaign contacts CAMPAIGN_ID\n  voicectl campaign contacts CAMPAIGN_ID --status failed -o csv > failed.csv`)
    .action(lazy(ctx, () => import('./contacts.js')));

  watchVerb(ctx, campaign.command('watch'));

  return campaign;
}
