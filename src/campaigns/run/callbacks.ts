/**
 * `campaign redial --outcome callback_scheduled --at-requested-time` as a campaign run:
 * each callback waits in the run's journal with the time the customer asked to be called
 * (`not_before`), read as `campaign followups` reads it, so the dispatcher releases it in
 * a wave no earlier than that time and only inside the calling window of the contact's
 * zone (`extra.timezone`, else the number's). A time already past is due at once.
 *
 * A callback whose time cannot be read ("call me later") is not dialed: calling at a time
 * the customer did not choose is what --at-requested-time promises not to do. It is kept
 * in the journal as excluded (rule "no requested time", with the words said) and listed.
 */
import { resolveAgent } from '../../api/agents.js';
import type { Campaign } from '../../api/campaigns.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collectFollowups, extraZone, type Followup } from '../../reports/followups.js';
import type { Excluded } from '../exclusions.js';
import { callingWindow } from '../../hours/hours-gate.js';
import type { ReadBack, RedialContact } from '../redial.js';
import { agentHistory } from './history.js';
import type { Journal, RunContact } from './journal.js';
import { DEFAULT_RETRY_AFTER_MS, DEFAULT_RETRY_ON, DEFAULT_WAVE_SIZE, parseWindows, type RunPolicy } from './policy.js';
import { placeOf } from '../../hours/phone-zones.js';
import { newJournal, refuseExisting, type NewRun } from './start.js';

export const NO_TIME_RULE = 'no requested time';
export const NEEDS_PERSON_RULE = 'two requested times, for a person';

export interface Unread {
  row: number;
  phone_number: string;
  name?: string | undefined;
  /** The words that ask for the callback, or null when the call held none. */
  requested_as: string | null;
  outcome?: string;
  /** Two different times were said: a person must choose. */
  conflict?: true;
}

export interface CallbackContacts {
  contacts: RunContact[];
  /** Callbacks without a time voicectl could read: in `contacts` as excluded, and here. */
  unread: Unread[];
}

/**
 * The run's contacts: the redial's selection (`kept`, and `excluded` by the lists), each
 * matched by normalized number to its follow-up. `normalize` reads a number the service returned,
 * with the country of its contact's upload when it had one (chooseRedial's readBack), as the
 * contacts' own numbers were read: a US number in a list read with --default-country IN matches.
 */
export function callbackContacts(kept: RedialContact[], excluded: Excluded[], followups: Followup[], normalize: ReadBack): CallbackContacts {
  const byPhone = new Map<string, Followup>();
  for (const f of followups) byPhone.set(normalize(f.phone_number, f.extra), f);
  const rules = new Map(excluded.map((e) => [e.row, e.rule]));
  const all = [...kept, ...excluded.map((e) => ({ ...e, status: 'excluded' }) as RedialContact)].sort((a, b) => a.row - b.row);
  const contacts: RunContact[] = [];
  const unread: Unread[] = [];
  for (const c of all) {
    const rc: RunContact = { row: c.row, phone_number: c.phone_number, state: 'waiting', attempts: 0, waves: [] };
    if (c.name !== undefined) rc.name = c.name;
    if (c.extra !== undefined) rc.extra = c.extra;
    const rule = rules.get(c.row);
    const f = byPhone.get(c.phone_number);
    const own = extraZone(c.extra);
    if (own) rc.zone = own;
    if (rule !== undefined) {
      rc.state = 'excluded';
      rc.rule = rule;
    } else if (!f || f.requested_time === null) {
      rc.state = 'excluded';
      // Two different times said is no time either: a person reads the words and decides.
      const rule = f?.requested_status === 'needs a person' ? NEEDS_PERSON_RULE : NO_TIME_RULE;
      rc.rule = f?.requested_as ? `${rule}: "${f.requested_as}"` : rule;
      unread.push({ row: c.row, phone_number: c.phone_number, ...(c.name !== undefined ? { name: c.name } : {}), requested_as: f?.requested_as ?? null, ...(c.outcome ? { outcome: c.outcome } : {}), ...(f?.requested_status === 'needs a person' ? { conflict: true as const } : {}) });
    } else {
      rc.not_before = new Date(Date.parse(f.requested_time)).toISOString();
      if (f.requested_as) rc.requested_as = f.requested_as;
      if (!own && placeOf(c.phone_number).zones.length === 0) rc.state = 'no_zone';
    }
    contacts.push(rc);
  }
  return { contacts, unread };
}

export interface CallbackRunInput {
  /** The finished campaign whose callbacks are called back. */
  id: string;
  campaign: Campaign;
  /** The redial's selection, and the contacts the exclude lists left out. */
  kept: RedialContact[];
  excluded: Excluded[];
  normalize: ReadBack;
  outcomes?: string[];
  name?: string;
  /** The agent (id or name); default: the campaign's. */
  agent?: string | undefined;
  callingHours?: string | undefined;
  waveSize?: number | undefined;
  journal?: string | undefined;
  exclusions: NonNullable<Journal['exclusions']>;
  dryRun: boolean;
}

/** The journal of a callback run, every contact held until the time it asked for; nothing is sent but reads. */
export async function prepareCallbackRun(ctx: Context, api: ApiClient, input: CallbackRunInput): Promise<NewRun & { api: ApiClient; unread: Unread[] }> {
  const path = input.journal ?? `campaign-${input.id}.callbacks.run.json`;
  if (!input.dryRun) refuseExisting(path);
  const policy: RunPolicy = {
    windows: parseWindows(input.callingHours !== undefined ? [input.callingHours] : [], callingWindow(ctx, undefined)),
    wave_size: input.waveSize ?? DEFAULT_WAVE_SIZE,
    attempts: 1,
    retry_after_ms: DEFAULT_RETRY_AFTER_MS,
    retry_on: DEFAULT_RETRY_ON,
    wave_length_ms: 0,
  };
  if (policy.wave_size > 10_000) throw new UsageError('--wave-size is at most 10,000: a wave is one campaign, and a campaign holds at most 10,000 contacts.');
  const agentRef = input.agent ?? input.campaign.agent_id ?? undefined;
  if (!agentRef) throw new UsageError(`Campaign ${input.campaign.name ?? input.id} has no agent (it was deleted), so the callbacks need one.`, { hint: 'Pass --agent <id|name>.' });
  const followups = await collectFollowups(api, [input.id], { outcomes: input.outcomes, userZone: ctx.timeZone, signal: ctx.signal });
  const { contacts, unread } = callbackContacts(input.kept, input.excluded, followups, input.normalize);
  const agent = await resolveAgent(api, agentRef);
  const now = ctx.now().getTime();
  const history = await agentHistory(api, agent.id, now, ctx.signal);
  policy.wave_length_ms = history.wave_length_ms;
  const c = input.campaign;
  const journal = newJournal(ctx, {
    name: input.name?.trim() || `${c.name ?? input.id} (callbacks)`,
    agent: { id: agent.id, ...(agent.name ? { name: agent.name } : {}) },
    ...(typeof c.campaign_prompt === 'string' ? { campaignPrompt: c.campaign_prompt } : {}),
    ...(Array.isArray(c.kb_item_ids) ? { kbItemIds: c.kb_item_ids as string[] } : {}),
    source: { kind: 'callbacks', campaign_id: input.id },
    policy,
    exclusions: input.exclusions,
    contacts,
    now,
  });
  return { journal, path, history, api, unread };
}
