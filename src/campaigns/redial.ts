/**
 * Which contacts of a campaign a redial calls again: those with the chosen statuses
 * (and outcomes), never one whose call ended with an outcome saying not to call again.
 * Contacts keep their name and extra. Outcomes live on calls (GET /calls?campaign_id=),
 * matched to contacts by call_id, or by number for a service that leaves call_id out.
 *
 * Every number read back (contacts and calls) is normalized to E.164 with the default
 * country by the same check `campaign create` applies to a spreadsheet, before any
 * comparison: a service may return "+91 98000 00004" or "09800000005" as it was uploaded,
 * and an exact-text comparison would redial a person who asked not to be called. A number
 * that does not normalize is never redialed: it cannot be checked against the lists.
 */
import type { ApiClient } from '../api/client.js';
import { allCalls, type Call } from '../api/calls.js';
import { getCampaign, listContacts, type Campaign, type CampaignContact } from '../api/campaigns.js';
import { ApiError } from '../api/errors.js';
import type { PhoneCheck } from '../contacts/e164.js';
import { normalizeReadBack } from '../contacts/read-back.js';
import { NotFoundError } from '../errors.js';

const DEFAULT_STATUSES = ['no_answer', 'failed'];
export const DEFAULT_EXCLUDED_OUTCOMES = ['do_not_call'];

export interface RedialOptions {
  /** undefined: the default statuses, or any status when outcomes are given. */
  statuses?: string[];
  outcomes?: string[];
  excludeOutcomes: string[];
  /** The contacts' phone check with the default country (createPhoneCheck). */
  check: PhoneCheck;
  /**
   * A contact's own check when its `extra` names its country (the country column it was
   * uploaded with), as `campaign create` read it; undefined: `check`.
   */
  contactCheck?: (extra: unknown) => PhoneCheck | undefined;
  signal?: AbortSignal;
}

export interface RedialContact {
  /** Position in the campaign's contact list, from 1. */
  row: number;
  /** E.164, normalized from what the service returned. */
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
  /** Contacts whose number does not normalize: left out, since no list can be checked for them. */
  unreadable: UnreadableContact[];
}

export interface UnreadableContact {
  row: number;
  /** As the service returned it. */
  phone_number: unknown;
  name?: string;
  /** Why it is not a number, as `contacts validate` says it. */
  reason: string;
}


export async function planRedial(api: ApiClient, id: string, options: RedialOptions): Promise<RedialPlan> {
  const campaign = await notFoundAs(id, () => getCampaign(api, id, { signal: options.signal }));
  const contacts = await notFoundAs(id, () => listContacts(api, id, { signal: options.signal }));
  const byId = new Map<string, Call>();
  const byPhone = new Map<string, Call>();
  const refusedPhones = new Set<string>();
  const excluded = new Set(options.excludeOutcomes);
  // A call's number, as the service returns it, is read with the country of the contact
  // uploaded with that number (its extra's country), as the contact's own number is.
  const checkOf = new Map<string, PhoneCheck>();
  for (const c of contacts) {
    const own = options.contactCheck?.(c.extra);
    if (own && typeof c.phone_number === 'string') checkOf.set(c.phone_number, own);
  }
  for await (const call of allCalls(api, { campaign_id: id }, { signal: options.signal })) {
    if (call.call_id) byId.set(String(call.call_id), call);
    const phone = callPhone((typeof call.phone_number === 'string' && checkOf.get(call.phone_number)) || options.check, call.phone_number);
    if (phone !== undefined) {
      const seen = byPhone.get(phone);
      if (!seen || (call.start_time ?? '') > (seen.start_time ?? '')) byPhone.set(phone, call);
      // Asked once is enough: a number repeated in the campaign is not called again either.
      if (call.outcome && excluded.has(call.outcome)) refusedPhones.add(phone);
    }
  }
  const statuses = new Set(options.statuses ?? (options.outcomes ? [] : DEFAULT_STATUSES));
  const outcomes = options.outcomes ? new Set(options.outcomes) : undefined;
  const plan: RedialPlan = { campaign, total: contacts.length, contacts: [], kept: {}, leftOut: {}, refused: [], unreadable: [] };
  const seen = new Set<string>();
  const leave = (why: string) => { plan.leftOut[why] = (plan.leftOut[why] ?? 0) + 1; };
  contacts.forEach((c: CampaignContact, i) => {
    const normal = normalizeReadBack(options.contactCheck?.(c.extra) ?? options.check, c.phone_number);
    const phone = 'e164' in normal ? normal.e164 : undefined;
    const call = (c.call_id !== undefined && byId.get(String(c.call_id))) || (phone !== undefined ? byPhone.get(phone) : undefined);
    const status = c.status ?? 'pending';
    const contact: RedialContact = { row: i + 1, phone_number: phone ?? String(c.phone_number), status };
    if (c.name !== undefined && c.name !== null) contact.name = c.name;
    if (c.extra !== undefined && c.extra !== null) contact.extra = c.extra;
    if (call?.outcome) contact.outcome = call.outcome;
    if ((contact.outcome && excluded.has(contact.outcome)) || (phone !== undefined && refusedPhones.has(phone))) {
      leave(`outcome ${contact.outcome && excluded.has(contact.outcome) ? contact.outcome : 'of another call to the number'}`);
      plan.refused.push(contact);
      return;
    }
    if (statuses.size > 0 && !statuses.has(status)) return leave(`status ${status}`);
    if (outcomes && !(contact.outcome && outcomes.has(contact.outcome))) return leave(`outcome ${contact.outcome ?? '(none)'}`);
    if (phone === undefined) {
      const u: UnreadableContact = { row: contact.row, phone_number: c.phone_number, reason: (normal as { reason: string }).reason };
      if (contact.name !== undefined) u.name = contact.name;
      plan.unreadable.push(u);
      return leave('unreadable number');
    }
    if (seen.has(phone)) return leave('repeated number');
    seen.add(phone);
    plan.kept[status] = (plan.kept[status] ?? 0) + 1;
    plan.contacts.push(contact);
  });
  return plan;
}

/** A call's number as the lists compare it, or undefined when it does not normalize. */
function callPhone(check: PhoneCheck, raw: unknown): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const normal = normalizeReadBack(check, raw);
  return 'e164' in normal ? normal.e164 : undefined;
}

/** What a redial chooses by, as `campaign redial` and the MCP redial plan take it from the verb's options. */
export interface RedialSelection {
  statuses?: string[];
  outcomes?: string[];
  /** undefined: DEFAULT_EXCLUDED_OUTCOMES. */
  excludeOutcomes?: string[];
  /** The country of numbers written without +<country code>. */
  defaultCountry?: string;
  signal?: AbortSignal;
}

/**
 * The contacts a redial calls again (planRedial), every number read with the default
 * country, or with the country a contact was uploaded with (its extra's country column), as
 * `campaign create` read it; `check` is the default country's, for the numbers read later.
 * `reading` wraps the requests (a spinner); the checks are made before it.
 */
export async function chooseRedial(
  api: ApiClient,
  id: string,
  selection: RedialSelection,
  reading: (work: () => Promise<RedialPlan>) => Promise<RedialPlan> = (work) => work(),
): Promise<{ plan: RedialPlan; check: PhoneCheck; readBack: ReadBack }> {
  const { check, contactCheck, readBack } = await numberReaders(selection.defaultCountry);
  const plan = await reading(() => planRedial(api, id, {
    statuses: selection.statuses,
    outcomes: selection.outcomes,
    excludeOutcomes: selection.excludeOutcomes ?? DEFAULT_EXCLUDED_OUTCOMES,
    check,
    contactCheck,
    signal: selection.signal,
  }));
  return { plan, check, readBack };
}

/**
 * How a redial reads the numbers the service returns: `check` with the default country;
 * `contactCheck`, a contact's own country from its extra (the country column it was uploaded
 * with), when it has one; `readBack`, either, E.164 where it reads, else the number as written
 * (a follow-up carries its contact's extra).
 */
export async function numberReaders(defaultCountry: string | undefined): Promise<{ check: PhoneCheck; contactCheck: (extra: unknown) => PhoneCheck | undefined; readBack: ReadBack }> {
  const [{ createPhoneCheck, createRowCheck, resolveDefaultCountry }, { CountryCells, countryInExtra }] = await Promise.all([import('../contacts/index.js'), import('../contacts/country-cell.js')]);
  const check = createPhoneCheck(resolveDefaultCountry(defaultCountry));
  const rowCheck = createRowCheck(resolveDefaultCountry(defaultCountry));
  const cells = new CountryCells();
  const contactCheck = (extra: unknown): PhoneCheck | undefined => {
    const country = countryInExtra(extra, cells);
    return country === undefined ? undefined : (raw: string) => rowCheck(raw, country);
  };
  const readBack: ReadBack = (raw, extra) => {
    const read = (contactCheck(extra) ?? check)(raw);
    return read.startsWith('+') ? read : raw;
  };
  return { check, contactCheck, readBack };
}

/** A number as the service wrote it, in E.164 where its contact's country (from `extra`) or the default reads it so, else as written. */
export type ReadBack = (raw: string, extra: unknown) => string;

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
