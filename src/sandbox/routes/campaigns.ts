/**
 * Campaigns and contacts: creation validates every row (E.164, at most 10,000) and
 * rejects the whole request naming the first bad row; launch needs calls:dispatch and
 * a draft; the contacts list is a plain array.
 */
import { HttpError, type Route } from '../router.js';
import { launch } from '../simulation.js';
import { campaignView } from '../views.js';
import { CONTACT_STATUSES, type Campaign, type Contact, type ContactStatus, type OrgState, type World } from '../world.js';
import { badField, bodyObject, isE164, notFound, optionalString, optionalStringArray, page, pageParams, requiredString } from '../validate.js';

const MAX_CONTACTS = 10_000;
const CAMPAIGN_STATUSES = ['draft', 'running', 'completed'];
const FIELDS = ['name', 'agent_id', 'campaign_prompt', 'kb_item_ids', 'contacts'];

function findCampaign(org: OrgState, id: string): Campaign {
  const c = Object.hasOwn(org.campaigns, id) ? org.campaigns[id] : undefined;
  if (!c) throw notFound('campaign', id);
  return c;
}

function rowError(row: number, field: string, message: string): HttpError {
  return new HttpError(422, `contacts[${row}]${field ? `.${field}` : ''} ${message}`, { code: 'invalid_contact', row, field: `contacts[${row}]${field ? `.${field}` : ''}` });
}

function shortValue(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

function parseContacts(value: unknown): Contact[] {
  if (value === undefined || value === null) throw badField('contacts', 'is required');
  if (!Array.isArray(value)) throw badField('contacts', 'must be an array of {phone_number, name, extra}');
  if (value.length === 0) throw badField('contacts', 'must hold at least one contact');
  if (value.length > MAX_CONTACTS) {
    throw new HttpError(400, `a campaign holds at most ${MAX_CONTACTS.toLocaleString('en-US')} contacts, got ${value.length.toLocaleString('en-US')}; split it into several campaigns`, { code: 'too_many_contacts', max_contacts: MAX_CONTACTS, count: value.length });
  }
  const contacts: Contact[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const row = value[i] as unknown;
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw rowError(i, '', 'must be an object with phone_number');
    const r = row as Record<string, unknown>;
    if (r.phone_number === undefined || r.phone_number === null || r.phone_number === '') throw rowError(i, 'phone_number', 'is missing');
    if (!isE164(r.phone_number)) throw rowError(i, 'phone_number', `${shortValue(r.phone_number)} is not E.164 (+, country code, number, no spaces)`);
    if (r.name !== undefined && r.name !== null && typeof r.name !== 'string') throw rowError(i, 'name', 'must be a string');
    contacts[i] = { phone_number: r.phone_number, name: typeof r.name === 'string' ? r.name : '', extra: r.extra ?? null, status: 'pending' };
  }
  return contacts;
}

function create(world: World, org: OrgState, body: unknown): Campaign {
  const obj = bodyObject(body);
  for (const k of Object.keys(obj)) if (!FIELDS.includes(k)) throw badField(k, `is not a campaign field (fields: ${FIELDS.join(', ')})`);
  const name = requiredString(obj, 'name');
  const agentId = requiredString(obj, 'agent_id');
  const campaignPrompt = optionalString(obj, 'campaign_prompt');
  const kb = optionalStringArray(obj, 'kb_item_ids');
  const contacts = parseContacts(obj.contacts);
  if (!Object.hasOwn(org.agents, agentId)) throw notFound('agent', agentId);
  const counts = Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0])) as Record<ContactStatus, number>;
  counts.pending = contacts.length;
  const campaign: Campaign = {
    id: world.uuid(), name, agent_id: agentId, status: 'draft', created_at: world.clock.nowIso(),
    launched_at: null, completed_at: null, contacts, contacts_by_status: counts,
  };
  if (campaignPrompt !== undefined) campaign.campaign_prompt = campaignPrompt;
  if (kb !== undefined) campaign.kb_item_ids = kb;
  org.campaigns[campaign.id] = campaign;
  return campaign;
}

function list(org: OrgState, query: URLSearchParams) {
  const p = pageParams(query);
  const status = query.get('status');
  if (status !== null && !CAMPAIGN_STATUSES.includes(status)) {
    throw new HttpError(400, `status must be one of ${CAMPAIGN_STATUSES.join(', ')}, got "${status}"`, { code: 'invalid_parameter', param: 'status' });
  }
  // Newest first; creation times tie within a millisecond, so reverse insertion order.
  const all = Object.values(org.campaigns).reverse().filter((c) => status === null || c.status === status);
  const body = page('campaigns', all, p);
  body.campaigns = (body.campaigns as Campaign[]).map(campaignView);
  return body;
}

export const campaignRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/campaigns/json',
    scope: 'calls:write',
    handle: (req, world) => ({ status: 201, body: campaignView(create(world, req.org, req.body)) }),
  },
  {
    method: 'GET',
    pattern: '/campaigns',
    scope: 'calls:read',
    handle: (req) => ({ status: 200, body: list(req.org, req.query) }),
  },
  {
    method: 'GET',
    pattern: '/campaigns/:id',
    scope: 'calls:read',
    handle: (req) => ({ status: 200, body: campaignView(findCampaign(req.org, req.params.id!)) }),
  },
  {
    method: 'GET',
    pattern: '/campaigns/:id/contacts',
    scope: 'calls:read',
    handle(req) {
      const c = findCampaign(req.org, req.params.id!);
      const status = req.query.get('status');
      const contacts = status ? c.contacts.filter((x) => x.status === status) : c.contacts;
      return { status: 200, body: contacts };
    },
  },
  {
    method: 'POST',
    pattern: '/campaigns/:id/launch',
    scope: 'calls:dispatch',
    handle(req, world) {
      const c = findCampaign(req.org, req.params.id!);
      if (c.status !== 'draft') {
        throw new HttpError(409, `campaign ${c.id} is ${c.status}; only a draft campaign can be launched`, { code: 'campaign_not_draft', campaign_status: c.status });
      }
      if (!c.agent_id) throw new HttpError(409, `campaign ${c.id} has no agent (it was deleted); create a new campaign`, { code: 'campaign_without_agent' });
      const dispatched = launch(world, req.org, c, req.key.key);
      const pending = c.contacts_by_status.pending;
      return { status: 200, body: { ...campaignView(c), dispatched, ...(pending > 0 ? { pending_until_cap_resets: pending } : {}) } };
    },
  },
];
