import type { Context } from '../../context.js';
import { allCalls, listCalls, type Call } from '../../api/calls.js';
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
  if (flags.all) {
    calls = await withSpinner(ctx, 'Fetching calls', async () => {
      const out: Call[] = [];
      for await (const c of allCalls(api, filters, { offset: flags.offset, signal: ctx.signal })) out.push(c);
      return out;
    });
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
}
