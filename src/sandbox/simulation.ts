/**
 * Calls, simulated. Launch dials every pending contact at once (within the key's daily
 * dispatch cap); each call runs pending -> initiated -> completed | no_answer | failed on
 * the simulated clock, its recording is saved some seconds later, and the campaign
 * completes when no contact is pending or initiated. Every due time is derived from
 * stored data, so a reloaded --state re-arms the same timers.
 */
import { callIdFor, type Fate } from './fate.js';
import { liveFate } from './degrade.js';
import { flat } from './rng.js';
import { summarize } from './transcript.js';
import { callView, campaignView, scriptOf } from './views.js';
import type { Call, Campaign, ContactStatus, OrgState, Script, World } from './world.js';

const DAY = 86_400_000;

export function installSimulation(world: World): void {
  world.onResume(() => {
    for (const org of world.orgs.values()) resumeOrg(world, org);
  });
}

function resumeOrg(world: World, org: OrgState): void {
  for (const call of Object.values(org.calls)) {
    if (call.status === 'initiated') armEnd(world, org, call);
    else if (call.status === 'completed' && !call.has_recording) armRecording(world, org, call);
  }
  for (const campaign of Object.values(org.campaigns)) {
    if (campaign.status === 'running' && campaign._resume_at !== undefined) {
      const at = campaign._resume_at;
      world.clock.at(at, () => dispatchRound(world, org, campaign));
    }
    // A campaign whose last call ended just before a crash still completes.
    if (campaign.status === 'running' && campaign._resume_at === undefined) maybeComplete(world, org, campaign);
  }
}

/** Draft -> running, and the first dispatch round. Returns how many calls were placed. */
export function launch(world: World, org: OrgState, campaign: Campaign, key: string): number {
  campaign.status = 'running';
  campaign.launched_at = world.clock.nowIso();
  campaign._key = key;
  return dispatchRound(world, org, campaign);
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Dials pending contacts until the key's cap for today is used up; the rest wait for the next simulated day. */
function dispatchRound(world: World, org: OrgState, campaign: Campaign): number {
  delete campaign._resume_at;
  if (campaign.status !== 'running') return 0;
  const now = world.clock.now();
  const key = campaign._key ? world.keys.get(campaign._key) : undefined;
  const cap = key?.daily_dispatch_cap;
  const today = utcDay(now);
  let counter = campaign._key ? org.dispatched[campaign._key] : undefined;
  if (campaign._key && (!counter || counter.day !== today)) {
    counter = { day: today, count: 0 };
    org.dispatched[campaign._key] = counter;
  }
  let budget = cap === undefined ? Infinity : Math.max(0, cap - (counter?.count ?? 0));
  const scriptId = scriptFor(org, campaign);
  const nowIso = new Date(now).toISOString();
  let placed = 0;
  let waiting = 0;
  for (let i = 0; i < campaign.contacts.length; i++) {
    if (campaign.contacts[i]!.status !== 'pending') continue;
    if (budget <= 0) {
      waiting++;
      continue;
    }
    // A dialer places calls one after another, a millisecond apart: every call gets its
    // own start time, so `since` filters can tell new calls from old ones.
    const at = now + placed;
    dial(world, org, campaign, i, scriptId, at, placed === 0 ? nowIso : new Date(at).toISOString());
    budget--;
    placed++;
  }
  if (counter) counter.count += placed;
  if (waiting > 0) {
    const at = (Math.floor(now / DAY) + 1) * DAY;
    campaign._resume_at = at;
    world.clock.at(at, () => dispatchRound(world, org, campaign));
  }
  world.changed();
  maybeComplete(world, org, campaign);
  return placed;
}

/** The agent as it is now; later edits and deletion leave these calls alone. */
function scriptFor(org: OrgState, campaign: Campaign): string {
  const agent = campaign.agent_id ? org.agents[campaign.agent_id] : undefined;
  const last = campaign._script ? org.scripts[campaign._script] : undefined;
  if (!agent && last) return campaign._script!;
  const script: Script = agent
    ? {
        agent_name: agent.name, greeting: agent.greeting, call_purpose: agent.call_purpose, prompt: agent.prompt,
        campaign_prompt: campaign.campaign_prompt ?? '', language: agent.language, tools: [...agent.tools],
      }
    : { agent_name: 'Agent', greeting: 'Hello!', call_purpose: campaign.name, prompt: '', campaign_prompt: campaign.campaign_prompt ?? '', language: 'en-IN', tools: [] };
  if (last && JSON.stringify(last) === JSON.stringify(script)) return campaign._script!;
  const id = `scr_${Object.keys(org.scripts).length + 1}_${org.seq}`;
  org.scripts[id] = script;
  campaign._script = id;
  return id;
}

function setContact(campaign: Campaign, index: number, status: ContactStatus): void {
  const contact = campaign.contacts[index];
  if (!contact || contact.status === status) return;
  campaign.contacts_by_status[contact.status]--;
  campaign.contacts_by_status[status]++;
  contact.status = status;
}

function dial(world: World, org: OrgState, campaign: Campaign, index: number, scriptId: string, now: number, nowIso: string): void {
  const contact = campaign.contacts[index]!;
  const seq = ++org.seq;
  const script = org.scripts[scriptId]!;
  const call: Call = {
    call_id: callIdFor(world, org.id, seq, contact.phone_number),
    campaign_id: campaign.id,
    agent_id: campaign.agent_id,
    agent_name: script.agent_name,
    direction: 'outbound',
    phone_number: contact.phone_number,
    status: 'initiated',
    end_reason: null,
    outcome: null,
    summary: null,
    error: null,
    duration_seconds: null,
    start_time: nowIso,
    end_time: null,
    has_recording: false,
    contact: { name: contact.name, extra: contact.extra },
    _start: now,
    _seed: seq,
    _script: scriptId,
    _ci: index,
  };
  // The index is built from org.calls on first use: take it before the call is stored, or it would hold the call twice.
  const calls = world.calls(org);
  org.calls[call.call_id] = call;
  calls.add(call);
  contact.call_id = call.call_id;
  setContact(campaign, call._ci, 'initiated');
  armEnd(world, org, call);
}

function fateOf(world: World, org: OrgState, call: Call): Fate {
  return liveFate(world, org.id, call, scriptOf(org, call)).fate;
}

function armEnd(world: World, org: OrgState, call: Call): void {
  const fate = fateOf(world, org, call);
  world.clock.at(call._start + fate.duration * 1000, () => finish(world, org, call, fate));
}

function armRecording(world: World, org: OrgState, call: Call): void {
  const fate = fateOf(world, org, call);
  if (fate.recording_delay === null) return;
  world.clock.at(call._start + (fate.duration + fate.recording_delay) * 1000, () => recordingReady(world, org, call));
}

/** Applies a fate to a call record (also used by the seeding helper). */
export function applyFate(call: Call, script: Script, fate: Fate): void {
  call.status = fate.status;
  call.end_reason = fate.end_reason;
  call.outcome = fate.outcome;
  call.error = fate.error;
  call.duration_seconds = fate.duration;
  call.end_time = new Date(call._start + fate.duration * 1000).toISOString();
  call.summary = flat(summarize(call, script, fate));
}

function finish(world: World, org: OrgState, call: Call, fate: Fate): void {
  if (call.status !== 'initiated' || org.calls[call.call_id] !== call) return;
  applyFate(call, scriptOf(org, call), fate);
  world.calls(org).touch(call);
  const campaign = call.campaign_id ? org.campaigns[call.campaign_id] : undefined;
  if (campaign && call._ci >= 0) setContact(campaign, call._ci, fate.status);
  world.emit(org.id, 'call.ended', callView(call));
  world.changed();
  armRecording(world, org, call);
  if (campaign) maybeComplete(world, org, campaign);
}

function recordingReady(world: World, org: OrgState, call: Call): void {
  if (call.has_recording || org.calls[call.call_id] !== call) return;
  call.has_recording = true;
  world.calls(org).touch(call);
  world.emit(org.id, 'call.recording_ready', callView(call));
  world.changed();
}

function maybeComplete(world: World, org: OrgState, campaign: Campaign): void {
  if (campaign.status !== 'running') return;
  if (campaign.contacts_by_status.pending > 0 || campaign.contacts_by_status.initiated > 0) return;
  campaign.status = 'completed';
  campaign.completed_at = world.clock.nowIso();
  delete campaign._resume_at;
  world.emit(org.id, 'campaign.completed', campaignView(campaign));
  world.changed();
}
