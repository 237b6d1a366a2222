/**
 * Following a launched wave: read it until every contact has been called, then record
 * each contact's status, outcome and call, and schedule the retries the policy allows.
 */
import { allCalls } from '../../api/calls.js';
import { getCampaign } from '../../api/campaigns.js';
import { plural, shellQuote } from '../../text/text.js';
import { readContacts } from '../read.js';
import { zoneLabel } from '../../hours/calling-hours.js';
import { inFlight, type RunDeps } from './deps.js';
import type { Journal, RunContact, Wave } from './journal.js';
import type { Planner } from './plan.js';
import { NEVER_AGAIN_OUTCOMES } from './policy.js';
import { when } from './when.js';
import { afterWave, guardrailStop, tripText, type WaveCall } from './guardrails.js';

const POLL_MS = 5_000;

/** Reads the wave until every contact has been called, then records each one's result. */
export async function follow(d: RunDeps, planner: Planner, w: Wave): Promise<void> {
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
  const waveCalls: WaveCall[] = [];
  for await (const call of allCalls(d.api, { campaign_id: id }, { signal: d.ctx.signal })) {
    if (call.call_id && typeof call.outcome === 'string') outcomes.set(call.call_id, call.outcome);
    if (typeof call.phone_number === 'string') waveCalls.push({ phone_number: call.phone_number, status: call.status, duration_seconds: typeof call.duration_seconds === 'number' ? call.duration_seconds : undefined });
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
  const statuses: Array<string | undefined> = [];
  for (const i of w.contacts) {
    const rc = j.contacts[i]!;
    const sc = byPhone.get(rc.phone_number)?.shift();
    const status = sc?.status ?? 'unknown';
    tally[status] = (tally[status] ?? 0) + 1;
    rc.last_status = status;
    statuses.push(sc?.status);
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
  const trip = afterWave(j, statuses, waveCalls, new Date(now));
  const pausing = trip !== undefined && j.guardrails?.breaker.mode === 'pause';
  if (pausing) {
    j.state = 'paused';
    j.paused_reason = `answer-rate breaker: ${tripText(trip)}`;
  }
  await d.file.save();
  const parts = Object.entries(tally).map(([s, n]) => `${n} ${s.replace('_', ' ')}`).join(', ');
  d.view.event(`Wave ${w.n}: finished: ${parts}${retries > 0 ? `; ${plural(retries, 'contact')} to try again from ${when(now + j.policy.retry_after_ms, d.ctx.timeZone)}` : ''}.`);
  if (trip && !pausing) d.view.event(`Warning (answer-rate breaker, --breaker warn): ${tripText(trip)}. The run goes on.`);
  if (trip && pausing) throw guardrailStop(trip, d.resume, shellQuote(d.file.path));
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
