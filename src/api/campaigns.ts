/**
 * Campaign endpoints. Shared file: `watch` owns the reads below; create/launch/list
 * functions are added by the campaign commands. Keep one small function per endpoint.
 */
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';
import { extractList, unwrap, type ListPage } from './envelope.js';

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
  const path = `/campaigns/${encodeURIComponent(id)}`;
  const body = await api.get(path, { signal: options.signal });
  const campaign = unwrap<Campaign>(body, 'campaign');
  if (!campaign || typeof campaign !== 'object' || Array.isArray(campaign)) {
    throw new ApiError({
      kind: 'unexpected', method: 'GET', url: api.url(path), body: JSON.stringify(body) ?? '',
      message: `expected a campaign object for ${id}, got ${body === undefined ? 'an empty body' : Array.isArray(body) ? 'a list' : typeof body}`,
    });
  }
  return campaign;
}

/** GET /campaigns/{id}/contacts: every contact as a plain array (no pagination, per the spec). */
export async function listContacts(api: ApiClient, id: string, options: { signal?: AbortSignal } = {}): Promise<CampaignContact[]> {
  const path = `/campaigns/${encodeURIComponent(id)}/contacts`;
  const body = await api.get(path, { signal: options.signal });
  return extractList<CampaignContact>(body, 'contacts', api.url(path)).items;
}

/** What POST /campaigns/json takes (spec section 4). */
export interface CampaignDraft {
  name: string;
  agent_id: string;
  campaign_prompt?: string;
  kb_item_ids?: string[];
  contacts: Array<{ phone_number: string; name?: string; extra?: unknown }>;
}

/** POST /campaigns/json: the created campaign, in status draft. Never retried (the client's rule for POST). */
export async function createCampaign(api: ApiClient, draft: CampaignDraft, options: { signal?: AbortSignal } = {}): Promise<Campaign> {
  const body = await api.post('/campaigns/json', draft, { signal: options.signal });
  return unwrap<Campaign>(body, 'campaign');
}

/**
 * POST /campaigns/{id}/launch. The spec does not show the response: it is returned as
 * received (an object, something else, or undefined for an empty body).
 */
export async function launchCampaign(api: ApiClient, id: string, options: { signal?: AbortSignal } = {}): Promise<unknown> {
  const body = await api.post(`/campaigns/${encodeURIComponent(id)}/launch`, undefined, { signal: options.signal });
  return body === undefined ? undefined : unwrap<unknown>(body, 'campaign');
}

export interface CampaignFilters {
  status?: string;
}

/**
 * GET /campaigns, one page. The spec says the service lists campaigns without showing
 * the endpoint; callers turn a 404/405/501 here into "this service does not list
 * campaigns" (see isListUnsupported).
 */
export async function listCampaigns(
  api: ApiClient,
  filters: CampaignFilters = {},
  page: { limit?: number; offset?: number } = {},
  signal?: AbortSignal,
): Promise<ListPage<Campaign>> {
  const body = await api.get('/campaigns', { query: { ...filters, limit: page.limit, offset: page.offset }, signal });
  return extractList<Campaign>(body, 'campaigns', api.url('/campaigns'));
}

/** Every campaign, page after page. */
export function allCampaigns(api: ApiClient, filters: CampaignFilters = {}, options: { offset?: number; signal?: AbortSignal } = {}): AsyncGenerator<Campaign> {
  return api.paginate<Campaign>('/campaigns', 'campaigns', { query: { ...filters }, limit: 200, ...options });
}

/** True when an error from GET /campaigns means the server has no such endpoint. */
export function isListUnsupported(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'http' && [404, 405, 501].includes(err.status ?? 0)
    && /\/campaigns\/?(\?|$)/.test(err.url);
}
