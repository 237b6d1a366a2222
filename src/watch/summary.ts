/**
 * What a watch has seen, kept as counters rather than calls (a 10,000-contact campaign
 * must not hold 10,000 call objects), and the final summary made from them.
 */
import type { ChalkInstance } from 'chalk';
import { finishedAt, num, outcomeLabel, str } from '../calls/model.js';
import { duration } from '../text/text.js';
import { formatPercent } from './fail-if.js';
import { terminalLine } from '../text/terminal-text.js';
import { isObject } from '../util/is-object.js';

/** Contact statuses in the order they are shown: finished ones first, then the rest. */
export const STATUS_ORDER = ['completed', 'no_answer', 'failed', 'initiated', 'pending'] as const;
const FINISHED_STATUSES = ['completed', 'no_answer', 'failed'];

export class Tally {
  calls = 0;
  /** A Map: an outcome named `constructor` or `__proto__` counts like any other. */
  readonly outcomes = new Map<string, number>();
  /** Calls that connected, for the connect rate (without counts) and the average duration. */
  connectedCalls = 0;
  private connectedTimed = 0;
  private connectedSeconds = 0;
  /** Every finished call with a duration: the fallback when no call reads as connected. */
  private timed = 0;
  private seconds = 0;
  /** The latest finished calls, newest last, for the live view. */
  readonly recent: Array<Record<string, unknown>> = [];

  constructor(private readonly keepRecent = 50) {}

  add(call: Record<string, unknown>): void {
    this.calls++;
    const label = outcomeLabel(call);
    this.outcomes.set(label, (this.outcomes.get(label) ?? 0) + 1);
    const d = num(call.duration_seconds);
    const connected = isConnected(call);
    if (connected) this.connectedCalls++;
    if (d !== undefined && d >= 0) {
      this.timed++;
      this.seconds += d;
      if (connected) {
        this.connectedTimed++;
        this.connectedSeconds += d;
      }
    }
    insertByTime(this.recent, call);
    if (this.recent.length > this.keepRecent) this.recent.shift();
  }

  /**
   * Mean duration of connected calls (ringing out on an unanswered call is not a
   * conversation); of all timed calls when none reads as connected.
   */
  averageDuration(): { seconds: number; of: 'connected' | 'all' } | undefined {
    if (this.connectedTimed > 0) return { seconds: this.connectedSeconds / this.connectedTimed, of: 'connected' };
    if (this.timed > 0) return { seconds: this.seconds / this.timed, of: 'all' };
    return undefined;
  }
}

/** A call that reached someone: its status says completed (or, with no status, it has an outcome). */
export function isConnected(call: Record<string, unknown>): boolean {
  const status = str(call.status)?.toLowerCase();
  if (status) return status === 'completed';
  return str(call.outcome) !== undefined;
}

function insertByTime(list: Array<Record<string, unknown>>, call: Record<string, unknown>): void {
  const t = finishedAt(call) ?? Number.POSITIVE_INFINITY;
  let i = list.length;
  while (i > 0 && (finishedAt(list[i - 1]!) ?? Number.POSITIVE_INFINITY) > t) i--;
  list.splice(i, 0, call);
}

/** contacts_by_status read defensively: numbers only. */
export function statusCounts(raw: unknown): Record<string, number> {
  const out = new Map<string, number>();
  if (isObject(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      const n = num(v);
      if (n !== undefined) out.set(k, n);
    }
  }
  // Own properties only, `__proto__` included: an assignment would set the prototype instead.
  return Object.fromEntries(out);
}

export function totalOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

export function finishedOf(counts: Record<string, number>): number {
  return FINISHED_STATUSES.reduce((a, k) => a + (counts[k] ?? 0), 0);
}

export interface Summary {
  campaign_id: string;
  name?: string;
  status?: string;
  total_contacts: number;
  contacts_by_status: Record<string, number>;
  /** Finished calls reported by the watch. */
  calls: number;
  /** Finished calls by outcome (or end reason, or status, when there is no outcome), most first. */
  outcomes: Record<string, number>;
  connected: number;
  /** connected / finished contacts, 0..1; null when nothing finished. */
  connect_rate: number | null;
  /** Mean duration of the calls that connected (of all calls when none reads as connected); null without durations. */
  average_duration_seconds: number | null;
  average_duration_of: 'connected_calls' | 'all_calls' | null;
}

export function summarize(campaign: { id: string; name?: unknown; status?: unknown; contacts_by_status?: unknown }, tally: Tally): Summary {
  const counts = statusCounts(campaign.contacts_by_status);
  const haveCounts = Object.keys(counts).length > 0;
  const finished = haveCounts ? finishedOf(counts) : tally.calls;
  const connected = haveCounts ? counts.completed ?? 0 : tally.connectedCalls;
  const avg = tally.averageDuration();
  const outcomes = Object.fromEntries([...tally.outcomes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  return {
    campaign_id: campaign.id,
    name: str(campaign.name),
    status: str(campaign.status),
    total_contacts: haveCounts ? totalOf(counts) : tally.calls,
    contacts_by_status: counts,
    calls: tally.calls,
    outcomes,
    connected,
    connect_rate: finished > 0 ? connected / finished : null,
    average_duration_seconds: avg ? round2(avg.seconds) : null,
    average_duration_of: avg ? (avg.of === 'connected' ? 'connected_calls' : 'all_calls') : null,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The final summary as text lines, for the terminal and plain output. */
export function formatSummary(s: Summary, c: ChalkInstance): string[] {
  const lines: string[] = [];
  const title = s.name ? `"${s.name}"` : s.campaign_id;
  // The service's names and labels: shown, never obeyed by the terminal.
  lines.push(c.bold(terminalLine(`Campaign ${title} ${s.status ?? 'finished'}: ${s.total_contacts} contacts, ${s.calls} finished calls`)));
  const statusNames = orderedStatuses(s.contacts_by_status).filter((k) => s.contacts_by_status[k]! > 0 || FINISHED_STATUSES.includes(k));
  if (statusNames.length > 0) {
    lines.push('Contacts');
    lines.push(...aligned(statusNames.map((k) => [k, s.contacts_by_status[k] ?? 0]), s.total_contacts));
  }
  const outcomes = Object.entries(s.outcomes);
  if (outcomes.length > 0) {
    lines.push('Outcomes');
    lines.push(...aligned(outcomes, s.calls));
  }
  const finished = finishedOf(s.contacts_by_status) || s.calls;
  lines.push(`Connect rate      ${s.connect_rate === null ? '-' : `${formatPercent(s.connect_rate * 100)} (${s.connected} of ${finished})`}`);
  lines.push(`Average duration  ${s.average_duration_seconds === null ? '-' : `${duration(s.average_duration_seconds)} per ${s.average_duration_of === 'connected_calls' ? 'connected call' : 'call'}`}`);
  return lines;
}

function aligned(rows: Array<[string, number]>, base: number): string[] {
  const w = Math.max(...rows.map(([k]) => terminalLine(k).length));
  const nw = Math.max(...rows.map(([, n]) => String(n).length));
  return rows.map(([k, n]) => `  ${terminalLine(k).padEnd(w)}  ${String(n).padStart(nw)}${base > 0 ? `  ${formatPercent((n / base) * 100).padStart(6)}` : ''}`);
}

/** Known statuses in display order, then any others the server sent. */
export function orderedStatuses(counts: Record<string, number>): string[] {
  const known = STATUS_ORDER.filter((k) => Object.hasOwn(counts, k));
  const extra = Object.keys(counts).filter((k) => !(STATUS_ORDER as readonly string[]).includes(k)).sort();
  return [...known, ...extra];
}
