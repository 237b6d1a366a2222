/** `campaign run status JOURNAL`: the journal, with each unfinished wave read from the service. Releases nothing. */
import { spendSummary } from './guardrails.js';
import { spendJson } from '../../reports/rate-card.js';
import type { Baseline, Trip } from './breaker.js';
import type { ApiClient } from '../../api/client.js';
import { getCampaign } from '../../api/campaigns.js';
import type { Context } from '../../context.js';
import { countStates } from './deps.js';
import type { Journal } from './journal.js';
import { chooseWave, Planner } from './plan.js';
import { orphanWords } from './wave.js';

export interface Orphan {
  wave: number;
  name: string;
  note: string;
}

/** Waves whose create's answer was lost on a service that does not list campaigns: a draft of that name may exist, never to be launched. */
export function orphansOf(j: Journal): { orphans?: Orphan[] } {
  const list = j.waves.filter((w) => w.orphan).map((w) => ({ wave: w.n, name: w.name, note: orphanWords(w) }));
  return list.length > 0 ? { orphans: list } : {};
}

export interface RunStatus {
  run_id: string;
  name: string;
  state: Journal['state'];
  paused_reason?: string;
  waves: Array<{ n: number; name: string; state: string; campaign_id?: string; contacts: number; service_status?: string; contacts_by_status?: Record<string, number> }>;
  contacts: Record<string, number>;
  /** Contacts by the outcome of their last call (none yet: "not called"). */
  last_outcomes: Record<string, number>;
  /** Contacts by how many times they were dialed. */
  attempts: Record<string, number>;
  dialed: number;
  days: Record<string, number>;
  next_wave_at?: string;
  orphans?: Orphan[];
  /** The wave on the service: the next is released only once it has finished. */
  after_wave?: number;
  /** The answer-rate breaker: its mode, baseline and trips. */
  breaker?: { mode: string; baseline?: Baseline; tripped?: Trip; trips: number };
  /** From --rate-card: integer minor units spent on priced calls, the projected total, unpriced calls by country. */
  spend?: Record<string, unknown>;
  /** What a person reads of the spend. */
  spend_text?: string;
}

export async function runStatus(ctx: Context, j: Journal, api: ApiClient): Promise<RunStatus> {
  const waves: RunStatus['waves'] = [];
  for (const w of j.waves) {
    const row: RunStatus['waves'][number] = { n: w.n, name: w.name, state: w.state, contacts: w.contacts.length };
    if (w.campaign_id) row.campaign_id = w.campaign_id;
    if (w.campaign_id && w.state !== 'done' && w.state !== 'abandoned') {
      const c = await getCampaign(api, w.campaign_id, { signal: ctx.signal });
      if (c.status) row.service_status = c.status;
      if (c.contacts_by_status) row.contacts_by_status = c.contacts_by_status;
    }
    waves.push(row);
  }
  const out: RunStatus = {
    run_id: j.run_id, name: j.name, state: j.state, waves, contacts: countStates(j),
    last_outcomes: tally(j.contacts.map((c) => c.last_outcome ?? (c.attempts > 0 ? c.last_status ?? 'unknown' : 'not called'))),
    attempts: tally(j.contacts.map((c) => String(c.attempts))),
    dialed: j.contacts.reduce((n, c) => n + c.attempts, 0), days: j.days, ...orphansOf(j),
  };
  if (j.paused_reason) out.paused_reason = j.paused_reason;
  const g = j.guardrails;
  if (g) {
    out.breaker = { mode: g.breaker.mode, trips: g.trips.length };
    if (g.state.baseline) out.breaker.baseline = { ...g.state.baseline };
    if (g.state.tripped) out.breaker.tripped = { ...g.state.tripped };
  }
  const spend = spendSummary(j);
  if (spend) {
    out.spend = { ...spendJson(spend.spent), ...(spend.projected_minor !== undefined ? { projected_minor_units: spend.projected_minor } : {}) };
    out.spend_text = spend.text;
  }
  const unfinished = j.waves.find((w) => w.state !== 'done' && w.state !== 'abandoned');
  if (unfinished) out.after_wave = unfinished.n;
  else if (j.state !== 'finished') {
    const copy = j.contacts.map((c) => ({ ...c }));
    const choice = chooseWave(new Planner(copy, j.policy), copy, j.days, ctx.now().getTime());
    if (choice.take.length > 0) out.next_wave_at = ctx.now().toISOString();
    else if (choice.nextAt !== undefined) out.next_wave_at = new Date(choice.nextAt).toISOString();
  }
  return out;
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
