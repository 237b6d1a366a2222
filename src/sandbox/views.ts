/** What the API returns for a call or a campaign: the stored record without internal fields. */
import { liveFate } from './degrade.js';
import { transcript, type Turn } from './transcript.js';
import type { Call, Campaign, OrgState, Script, World } from './world.js';

/** A call as the API shows it: the stored call without its internal fields. */
export type CallView = Omit<Call, '_start' | '_seed' | '_script' | '_ci'> & { transcript?: Turn[] };

/** The call as GET /calls lists it and as events carry it: no transcript. */
export function callView(c: Call): CallView {
  return {
    call_id: c.call_id,
    campaign_id: c.campaign_id,
    agent_id: c.agent_id,
    agent_name: c.agent_name,
    direction: c.direction,
    phone_number: c.phone_number,
    status: c.status,
    end_reason: c.end_reason,
    outcome: c.outcome,
    summary: c.summary,
    error: c.error,
    duration_seconds: c.duration_seconds,
    start_time: c.start_time,
    end_time: c.end_time,
    has_recording: c.has_recording,
    contact: c.contact,
  };
}

const FALLBACK_SCRIPT: Script = {
  agent_name: 'Agent', greeting: 'Hello!', call_purpose: '', prompt: '', campaign_prompt: '', language: 'en-IN', tools: [],
};

export function scriptOf(org: OrgState, call: Call): Script {
  return org.scripts[call._script] ?? FALLBACK_SCRIPT;
}

/** GET /calls/{id}: the call with its transcript (empty while it is in progress or was not answered). */
export function callDetail(world: World, org: OrgState, c: Call): CallView {
  const view = callView(c);
  if (c.status !== 'completed') return { ...view, transcript: [] };
  const script = scriptOf(org, c);
  const { fate, rng } = liveFate(world, org.id, c, script);
  return { ...view, transcript: transcript(c, script, fate, rng) };
}

export function campaignView(c: Campaign): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    agent_id: c.agent_id,
    campaign_prompt: c.campaign_prompt,
    kb_item_ids: c.kb_item_ids,
    status: c.status,
    total_contacts: c.contacts.length,
    contacts_by_status: { ...c.contacts_by_status },
    created_at: c.created_at,
    launched_at: c.launched_at,
    completed_at: c.completed_at,
  };
}
