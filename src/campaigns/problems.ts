/**
 * What the user sees about the file before anything is sent: the summary line, the
 * first problems as a table (row, column, value, reason), the rows --skip-invalid
 * leaves out and the duplicates dropped. All on stderr: stdout is for what was created.
 */
import type { Context } from '../context.js';
import type { RowError } from '../contacts/index.js';
import { MAX_CONTACTS_PER_CAMPAIGN, strictError } from '../contacts/report.js';
import { UsageError } from '../errors.js';
import { render } from '../io/render.js';
import type { ContactsInput } from './input.js';
import { grouped, plural, truncate, shellQuote } from '../text/text.js';

const FIRST_PROBLEMS = 20;
const MAX_LISTED = 100;

export function summaryLine(input: ContactsInput): string {
  const r = input.report;
  const unit = input.kind === 'csv' ? 'row' : 'item';
  const parts = [`${plural(r.total_rows, unit)}`, `${grouped(r.valid)} valid`, `${grouped(r.invalid)} invalid`];
  if (r.duplicates > 0) parts.push(`${plural(r.duplicates, 'duplicate')}`);
  return `${input.fileName}: ${parts.join(', ')}${input.countryColumn !== undefined ? ` (country column "${input.countryColumn}")` : ''}`;
}

/** The summary and a table of the first problems, as `contacts validate` shows them. */
export function printProblems(ctx: Context, input: ContactsInput): void {
  const c = ctx.errColor;
  ctx.info(summaryLine(input));
  const errors = input.report.errors;
  if (errors.length === 0) return;
  const shown = errors.slice(0, FIRST_PROBLEMS);
  const head = [input.kind === 'csv' ? 'ROW' : 'ITEM', 'COLUMN', 'VALUE', 'REASON'];
  const rows = shown.map((e) => [String(e.row), e.column, truncate(e.value, 30), e.message]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  ctx.info('');
  ctx.info(c.bold(head.map((h, i) => (i < head.length - 1 ? h.padEnd(widths[i]!) : h)).join('  ')));
  for (const r of rows) ctx.info(r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '));
  if (errors.length > shown.length) ctx.info(c.dim(`… and ${grouped(errors.length - shown.length)} more.`));
}

/** --skip-invalid: every row left out, with its reason (the first hundred, then a count). */
export function printSkipped(ctx: Context, input: ContactsInput): void {
  const errors = input.report.errors;
  if (errors.length === 0) return;
  ctx.warn(`skipping ${plural(errors.length, input.kind === 'csv' ? 'invalid row' : 'invalid item')} of ${input.fileName} (--skip-invalid):`);
  for (const e of errors.slice(0, MAX_LISTED)) ctx.info(`  ${skippedLine(input, e)}`);
  if (errors.length > MAX_LISTED) {
    ctx.info(ctx.errColor.dim(`  … and ${grouped(errors.length - MAX_LISTED)} more; ${input.kind === 'csv' ? `\`${validateCommand(input)}\` writes them all` : '--json lists them all'}.`));
  }
}

function skippedLine(input: ContactsInput, e: RowError): string {
  const value = e.value.trim() === '' ? '' : ` (${JSON.stringify(truncate(e.value, 40))})`;
  return `${input.where(e.row)}${value}: ${e.message}`;
}

/** Duplicates are not errors, but dropping a row silently would surprise: say which. */
export function printDuplicates(ctx: Context, input: ContactsInput, kept: boolean): void {
  const dups = input.report.duplicate_rows ?? [];
  if (dups.length === 0) return;
  const verb = kept ? 'kept (--keep-duplicates)' : 'dropped';
  ctx.info(ctx.errColor.dim(`${plural(dups.length, 'duplicate number')} ${verb}: ${dups.slice(0, 5).map((d) => `${input.where(d.row)} repeats ${input.where(d.first_row)}`).join('; ')}${dups.length > 5 ? '; …' : ''}.`));
}

/**
 * `voicectl contacts validate FILE` with the flags this file was read with, so that it
 * finds the same bad rows, and --errors-out to write them to a file.
 */
export function validateCommand(input: ContactsInput): string {
  return ['voicectl', 'contacts', 'validate', input.path, ...input.reading, '--errors-out', 'bad-rows.csv'].map(shellQuote).join(' ');
}

export interface ContactChecks {
  /** Leave invalid rows out (listed), rather than stop. */
  skipInvalid?: boolean;
  keepDuplicates?: boolean;
  /** --strict or the profile's strict setting: every warning stops it. */
  strict?: boolean;
  /** What --skip-invalid would do with the other contacts: "create the campaign", "start the run". */
  goal: string;
}

/**
 * What `campaign create` and `campaign run` do with a file's problems before anything is
 * sent: invalid rows stop it (exit 2, with their rows and the command that lists them
 * all) unless --skip-invalid, which lists the rows it leaves out; the summary, the
 * warnings and the duplicates dropped; with --strict, any warning stops it.
 */
export async function settleContacts(ctx: Context, input: ContactsInput, checks: ContactChecks): Promise<void> {
  if (input.report.invalid > 0 && !checks.skipInvalid) await rejectInvalid(ctx, input, checks.goal);
  ctx.info(summaryLine(input));
  if (input.controlWarning) ctx.warn(input.controlWarning);
  for (const w of input.styleWarnings ?? []) ctx.warn(w);
  if (input.unnamedWarning) ctx.warn(input.unnamedWarning);
  if (checks.skipInvalid) printSkipped(ctx, input);
  printDuplicates(ctx, input, Boolean(checks.keepDuplicates));
  if (input.contacts.length === 0) throw new UsageError(`${input.fileName} has no valid contacts to send.`);
  if (checks.strict) {
    const problems = strictProblems(input);
    if (problems.length > 0) throw strictError(input.fileName, problems);
  }
}

/** What --strict refuses in contacts that are otherwise fine: every warning about them. */
export function strictProblems(input: ContactsInput): string[] {
  const problems: string[] = [];
  if (input.controlWarning) problems.push('rows with control characters');
  const styled = input.styleWarnings?.length ?? 0;
  if (styled > 0) problems.push('numbers read with --default-country that are written in another country\'s style');
  const unnamed = input.contacts.filter((c) => c.name === undefined).length;
  if (unnamed > 0) problems.push(`${plural(unnamed, 'contact')} without a name`);
  if (input.report.duplicates > 0) problems.push(`${plural(input.report.duplicates, 'duplicate')} (rows repeating an earlier row's number)`);
  return problems;
}

/** Invalid rows without --skip-invalid: the report (--json), the first problems, and exit 2 with what --skip-invalid would send. */
async function rejectInvalid(ctx: Context, input: ContactsInput, goal: string): Promise<never> {
  await render(ctx, { json: input.report });
  printProblems(ctx, input);
  const { invalid } = input.report;
  const unit = input.kind === 'csv' ? 'row' : 'item';
  // What --skip-invalid would really send: the valid rows, less the repeated numbers dropped.
  const send = input.contacts.length;
  const dropped = send < input.report.valid ? ` (the valid ${unit}s less ${plural(input.report.valid - send, 'repeated number')})` : '';
  throw new UsageError(`${plural(invalid, unit)} of ${input.fileName} ${invalid === 1 ? 'is' : 'are'} invalid, so nothing was sent.`, {
    code: 'invalid_rows',
    details: { total_rows: input.report.total_rows, invalid, errors: input.report.errors },
    hint: `Fix ${invalid === 1 ? 'it' : 'them'} and run the command again, or add --skip-invalid to ${goal} with the other ${plural(send, 'contact')}${dropped}.`
      + (goal === CREATE_GOAL && send > MAX_CONTACTS_PER_CAMPAIGN ? ' That is more than one campaign takes: add --split as well.' : '')
      + (input.kind === 'csv' ? ` \`${validateCommand(input)}\` writes every bad row to a file to fix in a spreadsheet.` : ''),
  });
}

export const CREATE_GOAL = 'create the campaign';
export const RUN_GOAL = 'start the run';
