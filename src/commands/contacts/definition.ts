/**
 * The contacts verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';
import { verb, type Group } from '../spec.js';

/** @internal */
export type ValidateFlags = FlagsOf<typeof validateOptions>;

/** --default-country: two letters, upper-cased; whether libphonenumber knows it is checked when the file is read. */
/** @internal */
export function countryCode(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value.trim())) throw new InvalidArgumentError('expected a two-letter country code such as IN, US or GB.');
  return value.trim().toUpperCase();
}

/** @internal */
export const contacts: Group = {
  name: 'contacts', alias: 'contact', summary: 'Check contact spreadsheets (CSV or .xlsx) before a campaign',
  verbs: [
    verb({ name: 'validate', summary: 'Check every row of a CSV or .xlsx file: phone numbers, duplicates, row-numbered problems', action: () => import('./validate.js'),
      arguments: [new Argument('<file>', 'a .csv (comma, semicolon or tab separated; UTF-8 or UTF-16) or .xlsx file')],
      options: validateOptions,
      help: ['Exit status 2 when any row is invalid (or the file cannot be read), and with --strict when there is any warning; --json prints the report object.'],
      examples: [{ command: 'voicectl contacts validate fixtures/leads.csv --default-country IN' }, { command: 'voicectl contacts validate fixtures/leads.csv --default-country IN --errors-out bad-rows.csv' }, { command: 'voicectl contacts validate fixtures/leads.csv --default-country IN --json | jq .invalid' }] }),
  ],
};

/** @internal */
export function validateOptions(cmd: Command) {
  return cmd
    .option('--default-country <cc>', 'country for numbers written without +, e.g. IN (default: the profile\'s default_country)', countryCode)
    .option('--phone-column <header>', 'the phone column\'s header, when it is not phone, mobile, number, whatsapp ...')
    .option('--name-column <header>', 'the name column\'s header, when it is not name, customer name, contact name, lead name, full name or first + last name')
    .option('--country-column <header>', 'the column with each row\'s country (US, in, India, UK, +91 ...), read as that row\'s default country (default: a column headed country, country code, country_code or ISO)')
    .option('--sheet <name|n>', 'the workbook\'s sheet to read, by name or number from 1 (default: the first)')
    .option('--keep-duplicates', 'keep rows whose number repeats an earlier row\'s (still reported)')
    .option('--strict', 'every warning is an error (exit 2): duplicates, numbers read in another country\'s style, missing names, more contacts than a campaign holds (default: the profile\'s strict setting)')
    .option('--errors-out <file>', 'write every bad row to this CSV, with an error column, to fix in a spreadsheet');
}
