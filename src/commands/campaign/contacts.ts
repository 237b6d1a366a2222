import type { Context } from '../../context.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { contactColumns } from './fields.js';
import { readContacts } from '../../campaigns/read.js';
import { note } from '../../io/render.js';
import type { ContactsFlags } from './definition.js';

export default async function campaignContacts(ctx: Context, id: string, flags: ContactsFlags): Promise<void> {
  const api = await ctx.api();
  const all = await withSpinner(ctx, 'Fetching contacts', () => readContacts(api, id, ctx.signal));
  // The endpoint returns every contact as one plain array and takes no filter: filter here.
  const contacts = flags.status ? all.filter((c) => c.status === flags.status) : all;
  await printList(ctx, contacts, contactColumns(), {
    empty: flags.status ? `No ${flags.status} contacts in campaign ${id} (of ${all.length}).` : `Campaign ${id} has no contacts.`,
  });
  if (flags.status && contacts.length > 0) {
    note(ctx, ctx.errColor.dim(`${contacts.length} of ${all.length} contacts are ${flags.status}.`));
  }
}
