/**
 * The options of the contacts verbs, declared once: each verb's flags type is derived
 * from its definition, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { type FlagsOf } from '../shared.js';

/** --default-country: two letters, upper-cased; whether libphonenumber knows it is checked when the file is read. */
/** @internal */
export function countryCode(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value.trim())) throw new InvalidArgumentError('expected a two-letter country code such as IN, US or GB.');
  return value.trim().toUpperCase();
}

/** @internal */
export function validateOptions<A extends unknown[]>(cmd: Command<A>) {
  return cmd
    .option('--default-country <cc>', 'country for numbers written without +, e.g. IN (default: the profile\'s default_country)', countryCode)
    .option('--phone-column <header>', 'the phone column\'s header, when it is not phone, mobile, number, whatsapp ...')
    .option('--name-column <header>', 'the name column\'s header, when it is not name, customer name, contact name, lead name, full name or first + last name')
    .option('--sheet <name|n>', 'the workbook\'s sheet to read, by name or number from 1 (default: the first)')
    .option('--keep-duplicates', 'keep rows whose number repeats an earlier row\'s (still reported)')
    .option('--errors-out <file>', 'write every bad row to this CSV, with an error column, to fix in a spreadsheet');
}

/** @internal */
export type ValidateFlags = FlagsOf<typeof validateOptions>;
