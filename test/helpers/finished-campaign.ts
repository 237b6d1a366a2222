/**
 * The world a report or follow-up test starts from: an agent, one or more campaigns of
 * numbered contacts, launched and run to completion in the sandbox, with their calls (and,
 * when asked, their recordings saved). Made through helpers/given.ts, the one factory.
 */
import type { Sandbox } from '../../src/sandbox/index.js';
import { allCalls, campaignDone, clientFor, givenAgent, waitFor, type Client } from './given.js';

export interface CampaignSpec {
  name: string;
  /** How many contacts, numbered from `first`. */
  contacts: number;
  /** The first number's last digits: contact i is `${prefix}${first + i}` padded to 8 digits. */
  first?: number;
  /** The numbers' start after +: 9196, 9197, 9198 (Indian mobiles). */
  prefix?: string;
  /** A contact's name (default "Contact N") and extra fields (default none). */
  name_of?: (i: number) => string;
  extra_of?: (i: number) => Record<string, unknown>;
}

export interface Finished {
  id: string;
  name: string;
  /** Every call of the campaign, finished. */
  calls: any[];
}

export interface FinishedWorld {
  api: Client;
  agentId: string;
  campaigns: Finished[];
}

/** The agent the follow-up tests call with: it schedules callbacks and takes messages. */
export const FOLLOW_UP_AGENT = { name: 'Follow-up desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: ['schedule_callback', 'take_message'] };

/**
 * Each campaign created, launched and followed to completion (at most `ms` of real time);
 * with `recordings`, also until every connected call's recording is saved.
 */
export async function finishedCampaigns(
  sandbox: Pick<Sandbox, 'url' | 'apiKey'>,
  specs: CampaignSpec[],
  o: { agent?: Record<string, unknown>; recordings?: boolean; ms?: number } = {},
): Promise<FinishedWorld> {
  const api = clientFor(sandbox);
  const agent = await givenAgent(api, o.agent ?? FOLLOW_UP_AGENT);
  const ids: string[] = [];
  for (const s of specs) {
    const contacts = Array.from({ length: s.contacts }, (_, i) => ({
      phone_number: `+${s.prefix ?? '9196'}${String((s.first ?? 0) + i).padStart(8, '0')}`,
      name: s.name_of ? s.name_of(i) : `Contact ${(s.first ?? 0) + i}`,
      ...(s.extra_of ? { extra: s.extra_of(i) } : {}),
    }));
    const created = await api('POST', '/campaigns/json', { name: s.name, agent_id: agent.id, contacts });
    if (created.status !== 201) throw new Error(`campaign creation failed: ${created.status} ${JSON.stringify(created.body)}`);
    const launched = await api('POST', `/campaigns/${created.body.id}/launch`);
    if (launched.status >= 300) throw new Error(`launch failed: ${launched.status} ${JSON.stringify(launched.body)}`);
    ids.push(created.body.id);
  }
  for (const id of ids) await campaignDone(api, id);
  if (o.recordings) {
    // Recordings are saved a little after each call ends.
    for (const id of ids) {
      await waitFor(async () => {
        const calls = await allCalls(api, `campaign_id=${id}`);
        return calls.some((c) => c.status === 'completed' && !c.has_recording) ? undefined : true;
      }, o.ms ?? 60_000, 'the recordings to be saved');
    }
  }
  const campaigns: Finished[] = [];
  for (const [i, id] of ids.entries()) campaigns.push({ id, name: specs[i]!.name, calls: await allCalls(api, `campaign_id=${id}`) });
  return { api, agentId: agent.id, campaigns };
}

/** One finished campaign. */
export async function finishedCampaign(sandbox: Pick<Sandbox, 'url' | 'apiKey'>, spec: CampaignSpec, o: { agent?: Record<string, unknown>; recordings?: boolean } = {}): Promise<Finished & { api: Client; agentId: string }> {
  const world = await finishedCampaigns(sandbox, [spec], o);
  return { ...world.campaigns[0]!, api: world.api, agentId: world.agentId };
}
