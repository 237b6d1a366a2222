/**
 * A `campaign run`'s results in one place: its waves are campaigns of their own on the
 * service; `campaign report --run JOURNAL` reads them all and reports the run as one
 * campaign (every wave's contacts and calls together), then a section per wave and one per
 * zone. The whole is made from the same contacts and calls as the waves, so its totals are
 * the waves' sums. `campaign followups --run` reads the same campaigns (runCampaignIds).
 */
import type { ApiClient } from '../api/client.js';
import { allCalls, type Call } from '../api/calls.js';
import { getCampaign, listContacts, type Campaign, type CampaignContact } from '../api/campaigns.js';
import { UsageError } from '../errors.js';
import { isFinished } from '../calls/model.js';
import { zonesForNumber } from '../hours/phone-zones.js';
import { campaignReport, hourlyStats, type CampaignReport, type HourlyStats } from './stats.js';

/**
 * What a run's report reads of its journal (campaigns/run/journal.ts, whose Journal is one):
 * the run's name and state and each wave's campaign. Reports sit below campaigns, so they
 * name only these fields rather than import the journal.
 */
export interface RunWaves {
  run_id: string;
  name: string;
  state: string;
  waves: ReadonlyArray<{ n: number; state: string; campaign_id?: string }>;
}

export interface RunReportPart {
  report: CampaignReport;
  hours: (zone: string) => HourlyStats;
}

export interface RunReport {
  run: { run_id: string; name: string; state: string; waves: number };
  whole: RunReportPart;
  waves: Array<RunReportPart & { n: number }>;
  zones: Array<RunReportPart & { zone: string }>;
}

type LaunchedWave = RunWaves['waves'][number] & { campaign_id: string };

/** The run's waves that were launched (a draft never launched dialed no one), in wave order; none is a usage error. */
function launchedWaves(j: RunWaves): LaunchedWave[] {
  const waves = j.waves.filter((w): w is LaunchedWave => Boolean(w.campaign_id) && (w.state === 'launched' || w.state === 'done'));
  if (waves.length === 0) throw new UsageError(`The run "${j.name}" (${j.run_id}) has launched no wave yet: nothing to report.`);
  return waves;
}

/** The campaigns of the run's launched waves, in wave order. */
export function runCampaignIds(j: RunWaves): string[] {
  return launchedWaves(j).map((w) => w.campaign_id);
}

function part(campaign: Campaign, contacts: CampaignContact[], calls: Call[]): RunReportPart {
  const once = [...new Map(calls.filter((c) => typeof c.call_id === 'string').map((c) => [c.call_id, c])).values()];
  return { report: campaignReport(campaign, contacts, calls), hours: (zone) => hourlyStats(once.filter(isFinished), zone) };
}

const zoneOf = (phone: unknown): string => (typeof phone === 'string' ? zonesForNumber(phone)[0] : undefined) ?? 'unknown zone';

export async function collectRunReport(api: ApiClient, j: RunWaves, signal?: AbortSignal): Promise<RunReport> {
  const launched = launchedWaves(j);
  const waves: RunReport['waves'] = [];
  const allContacts: CampaignContact[] = [];
  const allCallsOfRun: Call[] = [];
  const statuses: string[] = [];
  for (const w of launched) {
    const id = w.campaign_id;
    const [campaign, contacts] = await Promise.all([getCampaign(api, id, { signal }), listContacts(api, id, { signal })]);
    const calls: Call[] = [];
    for await (const c of allCalls(api, { campaign_id: id }, { signal })) calls.push(c);
    waves.push({ n: w.n, ...part(campaign, contacts, calls) });
    allContacts.push(...contacts);
    allCallsOfRun.push(...calls);
    statuses.push(campaign.status ?? 'unknown');
  }
  const status = statuses.every((s) => s === 'completed') ? 'completed' : 'running';
  const whole = part({ id: j.run_id, name: `${j.name} (run ${j.run_id}, all waves)`, status } as Campaign, allContacts, allCallsOfRun);
  const zones = [...new Set(allContacts.map((c) => zoneOf(c.phone_number)))].sort().map((zone) => ({
    zone,
    ...part({ id: `${j.run_id}:${zone}`, name: `${j.name} (run ${j.run_id}, ${zone})`, status } as Campaign,
      allContacts.filter((c) => zoneOf(c.phone_number) === zone), allCallsOfRun.filter((c) => zoneOf(c.phone_number) === zone)),
  }));
  return { run: { run_id: j.run_id, name: j.name, state: j.state, waves: launched.length }, whole, waves, zones };
}
