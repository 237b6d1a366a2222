/** Reading one campaign for a verb, with the 404 said in words. */
import type { ApiClient } from '../api/client.js';
import { getCampaign, listContacts, type Campaign, type CampaignContact } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import { NotFoundError } from '../errors.js';

export function noSuchCampaign(id: string): NotFoundError {
  return new NotFoundError(`no campaign with id ${id} (or it belongs to another organization).`, {
    hint: 'Check the id: `voicectl campaign list` shows your campaigns.',
  });
}

function is404(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'http' && err.status === 404;
}

export async function readCampaign(api: ApiClient, id: string, signal?: AbortSignal): Promise<Campaign> {
  try {
    return await getCampaign(api, id, { signal });
  } catch (err) {
    throw is404(err) ? noSuchCampaign(id) : err;
  }
}

export async function readContacts(api: ApiClient, id: string, signal?: AbortSignal): Promise<CampaignContact[]> {
  try {
    return await listContacts(api, id, { signal });
  } catch (err) {
    throw is404(err) ? noSuchCampaign(id) : err;
  }
}
