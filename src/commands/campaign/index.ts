import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { contactsOptions, createOptions, followupsOptions, hoursOptions, listOptions, redialOptions, reportOptions, runOptions } from './definition.js';
import { watchVerb } from '../watch-verb.js';

export function campaignCommand(ctx: Context): CommandUnknownOpts {
  const campaign = group('campaign');

  createOptions(campaign
    .command('create')
    .description('Create a campaign (a draft: nothing is dialed) from a spreadsheet or a JSON file of contacts'))
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

  redialOptions(campaign
    .command('redial')
    .description('Create a draft campaign that calls a campaign\'s unanswered contacts again (never those who asked not to be called)')
    .argument('<id>', 'the campaign to redial'))
    .addHelpText('after', `
Contacts keep their name and extra. Outcomes are read from the campaign's calls; a
contact whose call ended with an excluded outcome is never included, whatever its status.

Examples:
  voicectl campaign redial CAMPAIGN_ID --dry-run
  voicectl campaign redial CAMPAIGN_ID --status no_answer --exclude do-not-call.csv --name "Diwali offer, second try"
  voicectl campaign redial CAMPAIGN_ID --outcome callback_scheduled --launch --yes`)
    .action(lazy(ctx, () => import('./redial.js')));

  runOptions(campaign
    .command('run')
    .description('Release a list as a series of small campaigns ("waves"), each only when its contacts\' calling windows are open; retries, daily cap, deadline; crash-safe')
    .argument('[status]', '"status" to read a run\'s journal and the service, releasing nothing')
    .argument('[journal]', 'the journal, with status'))
    .addHelpText('after', `
Each wave is one campaign, created and then launched, holding contacts whose
local calling window is open now and stays open for the wave's expected length
(from this agent's past calls). The run's whole state is in one journal file,
written before every create and every launch: after Ctrl-C or a crash, --resume
continues without creating or launching any wave twice. A released wave cannot
be stopped: the API has no cancel. Ctrl-C stops releasing waves; calls in flight
finish on the service. Details: docs/campaign-run.md.

Examples:
  voicectl campaign run --name "Renewals" --agent "Sales desk" --csv leads.csv \\
    --default-country IN --dry-run
  voicectl campaign run --name "Renewals" --agent "Sales desk" --csv leads.csv \\
    --default-country IN --calling-hours 10:00-19:00 --calling-hours US=08:00-20:00 \\
    --wave-size 25 --deadline 3d --yes
  voicectl campaign run status leads.run.json
  voicectl campaign run --resume leads.run.json --yes`)
    .action(lazy(ctx, () => import('./run.js')));

  reportOptions(campaign
    .command('report')
    .description('The numbers a manager asks for: contacts by status, connect rate, outcomes, durations, calls per hour')
    .argument('[ids...]', 'one campaign, or several side by side'))
    .addHelpText('after', `
Connect rate: connected calls (status completed) of finished calls. Times and hours are in
your zone (--tz); --json keeps UTC. The page (--html) groups outcomes into success, neutral,
failure and no contact, and works offline; with --recordings it holds each call's recording
link, which expires after an hour. Details: docs/reports.md.

Examples:
  voicectl campaign report CAMPAIGN_ID
  voicectl campaign report CAMPAIGN_ID --format md >> "$GITHUB_STEP_SUMMARY"
  voicectl campaign report --name-prefix "Renewals" --html renewals.html
  voicectl campaign report CAMPAIGN_ID --html report.html --recordings`)
    .action(lazy(ctx, () => import('./report.js')));

  followupsOptions(campaign
    .command('followups')
    .description('Who needs a person\'s call after a campaign: callbacks at the time asked for, messages taken, interested leads')
    .argument('<ids...>', 'one campaign or several'))
    .addHelpText('after', `
One row per contact whose latest call needs a follow-up. A callback's requested time is read
from the summary, else from the transcript ("tomorrow at 4 pm", "kal shaam 5 baje", "next
Monday morning"), as a time in the contact's zone (extra.timezone, else the number's, else
yours); where none can be read the cell is empty and the words are shown. Details:
docs/reports.md.

Examples:
  voicectl campaign followups CAMPAIGN_ID
  voicectl campaign followups CAMPAIGN_ID --out followups.xlsx
  voicectl campaign followups CAMPAIGN_ID --out followups.csv --outcomes callback_scheduled,message_taken
  voicectl campaign followups CAMPAIGN_ID --json`)
    .action(lazy(ctx, () => import('./followups.js')));

  listOptions(campaign
    .command('list')
    .alias('ls')
    .description('List campaigns'))
    .addHelpText('after', `\nExamples:\n  voicectl campaign list\n  voicectl campaign list --status running --json`)
    .action(lazy(ctx, () => import('./list.js')));

  campaign
    .command('get')
    .description('Show a campaign: its status and how many contacts are in each state')
    .argument('<id>', 'the campaign\'s id')
    .addHelpText('after', `\nExamples:\n  voicectl campaign get CAMPAIGN_ID\n  voicectl campaign get CAMPAIGN_ID --json | jq .contacts_by_status`)
    .action(lazy(ctx, () => import('./get.js')));

  contactsOptions(campaign
    .command('contacts')
    .description('List a campaign\'s contacts with their status and call ids')
    .argument('<id>', 'the campaign\'s id'))
    .addHelpText('after', `\nExamples:\n  voicectl campaign contacts CAMPAIGN_ID\n  voicectl campaign contacts CAMPAIGN_ID --status failed -o csv > failed.csv`)
    .action(lazy(ctx, () => import('./contacts.js')));

  watchVerb(ctx, campaign.command('watch'));

  return campaign;
}
