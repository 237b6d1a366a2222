import { Command } from 'commander';
import type { Context } from '../../context.js';
import { commaList, group, lazy, nonNegativeInt, pageLimit, positiveInt } from '../shared.js';
import { watchVerb } from '../watch/index.js';

const STATUSES = 'pending, initiated, completed, no_answer or failed';

export function campaignCommand(ctx: Context): Command {
  const campaign = group('campaign', 'Create, launch and follow calling campaigns', 'campaigns');

  campaign
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
    .option('--launch', 'launch right after creating (asks first; --yes to skip the question)')
    .addHelpText('after', `
Every row is checked before anything is sent: numbers are normalized to E.164 and must be
valid for their country. One invalid row and nothing is created (exit 2), with the row
numbers as a spreadsheet shows them (the header is row 1). \`voicectl contacts validate\`
runs the same checks on their own.

Examples:
  voicectl campaign create --name "Diwali offer" --agent "Sales desk" --csv leads.csv --default-country IN
  voicectl campaign create --name Survey --agent 3f1c... --contacts contacts.json --dry-run --json`)
    .action(lazy(ctx, () => import('./create.js')));

  campaign
    .command('launch')
    .description('Launch a draft campaign: dials every pending contact (real calls that use balance)')
    .argument('<id>', 'the campaign\'s id')
    .addHelpText('after', '\nAsks for confirmation on a terminal; elsewhere (CI, --no-input) pass --yes.')
    .action(lazy(ctx, () => import('./launch.js')));

  campaign
    .command('list')
    .alias('ls')
    .description('List campaigns')
    .option('--status <status>', 'only campaigns with this status: draft, running or completed')
    .option('--all', 'every page, not just the first')
    .option('--limit <n>', 'page size, 1 to 200 (default 50)', pageLimit)
    .option('--offset <n>', 'skip this many campaigns', nonNegativeInt)
    .action(lazy(ctx, () => import('./list.js')));

  campaign
    .command('get')
    .description('Show a campaign: its status and how many contacts are in each state')
    .argument('<id>', 'the campaign\'s id')
    .action(lazy(ctx, () => import('./get.js')));

  campaign
    .command('contacts')
    .description('List a campaign\'s contacts with their status and call ids')
    .argument('<id>', 'the campaign\'s id')
    .option('--status <status>', `only contacts with this status: ${STATUSES}`)
    .action(lazy(ctx, () => import('./contacts.js')));

  watchVerb(ctx, campaign.command('watch'));

  return campaign;
}
