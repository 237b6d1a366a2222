/**
 * Campaign endpoints. Shared file: `watch` owns the reads below; create/launch/list
 * functions are added by the campaign commands. Keep one small function per endpoint.
 */
import type { ApiClient } from './client.js';
import { extractList, unwrap } from './envelope.js';

export interface Campaign {
  id: string;
  name?: string;
  agent_id?: string | null;
  status?: string;
  contacts_by_status?: Record<string, number>;
  [key: string]: unknown;
}

export interface CampaignContact {
  phone_number: string;
  name?: string;
  extra?: unknown;
  status?: string;
  call_id?: string;
  [key: string]: unknown;
}

/** GET /campaigns/{id}: the campaign with `status` and `contacts_by_status`. */
export async function getCampaign(api: ApiClient, id: string, options: { signal?: AbortSignal } = {}): Promise<Campaign> {
  const body = await api.get(`/campaigns/${encodeURIComponent(id)}`, { signal: options.signal });
  return unwrap<Campaign>(body, 'campaign');
}

/** GET /campaigns/{id}/contacts: every contact as a plain array (no pagination, per the spec). */
export async function listContacts(api: ApiClient, id: string, options: { signal?: AbortSignal } = {}): Promise<CampaignContact[]> {
  const path = `/campaigns/${encodeURIComponent(id)}/contacts`;
  const body = await api.get(path, { signal: options.signal });
  return extractList<CampaignContact>(body, 'contacts', api.url(path)).items;
}
