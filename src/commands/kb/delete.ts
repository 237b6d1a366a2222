import { ApiError } from '../../api/errors.js';
import { deleteItem, isFolder } from '../../api/kb.js';
import type { Context } from '../../context.js';
import { FailureError, NotFoundError } from '../../errors.js';
import { confirm } from '../../io/prompter.js';
import { render } from '../../io/render.js';
import { describeItem } from '../../kb/items.js';
import { noun } from '../../text/text.js';
import { isObject } from '../../util/is-object.js';

export default async function kbDelete(ctx: Context, id: string): Promise<void> {
  const api = await ctx.api();
  const item = await describeItem(api, id);
  const label = item?.path ?? item?.name;
  const question = !item
    ? `Delete knowledge-base item ${id}? If it is a folder, everything in it is deleted too, and agents stop using those documents.`
    : isFolder(item)
      ? `Delete the folder "${label}" (${id}) and everything in it? Agents stop using those documents.`
      : `Delete "${label}" (${id})? Agents that use it stop using it.`;
  const ok = await confirm(ctx, question);
  if (!ok) throw new FailureError('Cancelled: nothing deleted.');

  let res: unknown;
  try {
    res = await deleteItem(api, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw new NotFoundError(`No knowledge-base item ${id} (or it belongs to another organization).`, { hint: 'List items with `voicectl kb list`.' });
    }
    throw err;
  }
  const body = isObject(res) ? res : {};
  const deletedIds = Array.isArray(body.deleted_ids) ? body.deleted_ids.map(String) : undefined;
  await render(ctx, {
    json: { ...body, id, deleted: true, ...(deletedIds ? { deleted_ids: deletedIds } : {}) },
    human: () => sayDeleted(ctx, item ? isFolder(item) : body.type === 'folder', label ?? id, id, deletedIds),
  });
}

function sayDeleted(ctx: Context, folder: boolean, label: string, id: string, deletedIds: string[] | undefined): void {
  const c = ctx.errColor;
  if (folder) {
    const inside = deletedIds ? deletedIds.length - 1 : undefined;
    ctx.info(c.green(`Deleted the folder ${label}${inside !== undefined ? ` and the ${inside} ${noun(inside, 'item')} in it` : ' and everything in it'}.`));
  } else {
    ctx.info(c.green(`Deleted ${label} (${id}).`));
  }
}
