/** How calls look in tables, and the filter flags, shared by the call verbs. */
import type { Call, CallFilters } from '../../api/calls.js';
import type { Column } from '../../io/output.js';
import { duration } from '../../text/text.js';
import { formatDateTime, isoInZone, toQueryTime, type TypedTime } from '../../util/time.js';
import { UsageError } from '../../errors.js';
import { outcomeWord } from '../../calls/outcome.js';

/**
 * The --campaign/--since/--until/--status flags as GET /calls filters: typed times are
 * read in `zone` and sent in UTC with Z.
 */
export function filtersFrom(flags: { campaign?: string; since?: TypedTime; until?: TypedTime; status?: string }, zone: string): CallFilters {
  const since = flags.since?.in(zone);
  const until = flags.until?.in(zone);
  if (since && until && since.getTime() >= until.getTime()) {
    throw new UsageError(`--since (${formatDateTime(since.getTime(), zone)}) must be before --until (${formatDateTime(until.getTime(), zone)}), both ${zone}.`);
  }
  return { campaign_id: flags.campaign, since: toQueryTime(since), until: toQueryTime(until), status: flags.status };
}

/**
 * Calls as rows: the table of `call list` (times in `zone`, the summary cut to what the
 * terminal leaves) and its -o csv, which has every spec field as the service sent it,
 * untruncated and UTC. TIME, CALL ID, NUMBER, STATUS and DURATION stay at any width (the
 * id shortened to a unique prefix); CONTACT, OUTCOME and SUMMARY show as the width allows.
 */
export function callColumns(terminalWidth: number | undefined, zone: string): Column<Call>[] {
  // The summary takes what the other columns leave of the terminal (they need about 110).
  const summaryMax = Math.max(20, (terminalWidth ?? 160) - 112);
  const only = (...keys: string[]): Column<Call>[] => keys.map((k) => ({ header: k, key: k, table: false }));
  return [
    { header: `TIME (${zone})`, get: (c) => isoInZone(c.start_time, zone), csv: false },
    { header: 'CALL ID', key: 'call_id', id: true },
    ...only('campaign_id', 'agent_id', 'agent_name', 'direction'),
    { header: 'NUMBER', key: 'phone_number' },
    { header: 'CONTACT', get: (c) => c.contact?.name, max: 24, drop: 2, csv: false },
    { header: 'STATUS', key: 'status' },
    ...only('end_reason'),
    { header: 'OUTCOME', get: (c) => outcomeWord(c), max: 24, drop: 1, csv: { name: 'outcome', get: (c) => c.outcome } },
    { header: 'DURATION', get: (c) => duration(c.duration_seconds), csv: false },
    { header: 'SUMMARY', key: 'summary', max: summaryMax, drop: 5 },
    ...only('error', 'duration_seconds', 'start_time', 'end_time', 'has_recording'),
  ];
}

/** A table's order for calls: newest first, as dashboards show them; calls without a start time last. */
export function newestFirst(a: Call, b: Call): number {
  const t = (c: Call) => {
    const ms = typeof c.start_time === 'string' ? Date.parse(c.start_time) : NaN;
    return Number.isNaN(ms) ? -Infinity : ms;
  };
  return t(b) - t(a) || 0;
}

/** The fields of `call get`, times in `zone`. */
export const callFields = (zone: string): Column<Call>[] => [
  { header: 'call id', key: 'call_id' },
  { header: 'status', key: 'status' },
  { header: 'outcome', csv: 'outcome', get: (c) => outcomeWord(c) },
  { header: 'summary', key: 'summary' },
  { header: 'number', key: 'phone_number' },
  { header: 'contact', get: (c) => c.contact?.name },
  { header: 'extra', get: (c) => (c.contact?.extra === undefined || c.contact?.extra === null ? undefined : JSON.stringify(c.contact.extra)) },
  { header: 'direction', key: 'direction' },
  { header: 'agent', get: (c) => [c.agent_name, c.agent_id ? `(${c.agent_id})` : ''].filter(Boolean).join(' ') },
  { header: 'campaign', key: 'campaign_id' },
  { header: 'started', get: (c) => (c.start_time ? `${isoInZone(c.start_time, zone)} ${zone}` : '') },
  { header: 'ended', get: (c) => (c.end_time ? `${isoInZone(c.end_time, zone)} ${zone}` : '') },
  { header: 'duration', get: (c) => duration(c.duration_seconds) },
  { header: 'end reason', key: 'end_reason' },
  { header: 'error', key: 'error' },
  { header: 'recording', get: (c) => (c.has_recording ? `yes: voicectl call recording ${c.call_id}` : 'not (yet) saved') },
];
