import type { Context } from '../../context.js';
import { allCalls, listCalls, type Call } from '../../api/calls.js';
import { collectAll, type IncompleteListError } from '../../api/pagination.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { CALL_CSV_COLUMNS, callColumns, filtersFrom } from './fields.js';
import { note } from '../../io/render.js';
import type { ListFlags } from './definition.js';

type Flags = ListFlags;

export default async function callList(ctx: Context, flags: Flags): Promise<void> {
  const api = await ctx.api();
  const filters = filtersFrom(flags, ctx.timeZone);
  let calls: Call[];
  let total: number | undefined;
  let incomplete: IncompleteListError | undefined;
  if (flags.all) {
    ({ items: calls, incomplete } = await withSpinner(ctx, 'Fetching calls', () => collectAll(allCalls(api, filters, { offset: flags.offset, signal: ctx.signal }))));
  } else {
    ({ items: calls, total } = await withSpinner(ctx, 'Fetching calls', () => listCalls(api, filters, { limit: flags.limit, offset: flags.offset }, ctx.signal)));
  }
  await printList(ctx, calls, callColumns(ctx.io.stdout.columns, ctx.timeZone), { empty: 'No calls match.', csv: CALL_CSV_COLUMNS });
  if (total !== undefined && total > (flags.offset ?? 0) + calls.length) {
    note(ctx, ctx.errColor.dim(`Showing ${calls.length} of ${total}. Use --all for every call, or \`voicectl call export\` for files.`));
  }
  // What was read is printed; the exit status says it is not the whole list.
  if (incomplete) throw incomplete;
}
