/** `campaign report` for a terminal, and as GitHub-flavoured markdown (`--format md`). */
import { terminalLine } from '../io/terminal-text.js';
import { percent, seconds, type CampaignReport } from './stats.js';

const topOutcome = (r: CampaignReport) => Object.entries(r.outcomes)[0];

/** Rows of metrics, a column per campaign: the side-by-side view. */
export function comparisonRows(reports: CampaignReport[]): string[][] {
  const row = (label: string, f: (r: CampaignReport) => string) => [label, ...reports.map(f)];
  return [
    row('status', (r) => r.status || '-'),
    row('contacts', (r) => String(r.contacts)),
    row('calls finished', (r) => `${r.finished_calls} of ${r.calls}`),
    row('connected', (r) => String(r.connected)),
    row('connect rate', (r) => percent(r.connect_rate)),
    row('average duration', (r) => seconds(r.duration.average_seconds)),
    row('median duration', (r) => seconds(r.duration.median_seconds)),
    row('top outcome', (r) => {
      const t = topOutcome(r);
      return t ? `${t[0]} (${t[1]})` : '-';
    }),
  ];
}

/**
 * One markdown cell or heading: on one line, with the service's control characters shown
 * as `\x1b` rather than passed on to whatever displays the page (a terminal, a CI log).
 */
const mdCell = (s: string) => terminalLine(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));

function mdTable(head: string[], rows: string[][]): string {
  return [`| ${head.map(mdCell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join('\n');
}

/** `o.zone`: the zone of the reports' hours (hourlyStats), named in the heading. */
export function markdown(reports: CampaignReport[], o: { calls?: number; zone?: string } = {}): string {
  const out: string[] = [];
  out.push(reports.length === 1 ? `## Campaign report: ${mdCell(reports[0]!.name)}` : `## Campaign report: ${reports.length} campaigns`, '');
  out.push(mdTable(['', ...reports.map((r) => r.name)], comparisonRows(reports)), '');
  for (const r of reports) {
    if (reports.length > 1) out.push(`### ${mdCell(r.name)}`, '');
    out.push('**Contacts by status**', '', mdTable(['status', 'contacts'], Object.entries(r.contacts_by_status).map(([k, v]) => [k, String(v)])), '');
    out.push('**Outcomes**', '', mdTable(['outcome', 'calls'], Object.entries(r.outcomes).map(([k, v]) => [k, String(v)])), '');
    out.push('**Call durations (connected calls)**', '', mdTable(['duration', 'calls'], r.duration.histogram.map((b) => [b.bucket, String(b.calls)])), '');
    out.push(`**Calls per hour (${o.zone ?? 'UTC'})**`, '', mdTable(['hour', 'calls'], r.calls_per_hour.map((h) => [h.hour.slice(0, 16).replace('T', ' '), String(h.calls)])), '');
    const shown = r.call_list.slice(0, o.calls ?? 100);
    out.push(`**Calls** (${shown.length} of ${r.call_list.length})`, '', mdTable(['call', 'phone', 'name', 'status', 'outcome', 'duration', 'summary'],
      shown.map((c) => [c.call_id, c.phone_number, c.name, c.status, c.outcome, seconds(c.duration_seconds), c.summary])), '');
  }
  return out.join('\n');
}

/** A terminal summary: the comparison, then each campaign's outcomes and durations. */
export function terminalSections(reports: CampaignReport[]): Array<{ title: string; head: string[]; rows: string[][] }> {
  // Titles are printed as they are (tables escape their own cells): the names are made safe here.
  const sections = [{ title: reports.length === 1 ? `Campaign ${terminalLine(reports[0]!.name)}` : 'Campaigns side by side', head: ['', ...reports.map((r) => r.name)], rows: comparisonRows(reports) }];
  for (const r of reports) {
    const prefix = reports.length > 1 ? `${terminalLine(r.name)}: ` : '';
    sections.push({ title: `${prefix}outcomes`, head: ['outcome', 'calls', 'share'], rows: Object.entries(r.outcomes).map(([k, v]) => [k, String(v), percent(r.finished_calls ? v / r.finished_calls : null)]) });
    sections.push({ title: `${prefix}durations of connected calls`, head: ['duration', 'calls'], rows: r.duration.histogram.map((b) => [b.bucket, String(b.calls)]) });
  }
  return sections;
}
