import type { Context } from '../../context.js';
import type { CampaignContact } from '../../api/campaigns.js';
import { safeCell } from '../../export/csv.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { CONTACT_CSV_HEADERS, contactColumns, extraText } from './fields.js';
import { readContacts } from '../../campaigns/read.js';

export default async function campaignContacts(ctx: Context, id: string, flags: { status?: string }): Promise<void> {
  const api = await ctx.api();
  const all = await withSpinner(ctx, 'Fetching contacts', () => readContacts(api, id, ctx.signal));
  // The endpoint returns every contact as one plain array and takes no filter: filter here.
  const contacts = flags.status ? all.filter((c) => c.status === flags.status) : all;
  if (ctx.format === 'csv') {
    ctx.out(CONTACT_CSV_HEADERS.join(','));
    for (const c of contacts) ctx.out(csvCells(c).join(','));
    return;
  }
  await printList(ctx, contacts, contactColumns(), {
    empty: flags.status ? `No ${flags.status} contacts in campaign ${id} (of ${all.length}).` : `Campaign ${id} has no contacts.`,
  });
  if (!ctx.machineOutput && flags.status && contacts.length > 0) {
    ctx.info(ctx.errColor.dim(`${contacts.length} of ${all.length} contacts are ${flags.status}.`));
  }
}

function csvCells(c: CampaignContact): string[] {
  // Names and extra are other people's text: escaped against formula injection.
  return [safeCell(c.phone_number), safeCell(c.name), safeCell(c.status), safeCell(c.call_id), safeCell(extraText(c.extra) || undefined)];
}
