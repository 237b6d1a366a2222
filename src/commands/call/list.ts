import type { Context } from '../../context.js';
import { allCalls, listCalls } from '../../api/calls.js';
import { untilIncomplete } from '../../api/pagination.js';
import { printList, printListing } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { callColumns, filtersFrom, newestFirst } from './fields.js';
import { note } from '../../io/render.js';
import type { ListFlags } from './definition.js';

type Flags = ListFlags;

export default async function callList(ctx: Context, flags: Flags): Promise<void> {
  const api = await ctx.api();
  const filters = filtersFrom(flags, ctx.timeZone);
  const shown = { empty: 'No calls match.', tableOrder: newestFirst };
  if (flags.all) {
    // Printed as the pages arrive: two million calls are more than one JSON text can hold.
    const listing = untilIncomplete(allCalls(api, filters, { offset: flags.offset, signal: ctx.signal }));
    await printListing(ctx, listing.items, callColumns(ctx.io.columns('stdout'), ctx.timeZone), { ...shown, spinner: 'Fetching calls' });
    // What was read is printed; the exit status says it is not the whole list.
    if (listing.incomplete) throw listing.incomplete;
    return;
  }
  const { items: calls, total } = await withSpinner(ctx, 'Fetching calls', () => listCalls(api, filters, { limit: flags.limit, offset: flags.offset }, ctx.signal));
  await printList(ctx, calls, callColumns(ctx.io.columns('stdout'), ctx.timeZone), shown);
  if (total !== undefined && total > (flags.offset ?? 0) + calls.length) {
    note(ctx, ctx.errColor.dim(`Showing ${calls.length} of ${total}. Use --all for every call, or \`voicectl call export\` for files.`));
  }
}
