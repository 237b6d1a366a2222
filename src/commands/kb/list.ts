import type { Context } from '../../context.js';
import { ApiError } from '../../api/errors.js';
import { isFolder, listItems, type KbItem } from '../../api/kb.js';
import { NotFoundError } from '../../errors.js';
import { printList } from '../../io/output.js';
import { withSpinner } from '../../io/progress.js';
import { normalizeFolder } from '../../kb/collect.js';
import { bytes as formatBytes } from '../../text/text.js';
import { note } from '../../io/render.js';
import type { ListFlags } from './definition.js';

export default async function kbList(ctx: Context, opts: ListFlags): Promise<void> {
  const api = await ctx.api();
  const folder = normalizeFolder(opts.folder);
  let items: KbItem[];
  try {
    items = await withSpinner(ctx, 'Fetching the knowledge base', () => listItems(api, folder || undefined, ctx.signal));
  } catch (err) {
    if (folder && err instanceof ApiError && err.status === 404) {
      throw new NotFoundError(`No folder "${folder}" in the knowledge base.`, { hint: 'See the top level with `voicectl kb list`.' });
    }
    throw err;
  }
  await printList<KbItem>(ctx, items, [
    { header: 'NAME', get: (i) => `${i.name ?? ''}${isFolder(i) ? '/' : ''}`, max: 40 },
    { header: 'TYPE', key: 'type', drop: 1 },
    { header: 'PATH', key: 'path', max: 60, drop: 3 },
    { header: 'SIZE', get: (i) => (typeof i.size_bytes === 'number' ? formatBytes(i.size_bytes) : ''), drop: 2 },
    { header: 'ID', key: 'id', id: true },
  ], { empty: folder ? `The folder "${folder}" is empty.` : 'The knowledge base is empty. Add documents with `voicectl kb upload <files or folders>`.' });
  if (items.some(isFolder)) {
    note(ctx, ctx.errColor.dim(`See inside a folder with: voicectl kb list --folder ${folder ? `${folder}/` : ''}<name>`));
  }
}
