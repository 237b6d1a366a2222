import { Command, InvalidArgumentError } from 'commander';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';

/** --default-country: two letters, upper-cased; whether libphonenumber knows it is checked when the file is read. */
export function countryCode(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value.trim())) throw new InvalidArgumentError('expected a two-letter country code such as IN, US or GB.');
  return value.trim().toUpperCase();
}

export function contactsCommand(ctx: Context): Command {
  const contacts = group('contacts');
  contacts
    .command('validate')
    .description('Check every row of a CSV or .xlsx file: phone numbers, duplicates, row-numbered problems')
    .argument('<file>', 'a .csv (comma, semicolon or tab separated; UTF-8 or UTF-16) or .xlsx file')
    .option('--default-country <cc>', 'country for numbers written without +, e.g. IN (default: the profile\'s default_country)', countryCode)
    .option('--phone-column <header>', 'the phone column\'s header, when it is not phone, mobile, number, whatsapp ...')
    .option('--name-column <header>', 'the name column\'s header, when it is not name or first/last name')
    .option('--keep-duplicates', 'keep rows whose number repeats an earlier row\'s (still reported)')
    .option('--errors-out <file>', 'write every bad row to this CSV, with an error column, to fix in a spreadsheet')
    .addHelpText('after', '\nExit status 2 when any row is invalid (or the file cannot be read); --json prints the report object.')
    .addHelpText('after', `\nExamples:\n  voicectl contacts validate fixtures/leads.csv --default-country IN\n  voicectl contacts validate fixtures/leads.csv --default-country IN --errors-out bad-rows.csv\n  voicectl contacts validate fixtures/leads.csv --default-country IN --json | jq .invalid`)
    .action(lazy(ctx, () => import('./validate.js')));
  return contacts;
}
