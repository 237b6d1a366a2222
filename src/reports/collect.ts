/** What `campaign report` reads from the service, for one campaign or several. */
import type { ApiClient } from '../api/client.js';
import { allCalls, getCall, recordingLink, type Call } from '../api/calls.js';
import { ApiError } from '../api/errors.js';
import { allCampaigns, getCampaign, listContacts } from '../api/campaigns.js';
import { UsageError } from '../errors.js';
import { campaignReport, hourlyStats, type CampaignReport, type HourlyStats } from './stats.js';
import { isFinished } from '../calls/model.js';

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
  o: { transcripts: boolean; recordings?: boolean; signal?: AbortSignal; onTranscript?: (done: number, total: number) => void },
): Promise<{ report: CampaignReport; hours: (zone: string) => HourlyStats; recordingFailures: Array<{ callId: string; message: string }> }> {
  const [campaign, contacts] = await Promise.all([getCampaign(api, id, { signal: o.signal }), listContacts(api, id, { signal: o.signal })]);
  const calls: Call[] = [];
  for await (const c of allCalls(api, { campaign_id: id }, { signal: o.signal })) calls.push(c);
  const report = campaignReport(campaign, contacts, calls);
  if (o.transcripts) await addTranscripts(api, report, o.signal, o.onTranscript);
  const recordingFailures = o.recordings ? await addRecordingLinks(api, report, o.signal) : [];
  // The report's hours are UTC (its JSON); people read them in their own zone.
  const once = [...new Map(calls.filter((c) => typeof c.call_id === 'string').map((c) => [c.call_id, c])).values()];
  return { report, hours: (zone) => hourlyStats(once.filter(isFinished), zone), recordingFailures };
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

/**
 * `--recordings`: a fresh link for each call with a saved recording, eight at a time. A link
 * the service will not give is no reason to lose the page: that call shows no player, and
 * the failures are returned for the command to name.
 */
async function addRecordingLinks(api: ApiClient, report: CampaignReport, signal?: AbortSignal): Promise<Array<{ callId: string; message: string }>> {
  const todo = report.call_list.filter((c) => c.has_recording);
  const failures: Array<{ callId: string; message: string }> = [];
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const call = todo[next++]!;
      try {
        call.recording_url = (await recordingLink(api, call.call_id, signal)).url;
      } catch (err) {
        if (!(err instanceof ApiError) || signal?.aborted) throw err;
        failures.push({ callId: call.call_id, message: err.message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, todo.length) }, worker));
  return failures;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}
