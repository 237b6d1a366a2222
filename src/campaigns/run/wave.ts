/**
 * One wave through create, launch and follow, from whatever state the journal left it
 * in. Every create and launch is preceded by a journal write marking it pending, so a run
 * killed at any moment and resumed never sends either twice: a pending create is looked
 * up by the wave's unique name, a pending launch by the campaign's status.
 */
import { allCampaigns, getCampaign, isListUnsupported, type Campaign, type CampaignDraft } from '../../api/campaigns.js';
import { ApiError } from '../../api/errors.js';
import { FailureError, InterruptedError } from '../../errors.js';
import { CampaignsStopped, createCampaigns, idOf, type PlannedCampaign } from '../create-campaigns.js';
import { toWire } from '../input.js';
import { launchError } from '../launch-flow.js';
import { duration, plural } from '../../text/text.js';
import { waitUntil, type RunDeps } from './deps.js';
import { follow } from './follow.js';
import type { Journal, Wave } from './journal.js';
import { capDay, type Planner } from './plan.js';
import { when } from './when.js';

/** Moves a wave through create, launch and follow, from whatever state the journal left it in. */
export async function settle(d: RunDeps, planner: Planner, w: Wave, fresh: boolean): Promise<void> {
  // The create was sent and its answer never recorded: the service may have made it.
  if (w.state === 'creating' && !fresh && !(await settleLostCreate(d, planner, w))) return;
  if (w.state === 'creating' || w.state === 'created') await createAndLaunch(d, planner, w);
  if (w.state === 'launching') await confirmLaunch(d, planner, w);
  if (w.state === 'launched') await follow(d, planner, w);
}

/** The longest a run waits for a lost request to have landed or never to land. */
export const LOST_ANSWER_WAIT_MS = 2 * 60_000;

/**
 * A request whose answer was lost may still be on its way to the service (a slow network,
 * a proxy): nothing about it is decided until it could no longer land, which is its
 * deadline counted from when it was sent (the journal's stamp), or two minutes from now,
 * whichever comes first. Says so, and counts down on a terminal.
 */
async function waitOutLost(d: RunDeps, planner: Planner, w: Wave, step: 'create' | 'launch'): Promise<void> {
  const now = d.ctx.now().getTime();
  const sent = w.sent_at !== undefined ? Date.parse(w.sent_at) : now;
  const until = Math.min(sent + (w.timeout_ms ?? d.api.timeoutMs), now + LOST_ANSWER_WAIT_MS);
  if (until <= now) return;
  d.view.event(`Wave ${w.n}: the answer to its ${step}${w.sent_at ? ` (sent ${when(sent, d.ctx.timeZone)})` : ''} was lost; waiting ${duration((until - now) / 1000)}, until it can no longer land, before asking the service.`);
  await waitUntil(d, until, planner, `Wave ${w.n}: asking the service about the lost ${step}`);
}

/**
 * A create whose answer was lost: once it can no longer land, a service that lists
 * campaigns is asked for the wave by its unique name (found: adopted; not found: created
 * again). One that does not list them leaves the run not knowing: the wave is set aside
 * as a possible orphan draft, named in the journal, the summary and `run status`, never
 * launched, and its contacts wait for another wave. A draft dials no one, so the contacts
 * are dialed exactly once either way. Returns whether the wave goes on.
 */
async function settleLostCreate(d: RunDeps, planner: Planner, w: Wave): Promise<boolean> {
  await waitOutLost(d, planner, w, 'create');
  const found = await findByName(d, w);
  if (found === 'unlisted') {
    abandon(d.file.journal, w);
    w.orphan = true;
    await d.file.save();
    d.view.event(`Wave ${w.n}: this service does not list campaigns, so whether "${w.name}" was created cannot be checked. ${orphanWords(w)} Its ${plural(w.contacts.length, 'contact')} wait for another wave.`);
    return false;
  }
  if (found) {
    recordCreated(d, w, idOf(found)!);
    d.view.event(`Wave ${w.n}: found "${w.name}" (${w.campaign_id}), created before its answer was lost.`);
    await d.file.save();
  }
  return true;
}

/** How a possible orphan draft is named to a person, wherever it is listed. */
export function orphanWords(w: Pick<Wave, 'name'>): string {
  return `"${w.name}" may exist as a draft; never launch it.`;
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
      beforeCreate: () => {
        stamp(d, w);
        return d.file.save();
      },
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
        stamp(d, w);
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
    await stopped(d, planner, w, err);
  }
}

/** The pending stamp: when the request is sent, and its deadline. */
function stamp(d: RunDeps, w: Wave): void {
  w.sent_at = d.ctx.now().toISOString();
  w.timeout_ms = d.api.timeoutMs;
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

/** What a stop of the workflow means for the run: no answer (settled as on a resume), refused, or (409) already launched. */
async function stopped(d: RunDeps, planner: Planner, w: Wave, s: CampaignsStopped): Promise<void> {
  const j = d.file.journal;
  const err = s.cause;
  if (s.unknown) {
    // A lost answer does not stop the run: it finds out what happened, as --resume would.
    if (d.ctx.signal.aborted) throw err;
    d.view.event(`Wave ${w.n}: the request to ${s.at.step} "${w.name}" got no answer (${(err as Error).message}).`);
    if (s.at.step === 'create') {
      w.state = 'creating';
      if (await settleLostCreate(d, planner, w)) await createAndLaunch(d, planner, w);
    } else {
      // settle() goes on with confirmLaunch, which waits it out and reads the campaign's status.
      w.state = 'launching';
    }
    return;
  }
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

/** The campaign of this wave on the service, by its unique name; 'unlisted' when the service does not list campaigns. */
async function findByName(d: RunDeps, w: Wave): Promise<Campaign | undefined | 'unlisted'> {
  try {
    for await (const c of allCampaigns(d.api, {}, { signal: d.ctx.signal })) if (c.name === w.name && idOf(c)) return c;
  } catch (err) {
    if (isListUnsupported(err)) return 'unlisted';
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
  await waitOutLost(d, planner, w, 'launch');
  const c = await getCampaign(d.api, w.campaign_id!, { signal: d.ctx.signal });
  if (c.status === 'draft') {
    w.state = 'created';
    await createAndLaunch(d, planner, w);
    // Its answer lost again: asked again.
    if ((w.state as Wave['state']) === 'launching') await confirmLaunch(d, planner, w);
    return;
  }
  recordLaunched(d, w);
  await d.file.save();
  d.view.event(`Wave ${w.n}: launched before the interruption (${c.status ?? 'status not given'}).`);
}


/** A refusal of a launch that reads like the key's daily dispatch cap (the spec names the cap, not its error). */
function looksLikeCap(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.kind !== 'http' || err.status === undefined) return false;
  if (err.status === 429) return true;
  return err.status >= 400 && err.status < 500 && ![404, 409].includes(err.status) && /\b(cap|daily|dispatch limit|quota)\b/i.test(`${err.message} ${err.limit ?? ''}`);
}


export function abandon(j: Journal, w: Wave): void {
  w.state = 'abandoned';
  for (const i of w.contacts) if (j.contacts[i]!.state === 'in_wave') j.contacts[i]!.state = 'waiting';
}

export function stopIfPaused(d: RunDeps): void {
  if (d.ctx.signal.aborted) throw d.ctx.signal.reason instanceof Error ? d.ctx.signal.reason : new InterruptedError();
}
