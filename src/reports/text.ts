/** `campaign report` for a terminal, and as GitHub-flavoured markdown (`--format md`). */
import { terminalLine } from '../text/terminal-text.js';
import { percent, type CampaignReport } from './stats.js';
import { duration } from '../text/text.js';
import { CLASSES, isCallback, type OutcomeClass } from './classes.js';
import { NO_RATE_CARD, SPEND_HEAD, spendLine, spendMoney, spendRows } from './spend.js';

const CLASS_LABEL = Object.fromEntries(CLASSES.map((c) => [c.id, c.label.toLowerCase()])) as Record<OutcomeClass, string>;

/** The funnel's steps, each with its share of the contacts. */
function funnelRows(r: CampaignReport): string[][] {
  const f = r.funnel;
  const share = (n: number) => percent(f.contacts ? n / f.contacts : null);
  return [['contacts', String(f.contacts), share(f.contacts)], ['dialed', String(f.dialed), share(f.dialed)], ['connected', String(f.connected), share(f.connected)], ['of interest', String(f.of_interest), share(f.of_interest)]];
}

const outcomeRows = (r: CampaignReport) => Object.entries(r.outcomes).map(([k, v]) => [k, CLASS_LABEL[r.outcome_classes[k] ?? 'neutral'], String(v), percent(r.finished_calls ? v / r.finished_calls : null)]);
const hourOfDayRows = (r: CampaignReport) => r.connect_rate_by_hour_of_day.filter((h) => h.calls > 0).map((h) => [`${String(h.hour).padStart(2, '0')}:00`, String(h.calls), String(h.connected), percent(h.rate)]);
const callbackRows = (r: CampaignReport, when: (iso: string | null) => string) => r.call_list.filter((c) => isCallback(c.outcome)).map((c) => [when(c.start_time), c.phone_number, c.name, c.summary]);


const topOutcome = (r: CampaignReport) => Object.entries(r.outcomes)[0];

/**
 * Column names for campaigns side by side, each at most `max` long and told apart: the
 * words every name starts with are cut ("Renewals (wave 1, run 4f1a2c)" and "… (wave 2, …"
 * read "…wave 1, run 4f1a2…" and "…wave 2, run 4f1a2…"), then the end; a name that is
 * still too long once its shared start is gone is cut in the middle.
 */
export function columnNames(names: string[], max: number): string[] {
  let common = names.length > 1 ? names.reduce((p, n) => { let i = 0; while (i < p.length && i < n.length && p[i] === n[i]) i++; return p.slice(0, i); }) : '';
  // Cut at a word's start, and never the whole of a name.
  const shortest = Math.min(...names.map((n) => n.length));
  if (common.length >= shortest) common = common.slice(0, shortest - 1);
  // Keep the last shared word ("…week 1", "…wave 2, …"), unless it is the only one.
  const trimmed = common.replace(/[\s(,]+$/, '');
  const lastWord = trimmed.search(/[^\s(,]*$/);
  const cut = common.length === 0 ? 0 : lastWord > 0 ? lastWord : common.length > trimmed.length ? common.length : 0;
  const rests = names.map((n) => (cut > 0 ? n.slice(cut).replace(/^[\s(,]+/, '') : n));
  const out = rests.map((rest) => {
    const shown = cut > 0 ? `…${rest}` : rest;
    if (shown.length <= max) return shown;
    return cut > 0 ? `${shown.slice(0, max - 1)}…` : `${rest.slice(0, Math.ceil(max / 2) - 1)}…${rest.slice(-Math.floor(max / 2))}`;
  });
  // Names that still read alike (they share more than the start all share): their own shared start is cut too.
  if (cut > 0) {
    const alike = new Map<string, number[]>();
    out.forEach((h, i) => alike.set(h, [...(alike.get(h) ?? []), i]));
    for (const group of alike.values()) {
      if (group.length < 2 || new Set(group.map((i) => rests[i])).size < group.length) continue;
      columnNames(group.map((i) => rests[i]!), max).forEach((h, k) => (out[group[k]!] = h.startsWith('…') ? h : `…${h.slice(0, max - 1)}`));
    }
  }
  return out;
}

/** Rows of metrics, a column per campaign: the side-by-side view. */
export function comparisonRows(reports: CampaignReport[]): string[][] {
  const row = (label: string, f: (r: CampaignReport) => string) => [label, ...reports.map(f)];
  const spend = reports.some((r) => r.spend)
    ? [row('spend', (r) => (r.spend ? `${spendMoney(r.spend, r.spend.minor_units)}${Object.keys(r.spend.unpriced).length ? ' + unpriced' : ''}` : '-'))]
    : [];
  return [
    row('status', (r) => r.status || '-'),
    row('contacts', (r) => String(r.contacts)),
    row('calls finished', (r) => `${r.finished_calls} of ${r.calls}`),
    row('connected', (r) => String(r.connected)),
    row('connect rate', (r) => percent(r.connect_rate)),
    row('average duration', (r) => duration(r.duration.average_seconds, { missing: '-' })),
    row('median duration', (r) => duration(r.duration.median_seconds, { missing: '-' })),
    row('top outcome', (r) => {
      const t = topOutcome(r);
      return t ? `${t[0]} (${t[1]})` : '-';
    }),
    ...spend,
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

/** `o.zone`: the zone of the reports' hours (hourlyStats), named in the heading; `o.when` shows a call's time in it. */
export function markdown(reports: CampaignReport[], o: { calls?: number; zone?: string; when?: (iso: string | null) => string } = {}): string {
  const zone = o.zone ?? 'UTC';
  const when = o.when ?? ((iso: string | null) => iso ?? '');
  const out: string[] = [];
  out.push(reports.length === 1 ? `## Campaign report: ${mdCell(reports[0]!.name)}` : `## Campaign report: ${reports.length} campaigns`, '');
  out.push(mdTable(['', ...reports.map((r) => r.name)], comparisonRows(reports)), '');
  if (reports.some((r) => r.spend === null)) out.push(mdCell(NO_RATE_CARD), '');
  for (const r of reports) {
    if (reports.length > 1) out.push(`### ${mdCell(r.name)}`, '');
    out.push('**Contacts by status**', '', mdTable(['status', 'contacts'], Object.entries(r.contacts_by_status).map(([k, v]) => [k, String(v)])), '');
    out.push('**Funnel**', '', mdTable(['step', 'contacts', 'share'], funnelRows(r)), '');
    out.push('**Outcomes**', '', mdTable(['outcome', 'calls', 'class', 'share'], outcomeRows(r).map(([k, cls, n, share]) => [k!, n!, cls!, share!])), '');
    out.push('**Call durations (connected calls)**', '', mdTable(['duration', 'calls'], r.duration.histogram.map((b) => [b.bucket, String(b.calls)])), '');
    out.push(`**Calls per hour (${zone})**`, '', mdTable(['hour', 'calls'], r.calls_per_hour.map((h) => [h.hour.slice(0, 16).replace('T', ' '), String(h.calls)])), '');
    out.push(`**Connect rate by hour of day (${zone})**`, '', mdTable(['hour', 'calls', 'connected', 'connect rate'], hourOfDayRows(r)), '');
    if (r.spend) {
      out.push(`**Spend** (${mdCell(r.spend.rate_card)}): ${mdCell(spendLine(r.spend))}`, '', mdTable(SPEND_HEAD, spendRows(r.spend)), '');
    }
    const cb = callbackRows(r, when);
    out.push(`**Callbacks** (${cb.length})`, '', cb.length ? mdTable([`called (${zone})`, 'phone', 'name', 'what was said'], cb) : 'No callback was asked for.', '');
    const shown = r.call_list.slice(0, o.calls ?? 100);
    out.push(`**Calls** (${shown.length} of ${r.call_list.length})`, '', mdTable(['call', 'phone', 'name', 'status', 'outcome', 'duration', 'summary'],
      shown.map((c) => [c.call_id, c.phone_number, c.name, c.status, c.outcome, duration(c.duration_seconds, { missing: '-' }), c.summary])), '');
  }
  return out.join('\n');
}

/** Words in lines of at most `width` characters (a longer word stands alone). */
function wrapWords(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

export interface TerminalSection {
  title: string;
  head: string[];
  rows: string[][];
  /** Per column: the width a cell may be cut to on a narrow terminal (undefined: never cut). */
  max?: Array<number | undefined>;
  /** A line printed in place of the table. */
  text?: string;
}

/**
 * A terminal summary: the comparison (in groups of campaigns that fit `width`), then each
 * campaign's funnel, contacts by status, outcomes, durations, calls per hour, connect rate
 * by hour of day and callbacks. `zone` names the hours; `when` shows a call's time in it.
 */
export function terminalSections(reports: CampaignReport[], o: { zone?: string; when?: (iso: string | null) => string; width?: number } = {}): TerminalSection[] {
  const zone = o.zone ?? 'UTC';
  const when = o.when ?? ((iso: string | null) => iso ?? '');
  const sections: TerminalSection[] = [];
  // Side by side as many campaigns as fit: a label column (16) and a column of about 18 each.
  const per = o.width ? Math.max(1, Math.floor((o.width - 16) / 20)) : reports.length;
  for (let i = 0; i < reports.length; i += per) {
    const group = reports.slice(i, i + per);
    // Titles are printed as they are (tables escape their own cells): the names are made safe here.
    const title = reports.length === 1 ? `Campaign ${terminalLine(reports[0]!.name)}` : reports.length > per ? `Campaigns side by side (${i + 1}-${i + group.length} of ${reports.length})` : 'Campaigns side by side';
    // A name longer than its column is cut (the table never cuts its headers); --json has it whole.
    const head = columnNames(group.map((r) => terminalLine(r.name)), 18);
    sections.push({ title, head: ['', ...head], rows: comparisonRows(group), max: [undefined, ...group.map(() => 18)] });
  }
  for (const r of reports) {
    const prefix = reports.length > 1 ? `${terminalLine(r.name)}: ` : '';
    sections.push({ title: `${prefix}funnel (contacts)`, head: ['step', 'contacts', 'share'], rows: funnelRows(r) });
    sections.push({ title: `${prefix}contacts by status`, head: ['status', 'contacts'], rows: Object.entries(r.contacts_by_status).map(([k, v]) => [k, String(v)]), max: [30, undefined] });
    sections.push({ title: `${prefix}outcomes`, head: ['outcome', 'class', 'calls', 'share'], rows: outcomeRows(r), max: [30, undefined, undefined, undefined] });
    sections.push({ title: `${prefix}durations of connected calls`, head: ['duration', 'calls'], rows: r.duration.histogram.map((b) => [b.bucket, String(b.calls)]) });
    sections.push({ title: `${prefix}calls per hour (${zone})`, head: ['hour', 'calls'], rows: r.calls_per_hour.map((h) => [h.hour.slice(0, 16).replace('T', ' '), String(h.calls)]) });
    sections.push({ title: `${prefix}connect rate by hour of day (${zone})`, head: ['hour', 'calls', 'connected', 'connect rate'], rows: hourOfDayRows(r) });
    if (r.spend) sections.push({ title: `${prefix}spend (${terminalLine(r.spend.rate_card)})`, head: SPEND_HEAD, rows: spendRows(r.spend) });
    const cb = callbackRows(r, when);
    if (cb.length) sections.push({ title: `${prefix}callbacks (${cb.length})`, head: ['called', 'phone', 'name', 'summary'], rows: cb, max: [undefined, undefined, 24, 80] });
  }
  if (reports.some((r) => r.spend === null)) sections.push({ title: 'spend', head: [], rows: [], text: wrapWords(NO_RATE_CARD, o.width ?? 80) });
  return sections;
}
