import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { validateOptions } from './definition.js';

export function contactsCommand(ctx: Context): CommandUnknownOpts {
  const contacts = group('contacts');
  validateOptions(contacts
    .command('validate')
    .description('Check every row of a CSV or .xlsx file: phone numbers, duplicates, row-numbered problems')
    .argument('<file>', 'a .csv (comma, semicolon or tab separated; UTF-8 or UTF-16) or .xlsx file'))
    .addHelpText('after', '\nExit status 2 when any row is invalid (or the file cannot be read); --json prints the report object.')
    .addHelpText('after', `\nExamples:\n  voicectl contacts validate fixtures/leads.csv --default-country IN\n  voicectl contacts validate fixtures/leads.csv --default-country IN --errors-out bad-rows.csv\n  voicectl contacts validate fixtures/leads.csv --default-country IN --json | jq .invalid`)
    .action(lazy(ctx, () => import('./validate.js')));
  return contacts;
}
