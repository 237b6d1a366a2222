/**
 * Which contacts of a campaign a redial calls again: those with the chosen statuses
 * (and outcomes), never one whose call ended with an outcome saying not to call again.
 * Contacts keep their name and extra. Outcomes live on calls (GET /calls?campaign_id=),
 * matched to contacts by call_id, or by number for a service that leaves call_id out.
 */
import type { ApiClient } from '../api/client.js';
import { allCalls, type Call } from '../api/calls.js';
import { getCampaign, listContacts, type Campaign, type CampaignContact } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import { NotFoundError } from '../errors.js';

export const DEFAULT_STATUSES = ['no_answer', 'failed'];
export const DEFAULT_EXCLUDED_OUTCOMES = ['do_not_call'];

export interface RedialOptions {
  /** undefined: the default statuses, or any status when outcomes are given. */
  statuses?: string[];
  outcomes?: string[];
  excludeOutcomes: string[];
  signal?: AbortSignal;
}

export interface RedialContact {
  /** Position in the campaign's contact list, from 1. */
  row: number;
  phone_number: string;
  name?: string;
  extra?: unknown;
  status: string;
  outcome?: string;
}

export interface RedialPlan {
  campaign: Campaign;
  /** How many contacts the campaign has. */
  total: number;
  contacts: RedialContact[];
  /** Kept, by status. */
  kept: Record<string, number>;
  /** Left out, by reason: "status completed", "outcome do_not_call", "repeated number". */
  leftOut: Record<string, number>;
  /** The contacts left out for an excluded outcome (for --dry-run --json). */
  refused: RedialContact[];
}

export async function planRedial(api: ApiClient, id: string, options: RedialOptions): Promise<RedialPlan> {
  const campaign = await notFoundAs(id, () => getCampaign(api, id, { signal: options.signal }));
  const contacts = await notFoundAs(id, () => listContacts(api, id, { signal: options.signal }));
  const byId = new Map<string, Call>();
  const byPhone = new Map<string, Call>();
  const refusedPhones = new Set<string>();
  const excluded = new Set(options.excludeOutcomes);
  for await (const call of allCalls(api, { campaign_id: id }, { signal: options.signal })) {
    if (call.call_id) byId.set(String(call.call_id), call);
    if (call.phone_number) {
      const seen = byPhone.get(call.phone_number);
      if (!seen || (call.start_time ?? '') > (seen.start_time ?? '')) byPhone.set(call.phone_number, call);
      // Asked once is enough: a number repeated in the campaign is not called again either.
      if (call.outcome && excluded.has(call.outcome)) refusedPhones.add(call.phone_number);
    }
  }
  const statuses = new Set(options.statuses ?? (options.outcomes ? [] : DEFAULT_STATUSES));
  const outcomes = options.outcomes ? new Set(options.outcomes) : undefined;
  const plan: RedialPlan = { campaign, total: contacts.length, contacts: [], kept: {}, leftOut: {}, refused: [] };
  const seen = new Set<string>();
  const leave = (why: string) => { plan.leftOut[why] = (plan.leftOut[why] ?? 0) + 1; };
  contacts.forEach((c: CampaignContact, i) => {
    const call = (c.call_id !== undefined && byId.get(String(c.call_id))) || byPhone.get(c.phone_number);
    const status = c.status ?? 'pending';
    const contact: RedialContact = { row: i + 1, phone_number: c.phone_number, status };
    if (c.name !== undefined && c.name !== null) contact.name = c.name;
    if (c.extra !== undefined && c.extra !== null) contact.extra = c.extra;
    if (call?.outcome) contact.outcome = call.outcome;
    if ((contact.outcome && excluded.has(contact.outcome)) || refusedPhones.has(c.phone_number)) {
      leave(`outcome ${contact.outcome && excluded.has(contact.outcome) ? contact.outcome : 'of another call to the number'}`);
      plan.refused.push(contact);
      return;
    }
    if (statuses.size > 0 && !statuses.has(status)) return leave(`status ${status}`);
    if (outcomes && !(contact.outcome && outcomes.has(contact.outcome))) return leave(`outcome ${contact.outcome ?? '(none)'}`);
    if (seen.has(c.phone_number)) return leave('repeated number');
    seen.add(c.phone_number);
    plan.kept[status] = (plan.kept[status] ?? 0) + 1;
    plan.contacts.push(contact);
  });
  return plan;
}

async function notFoundAs<T>(id: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'http' && err.status === 404) {
      throw new NotFoundError(`no campaign with id ${id} (or it belongs to another organization).`, {
        hint: 'Check the id: `voicectl campaign list` shows your campaigns.',
      });
    }
    throw err;
  }
}
