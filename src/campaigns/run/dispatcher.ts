/**
 * The run itself: releases waves as the schedule allows (each created, launched and
 * followed to its end by wave.ts and follow.ts), waits for the next opening, and ends
 * when every contact is done, expired or excluded.
 *
 * A released wave cannot be stopped (the API has no cancel): Ctrl-C stops releasing,
 * says how many calls are still in flight, and leaves the journal ready for --resume.
 */
import { plural } from '../../text/text.js';
import { inFlight, waitUntil, waveName, type RunDeps } from './deps.js';
import type { Wave } from './journal.js';
import { capDay, chooseWave, Planner } from './plan.js';
import { settle, stopIfPaused } from './wave.js';
import { when } from './when.js';

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
      const zone = d.ctx.timeZone;
      d.view.event(choice.blocked === 'cap'
        ? `Daily cap of ${plural(j.policy.daily_cap ?? 0, 'contact')} reached for ${capDay(t, j.policy.day_zone)} (${j.policy.day_zone ?? 'UTC'}); waiting for ${when(choice.nextAt, zone)}.`
        : choice.held
          ? `Holding ${plural(choice.held, 'contact')} until the time they asked to be called; the next wave can go at ${when(choice.nextAt, zone)}. voicectl must keep running (or be resumed) to release it.`
          : `No contact is inside its calling window; the next wave can go at ${when(choice.nextAt, zone)}.`);
      await waitUntil(d, choice.nextAt, planner);
    }
  } catch (err) {
    if (d.ctx.signal.aborted) await pause(d);
    throw err;
  } finally {
    d.view.close();
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
