/**
 * The run itself: releases waves as the schedule allows, each created then launched,
 * follows each to its end, records every contact's result, and schedules retries. Every
 * create and launch is preceded by a journal write marking it pending, so a run killed
 * at any moment and resumed never sends either twice: a pending create is looked up by
 * the wave's unique name, a pending launch by the campaign's status.
 *
 * A released wave cannot be stopped (the API has no cancel): Ctrl-C stops releasing,
 * says how many calls are still in flight, and leaves the journal ready for --resume.
 */
import type { ApiClient } from '../../api/client.js';
import { allCalls } from '../../api/calls.js';
import { allCampaigns, getCampaign, isListUnsupported, type Campaign, type CampaignDraft } from '../../api/campaigns.js';
import { ApiError } from '../../api/errors.js';
import type { Context } from '../../context.js';
import { FailureError, InterruptedError } from '../../errors.js';
import { CampaignsStopped, createCampaigns, type PlannedCampaign } from '../create-campaigns.js';
import { idOf } from '../create-run.js';
import { toWire } from '../input.js';
import { launchError } from '../launch-flow.js';
import { plural } from '../../io/text.js';
import { readContacts } from '../read.js';
import { zoneLabel } from '../calling-hours.js';
import type { Journal, JournalFile, RunContact, Wave } from './journal.js';
import { capDay, chooseWave, Planner } from './plan.js';
import { NEVER_AGAIN_OUTCOMES } from './policy.js';

export interface RunView {
  /** One thing happened (a wave released, finished, a wait begun). */
  event(line: string): void;
  /** The live state changed (redrawn on a terminal, silent elsewhere). */
  refresh(journal: Journal, waitingFor?: { until: number; planner: Planner }): void;
  close(): void;
}

export interface RunDeps {
  ctx: Context;
  api: ApiClient;
  file: JournalFile;
  view: RunView;
  /** The command that resumes this run, for messages. */
  resume: string;
  /** How often a running wave is read (ms on the context's clock). */
  pollMs?: number;
}

/** Calls not yet finished in each wave on the service, as of its last read (for the pause message). */
const inFlight = new WeakMap<Wave, number>();

const POLL_MS = 5_000;

export function waveName(j: Journal, n: number): string {
  return `${j.name} (wave ${n}, run ${j.run_id})`;
}

export function countStates(j: Journal): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of j.contacts) counts[c.state] = (counts[c.state] ?? 0) + 1;
  return counts;
}

/** Runs until every contact is done, expired or excluded; throws on a pause. */
export async function drive(d: RunDeps): Promise<void> {
  const j = d.file.journal;
  const planner = new Planner(j.contacts, j.policy);
  if (j.state !== 'running') {
    delete j.paused_reason;
    j.state = 'running';
  }
  // A contact marked in a wave that no unfinished wave holds (a journal edited by hand)
  // would never be dialed: it waits for a wave again.
  const held = new Set(j.waves.filter((w) => w.state !== 'done' && w.state !== 'abandoned').flatMap((w) => w.contacts));
  j.contacts.forEach((c, i) => {
    if (c.state === 'in_wave' && !held.has(i)) c.state = 'waiting';
  });
  try {
    for (const w of j.waves) {
      if (w.state !== 'done' && w.state !== 'abandoned') await settle(d, planner, w, false);
    }
    for (;;) {
      stopIfPaused(d);
      const t = d.ctx.now().getTime();
      const choice = chooseWave(planner, j.contacts, j.days, t);
      if (choice.take.length > 0) {
        const w: Wave = { n: j.waves.length + 1, name: '', state: 'creating', contacts: choice.take };
        w.name = waveName(j, w.n);
        for (const i of choice.take) j.contacts[i]!.state = 'in_wave';
        j.waves.push(w);
        await settle(d, planner, w, true);
        continue;
      }
      if (choice.nextAt === undefined) {
        finish(d, choice.blocked === 'deadline' ? 'the deadline' : 'no calling window opens for them within eight days');
        await d.file.save();
        return;
      }
      d.view.event(choice.blocked === 'cap'
        ? `Daily cap of ${plural(j.policy.daily_cap ?? 0, 'contact')} reached for ${capDay(t, j.policy.day_zone)} (${j.policy.day_zone ?? 'UTC'}); waiting for ${iso(choice.nextAt)}.`
        : `No contact is inside its calling window; the next wave can go at ${iso(choice.nextAt)}.`);
      await waitUntil(d, choice.nextAt, planner);
    }
  } catch (err) {
    if (d.ctx.signal.aborted) await pause(d);
    throw err;
  } finally {
    d.view.close();
  }
}

/** Moves a wave through create, launch and follow, from whatever state the journal left it in. */
async function settle(d: RunDeps, planner: Planner, w: Wave, fresh: boolean): Promise<void> {
  if (w.state === 'creating' && !fresh) {
    // The create was sent and its answer never recorded: the service may have made it.
    const found = await findByName(d, w);
    if (found) {
      recordCreated(d, w, idOf(found)!);
      d.view.event(`Wave ${w.n}: found "${w.name}" (${w.campaign_id}), created before the interruption.`);
      await d.file.save();
    }
  }
  if (w.state === 'creating' || w.state === 'created') await createAndLaunch(d, planner, w);
  if (w.state === 'launching') await confirmLaunch(d, planner, w);
  if (w.state === 'launched') await follow(d, planner, w);
}

/**
 * One wave through the shared create-and-launch workflow, the journal written before
 * each request is sent (marking it pending) and after each answer.
 */
async function createAndLaunch(d: RunDeps, planner: Planner, w: Wave): Promise<void> {
  const j = d.file.journal;
  stopIfPaused(d);
  const planned: PlannedCampaign = { draft: draftOf(j, w), launch: true, ...(w.campaign_id ? { id: w.campaign_id } : {}) };
  try {
    // No signal: a POST cut off half-way leaves the run not knowing what it did.
    await createCampaigns(d.api, [planned], {
      beforeCreate: () => d.file.save(),
      created: async (_p, id) => {
        recordCreated(d, w, id);
        await d.file.save();
        d.view.event(`Wave ${w.n}: created "${w.name}" (${id}) with ${plural(w.contacts.length, 'contact')}.`);
      },
      beforeLaunch: async () => {
        if (!stillOpen(d, planner, w)) {
          await d.file.save();
          return false;
        }
        stopIfPaused(d);
        w.state = 'launching';
        await d.file.save();
        return true;
      },
      launched: async () => {
        recordLaunched(d, w);
        await d.file.save();
        d.view.event(`Wave ${w.n}: launched, dialing ${plural(w.contacts.length, 'contact')}.`);
      },
    });
  } catch (err) {
    if (!(err instanceof CampaignsStopped)) throw err;
    await stopped(d, w, err);
  }
}

function draftOf(j: Journal, w: Wave): CampaignDraft {
  return {
    name: w.name,
    agent_id: j.agent_id,
    ...(j.campaign_prompt !== undefined ? { campaign_prompt: j.campaign_prompt } : {}),
    ...(j.kb_item_ids !== undefined ? { kb_item_ids: j.kb_item_ids } : {}),
    contacts: w.contacts.map((i) => toWire(j.contacts[i]!)),
  };
}

/** What a stop of the workflow means for the run: unknown, refused, or (409) already launched. */
async function stopped(d: RunDeps, w: Wave, s: CampaignsStopped): Promise<void> {
  const j = d.file.journal;
  const err = s.cause;
  if (s.unknown) throw await unknownStep(d, w, s.at.step, err);
  if (s.at.step === 'create') {
    // Refused: nothing was created, so the wave's contacts wait for another.
    abandon(j, w);
    j.state = 'paused';
    j.paused_reason = `the service refused to create wave ${w.n}`;
    await d.file.save();
    throw err;
  }
  if (err instanceof ApiError && err.kind === 'http' && err.status === 409) {
    // Not a draft any more: it was launched.
    recordLaunched(d, w);
    await d.file.save();
    return;
  }
  w.state = 'created';
  j.state = 'paused';
  if (looksLikeCap(err)) {
    j.paused_reason = `the service refused to launch wave ${w.n}, which looks like the key's daily dispatch cap`;
    await d.file.save();
    throw new FailureError(`Paused: the service refused to launch wave ${w.n} (${(err as ApiError).status}: ${(err as ApiError).message}), which looks like the key's daily dispatch cap. Nothing of wave ${w.n} was dialed.`, {
      hint: `Resume when the cap resets (usually the next day): ${d.resume}. Setting --daily-cap below the key's cap keeps the run from reaching it.`,
    });
  }
  j.paused_reason = `the service refused to launch wave ${w.n}`;
  await d.file.save();
  throw launchError(err, w.campaign_id!);
}

function recordCreated(d: RunDeps, w: Wave, id: string): void {
  w.state = 'created';
  w.campaign_id = id;
  w.created_at = d.ctx.now().toISOString();
}

/** The campaign of this wave on the service, by its unique name. */
async function findByName(d: RunDeps, w: Wave): Promise<Campaign | undefined> {
  try {
    for await (const c of allCampaigns(d.api, {}, { signal: d.ctx.signal })) if (c.name === w.name && idOf(c)) return c;
  } catch (err) {
    if (isListUnsupported(err)) {
      throw new FailureError(`Wave ${w.n} ("${w.name}") may or may not have been created: the run stopped before the answer, and this service does not list campaigns to check.`, {
        hint: `Look for it in the dashboard. If it exists, launch it yourself (voicectl campaign launch ID) and start a new run for the rest; if it does not, edit the journal: set wave ${w.n}'s "state" to "abandoned" (its contacts then wait for a new wave), and ${d.resume}.`,
      });
    }
    throw err;
  }
  return undefined;
}

/** A draft whose contacts' windows have closed (a resume hours later) is left undialed: they wait for a new wave. */
function stillOpen(d: RunDeps, planner: Planner, w: Wave): boolean {
  const t = d.ctx.now().getTime();
  const deadline = d.file.journal.policy.deadline ? Date.parse(d.file.journal.policy.deadline) : Infinity;
  const open = t < deadline && w.contacts.every((i) => {
    const g = planner.group(i);
    return g !== undefined && planner.openFor(g, t);
  });
  if (open) return true;
  abandon(d.file.journal, w);
  d.view.event(`Wave ${w.n}: "${w.name}" (${w.campaign_id}) stays a draft, never launched: its contacts' window closed meanwhile. They wait for a new wave.`);
  return false;
}

function abandon(j: Journal, w: Wave): void {
  w.state = 'abandoned';
  for (const i of w.contacts) if (j.contacts[i]!.state === 'in_wave') j.contacts[i]!.state = 'waiting';
}

function recordLaunched(d: RunDeps, w: Wave): void {
  const j = d.file.journal;
  const now = d.ctx.now();
  w.state = 'launched';
  w.launched_at = now.toISOString();
  for (const i of w.contacts) {
    const c = j.contacts[i]!;
    c.attempts++;
    c.waves.push(w.n);
    delete c.next_at;
  }
  const day = capDay(now.getTime(), j.policy.day_zone);
  j.days[day] = (j.days[day] ?? 0) + w.contacts.length;
}

/** A launch sent and not recorded: the campaign's status says whether it happened. */
async function confirmLaunch(d: RunDeps, planner: Planner, w: Wave): Promise<void> {
  const c = await getCampaign(d.api, w.campaign_id!, { signal: d.ctx.signal });
  if (c.status === 'draft') {
    w.state = 'created';
    await createAndLaunch(d, planner, w);
    return;
  }
  recordLaunched(d, w);
  await d.file.save();
  d.view.event(`Wave ${w.n}: launched before the interruption (${c.status ?? 'status not given'}).`);
}

/** Reads the wave until every contact has been called, then records each one's result. */
async function follow(d: RunDeps, planner: Planner, w: Wave): Promise<void> {
  const j = d.file.journal;
  const id = w.campaign_id!;
  const closes = earliestClose(planner, w, Date.parse(w.launched_at ?? d.ctx.now().toISOString()));
  let warnedClose = false;
  // Soon after the launch first (a short wave is over in seconds), then every few seconds.
  let poll = Math.min(1000, d.pollMs ?? POLL_MS);
  for (;;) {
    const c = await getCampaign(d.api, id, { signal: d.ctx.signal });
    const by = c.contacts_by_status ?? {};
    const live = (by.pending ?? 0) + (by.initiated ?? 0);
    if (c.contacts_by_status) inFlight.set(w, live);
    if (c.status === 'completed' || (c.status !== 'draft' && c.contacts_by_status && live === 0)) break;
    const now = d.ctx.now().getTime();
    if (!warnedClose && closes !== undefined && now >= closes.at && (by.initiated ?? 0) > 0) {
      warnedClose = true;
      d.view.event(`Wave ${w.n}: ${plural(by.initiated ?? 0, 'call')} still running after the calling window closed in ${closes.zone}; the service finishes them (the API has no cancel).`);
    }
    d.view.refresh(j);
    await d.ctx.sleep(poll, d.ctx.signal);
    poll = Math.min(poll * 2, d.pollMs ?? POLL_MS);
  }
  const contacts = await readContacts(d.api, id, d.ctx.signal);
  const outcomes = new Map<string, string>();
  for await (const call of allCalls(d.api, { campaign_id: id }, { signal: d.ctx.signal })) {
    if (call.call_id && typeof call.outcome === 'string') outcomes.set(call.call_id, call.outcome);
  }
  // Match by number, in order: a list kept with --keep-duplicates may hold a number twice.
  const byPhone = new Map<string, typeof contacts>();
  for (const sc of contacts) {
    const list = byPhone.get(sc.phone_number) ?? [];
    list.push(sc);
    byPhone.set(sc.phone_number, list);
  }
  const now = d.ctx.now().getTime();
  const tally: Record<string, number> = {};
  let retries = 0;
  for (const i of w.contacts) {
    const rc = j.contacts[i]!;
    const sc = byPhone.get(rc.phone_number)?.shift();
    const status = sc?.status ?? 'unknown';
    tally[status] = (tally[status] ?? 0) + 1;
    rc.last_status = status;
    if (sc?.call_id) rc.call_id = sc.call_id;
    const outcome = sc?.call_id ? outcomes.get(sc.call_id) : undefined;
    if (outcome !== undefined) rc.last_outcome = outcome;
    else delete rc.last_outcome;
    if (retryable(j, rc)) {
      rc.state = 'waiting';
      rc.next_at = new Date(now + j.policy.retry_after_ms).toISOString();
      retries++;
    } else {
      rc.state = 'done';
    }
  }
  w.state = 'done';
  w.done_at = new Date(now).toISOString();
  await d.file.save();
  const parts = Object.entries(tally).map(([s, n]) => `${n} ${s.replace('_', ' ')}`).join(', ');
  d.view.event(`Wave ${w.n}: finished: ${parts}${retries > 0 ? `; ${plural(retries, 'contact')} to try again from ${iso(now + j.policy.retry_after_ms)}` : ''}.`);
}

function retryable(j: Journal, c: RunContact): boolean {
  if (c.attempts >= j.policy.attempts) return false;
  if (c.last_outcome !== undefined && NEVER_AGAIN_OUTCOMES.has(c.last_outcome)) return false;
  return c.last_status !== undefined && j.policy.retry_on.includes(c.last_status);
}

function earliestClose(planner: Planner, w: Wave, at: number): { at: number; zone: string } | undefined {
  let best: { at: number; zone: string } | undefined;
  const seen = new Set<string>();
  for (const i of w.contacts) {
    const g = planner.group(i);
    if (!g || seen.has(g.key)) continue;
    seen.add(g.key);
    const close = planner.closesAfter(g, at);
    if (!best || close < best.at) best = { at: close, zone: zoneLabel(g.zones) };
  }
  return best;
}

async function waitUntil(d: RunDeps, at: number, planner: Planner): Promise<void> {
  for (;;) {
    const left = at - d.ctx.now().getTime();
    if (left <= 0) return;
    d.view.refresh(d.file.journal, { until: at, planner });
    // A terminal's view is redrawn each second; elsewhere one sleep does.
    await d.ctx.sleep(d.ctx.interactiveStderr ? Math.min(left, 1000) : left, d.ctx.signal);
  }
}

function finish(d: RunDeps, why: string): void {
  const j = d.file.journal;
  let expired = 0;
  for (const c of j.contacts) {
    if (c.state === 'waiting') {
      c.state = 'expired';
      expired++;
    }
  }
  j.state = 'finished';
  if (expired > 0) d.view.event(`${plural(expired, 'contact')} expired: not dialed${j.policy.attempts > 1 ? ' (or not redialed)' : ''} before ${why}. They are listed in the journal, state "expired".`);
}

function stopIfPaused(d: RunDeps): void {
  if (d.ctx.signal.aborted) throw d.ctx.signal.reason instanceof Error ? d.ctx.signal.reason : new InterruptedError();
}

/** Ctrl-C: nothing more is released; what is in flight finishes on the service. */
async function pause(d: RunDeps): Promise<void> {
  const j = d.file.journal;
  j.state = 'paused';
  j.paused_reason = 'interrupted';
  await d.file.save();
  const flying = j.waves.filter((w) => w.state === 'launched' || w.state === 'launching');
  if (flying.length === 0) d.view.event('Paused: no further wave is released; no call is in flight.');
  for (const w of flying) {
    const known = inFlight.get(w);
    const calls = known === undefined ? `${plural(w.contacts.length, 'call')} (just launched)` : `${plural(known, 'call')} (as of the last read)`;
    d.view.event(`Paused: no further wave is released. Wave ${w.n} is on the service with ${calls} still in flight: a released wave cannot be stopped (the API has no cancel), so they finish there.`);
  }
  d.view.event(`Continue with: ${d.resume}`);
}

async function unknownStep(d: RunDeps, w: Wave, step: 'create' | 'launch', err: unknown): Promise<FailureError> {
  const j = d.file.journal;
  j.state = 'paused';
  j.paused_reason = `the ${step} of wave ${w.n} got no answer`;
  await d.file.save();
  return new FailureError(`Wave ${w.n}: the request to ${step} "${w.name}" got no answer (${(err as Error).message}), so it may or may not have happened.`, {
    hint: `The journal marks it pending; ${d.resume} checks with the service before sending anything again.`,
  });
}

/** A refusal of a launch that reads like the key's daily dispatch cap (the spec names the cap, not its error). */
export function looksLikeCap(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.kind !== 'http' || err.status === undefined) return false;
  if (err.status === 429) return true;
  return err.status >= 400 && err.status < 500 && ![404, 409].includes(err.status) && /\b(cap|daily|dispatch limit|quota)\b/i.test(`${err.message} ${err.limit ?? ''}`);
}

export function iso(ms: number): string {
  const s = new Date(ms).toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 16)} UTC`;
}
