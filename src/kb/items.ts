/** Knowledge-base items by id, as far as the service says what they are. */
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { getItem, listItems, type KbItem } from '../api/kb.js';

/**
 * What the id is, when the service says: a one-item read (not in the spec, so a failure
 * only means "unknown"), else the top-level listing.
 */
export async function describeItem(api: ApiClient, id: string): Promise<KbItem | undefined> {
  try {
    const item = await getItem(api, id);
    if (item) return item;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
  }
  try {
    return (await listItems(api)).find((i) => String(i.id) === id);
  } catch {
    return undefined;
  }
}
