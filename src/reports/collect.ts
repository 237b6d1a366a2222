/** What `campaign report` reads from the service, for one campaign or several. */
import type { ApiClient } from '../api/client.js';
import { allCalls, getCall, type Call } from '../api/calls.js';
import { allCampaigns, getCampaign, listContacts } from '../api/campaigns.js';
import { UsageError } from '../errors.js';
import { campaignReport, hourlyStats, type CampaignReport, type HourlyStats } from './stats.js';
import { isFinished } from '../watch/calls.js';

/** The ids named, and the campaigns whose name starts with the prefix, in that order. */
export async function campaignIds(api: ApiClient, ids: string[], namePrefix?: string, signal?: AbortSignal): Promise<string[]> {
  const out = [...ids];
  if (namePrefix !== undefined) {
    for await (const c of allCampaigns(api, {}, { signal })) {
      if (typeof c.name === 'string' && c.name.startsWith(namePrefix) && !out.includes(c.id)) out.push(c.id);
    }
    if (out.length === ids.length) throw new UsageError(`No campaign's name starts with "${namePrefix}".`);
  }
  if (out.length === 0) throw new UsageError('Name a campaign: voicectl campaign report <id>... or --name-prefix P.');
  return out;
}

export async function collectReport(
  api: ApiClient,
  id: string,
  o: { transcripts: boolean; signal?: AbortSignal; onTranscript?: (done: number, total: number) => void },
): Promise<{ report: CampaignReport; hours: (zone: string) => HourlyStats }> {
  const [campaign, contacts] = await Promise.all([getCampaign(api, id, { signal: o.signal }), listContacts(api, id, { signal: o.signal })]);
  const calls: Call[] = [];
  for await (const c of allCalls(api, { campaign_id: id }, { signal: o.signal })) calls.push(c);
  const report = campaignReport(campaign, contacts, calls);
  if (o.transcripts) await addTranscripts(api, report, o.signal, o.onTranscript);
  // The report's hours are UTC (its JSON); people read them in their own zone.
  const once = [...new Map(calls.filter((c) => typeof c.call_id === 'string').map((c) => [c.call_id, c])).values()];
  return { report, hours: (zone) => hourlyStats(once.filter(isFinished), zone) };
}

/** One GET /calls/{id} a call, eight at a time. */
async function addTranscripts(api: ApiClient, report: CampaignReport, signal?: AbortSignal, progress?: (done: number, total: number) => void): Promise<void> {
  const todo = report.call_list.filter((c) => c.status === 'completed');
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < todo.length) {
      const call = todo[next++]!;
      const { call: full } = await getCall(api, call.call_id, signal);
      // Turns read defensively: a null or a bare string in the list is no reason to fail the page.
      call.transcript = Array.isArray(full.transcript)
        ? full.transcript.filter((t) => t && typeof t === 'object').map((t) => ({ role: text(t.role), text: text(t.text) }))
        : [];
      progress?.(++done, todo.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, todo.length) }, worker));
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}
