/**
 * What the user sees about the file before anything is sent: the summary line, the
 * first problems as a table (row, column, value, reason), the rows --skip-invalid
 * leaves out and the duplicates dropped. All on stderr: stdout is for what was created.
 */
import type { Context } from '../context.js';
import type { RowError } from '../contacts/index.js';
import type { ContactsInput } from './input.js';
import { plural, truncate } from '../text/text.js';

const FIRST_PROBLEMS = 20;
const MAX_LISTED = 100;

export function summaryLine(input: ContactsInput): string {
  const r = input.report;
  const unit = input.kind === 'csv' ? 'row' : 'item';
  const parts = [`${plural(r.total_rows, unit)}`, `${r.valid.toLocaleString('en-US')} valid`, `${r.invalid.toLocaleString('en-US')} invalid`];
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
  if (errors.length > shown.length) ctx.info(c.dim(`… and ${(errors.length - shown.length).toLocaleString('en-US')} more.`));
}

/** --skip-invalid: every row left out, with its reason (the first hundred, then a count). */
export function printSkipped(ctx: Context, input: ContactsInput): void {
  const errors = input.report.errors;
  if (errors.length === 0) return;
  ctx.warn(`skipping ${plural(errors.length, input.kind === 'csv' ? 'invalid row' : 'invalid item')} of ${input.fileName} (--skip-invalid):`);
  for (const e of errors.slice(0, MAX_LISTED)) ctx.info(`  ${skippedLine(input, e)}`);
  if (errors.length > MAX_LISTED) {
    ctx.info(ctx.errColor.dim(`  … and ${(errors.length - MAX_LISTED).toLocaleString('en-US')} more; \`voicectl contacts validate ${input.path} --errors-out bad-rows.csv\` writes them all.`));
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
