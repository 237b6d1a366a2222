/**
 * seedCalls: fills an organization with finished calls at once (for benchmarks and
 * tests of paging), through the same fates, summaries and transcripts as live calls.
 */
import { callIdFor, callRng, decideFate } from './fate.js';
import { applyFate } from './simulation.js';
import { callView } from './views.js';
import { CONTACT_STATUSES, type Call, type Campaign, type Contact, type ContactStatus, type World } from './world.js';

const FIRST = ['Aarav', 'Priya', 'Rohan', 'Ananya', 'Vikram', 'Sneha', 'Arjun', 'Kavya', 'Rahul', 'Meera', 'Sanjay', 'Divya', 'Karthik', 'Lakshmi', 'Imran', 'Fatima', 'John', 'Emily'];
const LAST = ['Sharma', 'Iyer', 'Reddy', 'Patel', 'Nair', 'Gupta', 'Das', 'Khan', 'Menon', 'Joshi', 'Rao', 'Singh', 'Smith', 'Brown'];
const CITIES = ['Mumbai', 'Bengaluru', 'Chennai', 'Hyderabad', 'Pune', 'Kolkata', 'Delhi', 'Ahmedabad', 'Kochi', 'London', 'New York'];

export interface SeedOptions {
  /** Spread start times over this many days before now (default 30). */
  days?: number;
  /** Contacts per seeded campaign (default 10,000, the service's maximum). */
  campaignSize?: number;
  /** Serialize the calls' list JSON now, as a first read would (default true): benchmarks then measure the steady state. */
  warm?: boolean;
}

/** Adds n finished calls in completed campaigns to the organization; returns the campaign ids. */
export function seedCalls(world: World, orgId: string, n: number, opts: SeedOptions = {}): string[] {
  const org = world.org(orgId);
  const size = Math.max(1, Math.min(opts.campaignSize ?? 10_000, 10_000));
  const now = world.clock.now();
  const span = (opts.days ?? 30) * 86_400_000;
  const nowIso = new Date(now).toISOString();
  const scriptId = `scr_seed_${Object.keys(org.scripts).length + 1}`;
  org.scripts[scriptId] = {
    agent_name: 'Seed Agent', greeting: 'Hello {name}, this is Asha from Acme Realty.', call_purpose: 'Follow up on your property enquiry',
    prompt: 'Be brief and polite.', campaign_prompt: '', language: 'en-IN', tools: ['schedule_callback', 'take_message'],
  };
  const script = org.scripts[scriptId]!;
  const ids: string[] = [];
  let campaign: Campaign | undefined;
  for (let i = 0; i < n; i++) {
    if (!campaign || campaign.contacts.length >= size) {
      campaign = {
        id: world.uuid(), name: `Seeded campaign ${ids.length + 1}`, agent_id: null, status: 'completed',
        created_at: nowIso, launched_at: nowIso, completed_at: nowIso, contacts: [],
        contacts_by_status: Object.fromEntries(CONTACT_STATUSES.map((s) => [s, 0])) as Record<ContactStatus, number>,
        _script: scriptId,
      };
      org.campaigns[campaign.id] = campaign;
      ids.push(campaign.id);
    }
    const phone = `+9198${String(i % 1e8).padStart(8, '0')}`;
    const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
    const seq = ++org.seq;
    const start = now - span + Math.floor((span * i) / n);
    const contact: Contact = { phone_number: phone, name, extra: { lead_id: i + 1, city: CITIES[i % CITIES.length] }, status: 'pending' };
    const call: Call = {
      call_id: callIdFor(world, org.id, seq, phone), campaign_id: campaign.id, agent_id: null, agent_name: script.agent_name,
      direction: 'outbound', phone_number: phone, status: 'initiated', end_reason: null, outcome: null, summary: null,
      error: null, duration_seconds: null, start_time: new Date(start).toISOString(), end_time: null, has_recording: false,
      contact: { name, extra: contact.extra }, _start: start, _seed: seq, _script: scriptId, _ci: campaign.contacts.length,
    };
    const fate = decideFate(callRng(world, org.id, seq, phone), script);
    applyFate(call, script, fate);
    call.has_recording = fate.recording_delay !== null;
    contact.status = fate.status;
    contact.call_id = call.call_id;
    campaign.contacts.push(contact);
    campaign.contacts_by_status[fate.status]++;
    org.calls[call.call_id] = call;
  }
  world.dropCallIndex(org);
  if (opts.warm ?? true) world.calls(org).warm(callView);
  world.changed();
  return ids;
}
