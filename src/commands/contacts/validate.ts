import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { SilentExit } from '../../errors.js';
// Not contacts/index.js: that loads libphonenumber, which a large file needs only in its worker threads.
import { validateContactsFile } from '../../contacts/validate.js';
import { readingArgs } from '../../contacts/options.js';
import type { RowError } from '../../contacts/index.js';
import { contactsToSend, controlCharacterWarning, foreignStyleWarnings, MAX_CONTACTS_PER_CAMPAIGN, splitParts, strictError, unnamedWarning, writeErrorsCsv, type ValidationResult } from '../../contacts/report.js';
import { printFittedTable, type Column } from '../../io/output.js';
import { render } from '../../io/render.js';
import { Counter } from '../../io/progress.js';
import { grouped, plural, shellQuote } from '../../text/text.js';
import type { ValidateFlags } from './definition.js';

type Options = ValidateFlags;

/** Problems shown in the terminal table; --errors-out and --json have them all. */
const SHOWN = 20;

/** -o csv: one line per problem found. */
const ERROR_COLUMNS: Column<RowError>[] = [{ header: 'row', key: 'row' }, { header: 'column', key: 'column' }, { header: 'value', key: 'value' }, { header: 'message', key: 'message' }];

/** The terminal's table of problems: row numbers whole, column names and values cut at 20 and 24, and everything but the row cut further to fit. */
const PROBLEM_TABLE = [{ header: 'ROW' }, { header: 'COLUMN', max: 20 }, { header: 'VALUE', max: 24 }, { header: 'REASON', max: Number.POSITIVE_INFINITY }];

export default async function contactsValidate(ctx: Context, file: string, opts: Options): Promise<void> {
  // Large files take a while: "Checked 120,000 rows…" on a terminal, after half a second.
  const progress = new Counter(ctx, (rows) => ctx.errColor.dim(`Checked ${grouped(rows)} rows…`), { quietMs: 500, everyMs: 100 });
  let result: ValidationResult;
  try {
    result = await validateContactsFile(resolve(ctx.cwd, file), {
      defaultCountry: opts.defaultCountry ?? ctx.settings().defaultCountry,
      phoneColumn: opts.phoneColumn,
      nameColumn: opts.nameColumn,
      countryColumn: opts.countryColumn,
      sheet: opts.sheet,
      keepDuplicates: opts.keepDuplicates,
      collectContacts: false,
      collectInvalidRows: opts.errorsOut !== undefined,
      onProgress: ({ rows }) => progress.update(rows),
      signal: ctx.signal,
    });
  } finally {
    progress.clear();
  }
  const { report } = result;
  // What --strict turns into an error: every warning, and what the summary line points out.
  const problems: string[] = [];
  const control = controlCharacterWarning(file, result);
  if (control) ctx.warn(control);
  if (result.controlRowCount > 0) problems.push(`${plural(result.controlRowCount, 'row')} with control characters`);
  const guessed = foreignStyleWarnings(file, result);
  for (const w of guessed) ctx.warn(w);
  const styled = (result.foreignStyle ?? []).reduce((n, f) => n + f.count, 0);
  if (styled > 0) problems.push(`${plural(styled, 'number')} read with --default-country that ${styled === 1 ? 'is' : 'are'} written in another country's style`);
  const unnamed = unnamedWarning(file, result);
  if (unnamed) ctx.warn(unnamed);
  if (result.unnamedRowCount) problems.push(`${plural(result.unnamedRowCount, 'row')} without a name`);
  if (result.nameColumns.length === 0) problems.push('no name column, so no contact has a name');
  if (report.duplicates > 0) problems.push(`${plural(report.duplicates, 'duplicate')} (rows repeating an earlier row's number)`);

  if (opts.errorsOut !== undefined) {
    await writeErrorsCsv(resolve(ctx.cwd, opts.errorsOut), result);
    ctx.info(report.invalid > 0
      ? `Wrote ${plural(report.invalid, 'bad row')} to ${opts.errorsOut} (original cells plus an "error" column).`
      : `No bad rows; ${opts.errorsOut} has only the header.`);
  }

  await render(ctx, {
    json: report,
    csv: { columns: ERROR_COLUMNS, rows: report.errors },
    human: () => printSummary(ctx, file, result, opts),
  });
  if (splitAdvice(ctx, file, result, opts)) problems.push(`more contacts than one campaign holds (${grouped(contactsToSend(report, opts.keepDuplicates))}, at most ${grouped(MAX_CONTACTS_PER_CAMPAIGN)})`);
  if (report.invalid > 0) {
    throw new SilentExit(2, {
      code: 'invalid_rows',
      message: `${plural(report.invalid, 'row')} of ${file} ${report.invalid === 1 ? 'is' : 'are'} invalid`,
      details: { total_rows: report.total_rows, invalid: report.invalid, errors: report.errors },
    });
  }
  if ((opts.strict || ctx.settings().strict) && problems.length > 0) throw strictError(file, problems);
}

/** 'phone column "Mobile", name column "Customer Name"'; or that no name column was found; and the country column. */
function columnsUsed(result: ValidationResult): string {
  const phone = `phone column "${result.phoneColumn}"${result.countryColumn !== undefined ? `, country column "${result.countryColumn}"` : ''}`;
  const names = result.nameColumns;
  if (names.length === 0) return `${phone}; no name column found, so contacts are sent without names: --name-column "<header>" names one`;
  if (names.length === 1) return `${phone}, name column "${names[0]}"`;
  return `${phone}, names from "${names[0]}" + "${names[1]}"`;
}

/** More contacts than one campaign takes: a warning, with the command that creates them all (true when it warned). */
function splitAdvice(ctx: Context, file: string, result: ValidationResult, opts: Options): boolean {
  const count = contactsToSend(result.report, opts.keepDuplicates);
  if (count <= MAX_CONTACTS_PER_CAMPAIGN) return false;
  const args = ['voicectl', 'campaign', 'create', '--name', 'NAME', '--agent', 'AGENT', '--csv', file];
  args.push(...readingArgs({ ...opts, defaultCountry: opts.defaultCountry ?? ctx.settings().defaultCountry }));
  if (result.report.invalid > 0) args.push('--skip-invalid');
  args.push('--split');
  const parts = splitParts(count);
  ctx.warn(`${file} has ${grouped(count)} contacts to send, and the service takes at most ${grouped(MAX_CONTACTS_PER_CAMPAIGN)} contacts per campaign, so they do not fit in one. `
    + `--split creates ${parts} campaigns, "NAME (1/${parts})" to "NAME (${parts}/${parts})":`);
  ctx.info(`  ${args.map((a) => (a === 'NAME' || a === 'AGENT' ? a : shellQuote(a))).join(' ')}`);
  return true;
}

async function printSummary(ctx: Context, file: string, result: ValidationResult, opts: Options): Promise<void> {
  const { report } = result;
  const c = ctx.color;
  const parts = [
    `${plural(report.total_rows, 'row')}`,
    c.green(`${grouped(report.valid)} valid`),
    report.invalid > 0 ? c.red(`${grouped(report.invalid)} invalid`) : `0 invalid`,
    report.duplicates > 0
      ? c.yellow(`${plural(report.duplicates, 'duplicate')} ${opts.keepDuplicates ? 'kept' : 'dropped'}`)
      : '0 duplicates',
  ];
  // More contacts than a campaign takes is not a clean bill: the line ends in a warning below.
  const over = report.invalid === 0 && contactsToSend(report, opts.keepDuplicates) > MAX_CONTACTS_PER_CAMPAIGN;
  const mark = report.invalid > 0 ? c.red('✗') : over ? c.yellow('!') : c.green('✓');
  ctx.out(`${mark} ${file}: ${parts.join(', ')} (${columnsUsed(result)})`);

  if (report.errors.length > 0) {
    ctx.out();
    // Fits the terminal: the reason, then the value and the column's name are cut (--json has them whole).
    await printFittedTable(ctx, PROBLEM_TABLE, report.errors.slice(0, SHOWN).map((e) => [String(e.row), e.column, e.value, e.message]));
    if (report.errors.length > SHOWN) {
      const more = report.errors.length - SHOWN;
      ctx.out(c.dim(`… and ${plural(more, 'more problem')}. ${opts.errorsOut ? `All are in ${opts.errorsOut}.` : 'Pass --errors-out bad-rows.csv to get every bad row, or --json for the full report.'}`));
    }
  }
  if (report.duplicate_rows.length > 0) {
    ctx.out();
    const shown = report.duplicate_rows.slice(0, 5).map((d) => `row ${d.row} repeats row ${d.first_row} (${d.phone_number})`);
    const rest = report.duplicate_rows.length - shown.length;
    ctx.out(`${c.yellow('Duplicates')}${opts.keepDuplicates ? ' (kept)' : ' (dropped)'}: ${shown.join('; ')}${rest > 0 ? `; and ${grouped(rest)} more` : ''}.`);
  }
  if (report.invalid > 0) {
    const send = contactsToSend(report, opts.keepDuplicates);
    ctx.out();
    ctx.out(c.dim(`Fix these rows and run again: a campaign is not created while any row is invalid (or use campaign create --skip-invalid, which sends the other ${plural(send, 'contact')}${report.duplicates > 0 && !opts.keepDuplicates ? `: the valid rows less ${plural(report.duplicates, 'repeated number')}` : ''}).`));
  }
}

