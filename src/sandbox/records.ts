/**
 * The sandbox's records as the service shows them (plus a few internal fields): plain
 * JSON, so --state can write them as they are. The stores and indexes use these types;
 * world.ts holds them.
 */
export interface KeyDef {
  key: string;
  org: string;
  scopes: string[];
  daily_dispatch_cap?: number;
}

export interface Plan {
  agent_limit: number;
  active_agent_limit: number;
  languages: string[];
}

export const ALL_SCOPES = ['agents:read', 'agents:write', 'calls:write', 'calls:dispatch', 'calls:read', 'webhooks:manage'];

export const DEFAULT_PLAN: Plan = {
  agent_limit: 20,
  active_agent_limit: 3,
  languages: ['en-IN', 'hi-IN', 'ta-IN', 'te-IN', 'kn-IN', 'ml-IN', 'mr-IN', 'bn-IN', 'gu-IN', 'en-US', 'en-GB'],
};

export interface Agent {
  id: string;
  name: string;
  status: string;
  language: string;
  voice_name: string;
  greeting: string;
  call_purpose: string;
  prompt: string;
  tools: string[];
  kb_item_ids: string[];
  direction: string;
  /** Inbound agents are assigned a number when created. */
  phone_number: string | null;
  created_at: string;
  updated_at: string;
}

export type ContactStatus = 'pending' | 'initiated' | 'completed' | 'no_answer' | 'failed';
export const CONTACT_STATUSES: ContactStatus[] = ['pending', 'initiated', 'completed', 'no_answer', 'failed'];

export interface Contact {
  phone_number: string;
  name: string;
  extra: unknown;
  status: ContactStatus;
  call_id?: string;
}

export interface Campaign {
  id: string;
  name: string;
  agent_id: string | null;
  campaign_prompt?: string;
  kb_item_ids?: string[];
  status: 'draft' | 'running' | 'completed';
  created_at: string;
  launched_at: string | null;
  completed_at: string | null;
  contacts: Contact[];
  contacts_by_status: Record<ContactStatus, number>;
  /** Internal: the key that launched it (its daily cap governs later dispatch rounds). */
  _key?: string;
  /** Internal: simulated time of the next dispatch round when the cap left contacts pending. */
  _resume_at?: number;
  /** Internal: the script (agent snapshot) of the latest dispatch round. */
  _script?: string;
}

/** What the agent was when a call was placed: later edits and deletion do not change past calls. */
export interface Script {
  agent_name: string;
  greeting: string;
  call_purpose: string;
  prompt: string;
  campaign_prompt: string;
  language: string;
  tools: string[];
}

export interface Call {
  call_id: string;
  campaign_id: string | null;
  agent_id: string | null;
  agent_name: string;
  direction: string;
  phone_number: string;
  status: string;
  end_reason: string | null;
  outcome: string | null;
  summary: string | null;
  error: string | null;
  duration_seconds: number | null;
  start_time: string;
  end_time: string | null;
  has_recording: boolean;
  contact: { name: string; extra: unknown };
  /** Internal (never sent): start in simulated ms, for the sorted indexes. */
  _start: number;
  /** Internal: seed of this call's fate and transcript. */
  _seed: number;
  /** Internal: id in OrgState.scripts. */
  _script: string;
  /** Internal: index of the contact in its campaign, or -1. */
  _ci: number;
}

/** A `sandbox --degrade` rule (degrade.ts). */
export interface DegradeRule {
  /** Calls placed before this one are left alone. */
  after: number;
  /** Share of calls that connect once degraded (0 to 1). */
  connect?: number;
  /** Share of calls that fail once degraded (0 to 1). */
  failed?: number;
  /** ISO country of the numbers it applies to; all when absent. */
  country?: string;
}

/** What `sandbox --learn` keeps of an export (learned.ts): distributions only. */
export interface Rates {
  calls: number;
  /** Shares of calls that connected (status completed) and failed; the rest went unanswered. */
  connect: number;
  failed: number;
}

export interface CountryRates extends Rates {
  /** By UTC hour of the call's start, 24 entries; null where too few calls were seen. */
  hours: Array<Rates | null>;
  /** Outcome label to its share among connected calls. */
  outcomes: Record<string, number>;
  /** Seconds: 21 quantiles (0%, 5%, …, 100%) of connected calls' and other calls' lengths. */
  talk_seconds: number[];
  other_seconds: number[];
}

export interface LearnedRates {
  format: 'voicectl-sandbox-rates';
  version: 1;
  calls: number;
  overall: CountryRates;
  countries: Record<string, CountryRates>;
}

