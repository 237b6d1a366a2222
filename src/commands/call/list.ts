import type { Context } from '../../context.js';
import { allCalls, listCalls, type Call } from '../../api/calls.js';
import { collectAll, type IncompleteListError } from '../../api/pagination.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { safeCell } from '../../export/csv.js';
import { CALL_CSV_COLUMNS, callColumns, filtersFrom } from './fields.js';

interface Flags {
  campaign?: string;
  since?: Date;
  until?: Date;
  status?: string;
  all?: boolean;
  limit?: number;
  offset?: number;
}

export default async function callList(ctx: Context, flags: Flags): Promise<void> {
  const api = await ctx.api();
  const filters = filtersFrom(flags);
  let calls: Call[];
  let total: number | undefined;
  let incomplete: IncompleteListError | undefined;
  if (flags.all) {
    ({ items: calls, incomplete } = await withSpinner(ctx, 'Fetching calls', () => collectAll(allCalls(api, filters, { offset: flags.offset, signal: ctx.signal }))));
  } else {
    ({ items: calls, total } = await withSpinner(ctx, 'Fetching calls', () => listCalls(api, filters, { limit: flags.limit, offset: flags.offset }, ctx.signal)));
  }
  if (ctx.format === 'csv') {
    // Contact names and summaries are other people's text: escaped against formula injection.
    ctx.out(CALL_CSV_COLUMNS.map((c) => c.header).join(','));
    for (const c of calls) ctx.out(CALL_CSV_COLUMNS.map((col) => safeCell(c[col.key!])).join(','));
  } else {
    await printList(ctx, calls, callColumns(ctx.io.stdout.columns), { empty: 'No calls match.' });
  }
  if (!ctx.machineOutput && total !== undefined && total > (flags.offset ?? 0) + calls.length) {
    ctx.info(ctx.errColor.dim(`Showing ${calls.length} of ${total}. Use --all for every call, or \`voicectl call export\` for files.`));
  }
  // What was read is printed; the exit status says it is not the whole list.
  if (incomplete) throw incomplete;
}
