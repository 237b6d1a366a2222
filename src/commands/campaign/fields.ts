/** How campaigns and their contacts look in tables, shared by the campaign verbs. */
import type { ChalkInstance } from 'chalk';
import type { Campaign, CampaignContact } from '../../api/campaigns.js';
import type { Column } from '../../io/output.js';
import { agentLabel } from '../../agents/names.js';
import { formatDateTime } from '../../util/time.js';

/** Contact statuses in the spec's order; any others a server sends follow. */
export const CONTACT_STATUSES = ['pending', 'initiated', 'completed', 'no_answer', 'failed'] as const;

/** contacts_by_status as numbers, in display order, whatever types the server used. */
export function statusCounts(counts: unknown): Array<[string, number]> {
  if (!counts || typeof counts !== 'object' || Array.isArray(counts)) return [];
  const entries = Object.entries(counts as Record<string, unknown>)
    .map(([k, v]) => [k, typeof v === 'string' && v.trim() !== '' ? Number(v) : v] as const)
    .filter((e): e is readonly [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
  const rank = (k: string) => {
    const i = (CONTACT_STATUSES as readonly string[]).indexOf(k);
    return i === -1 ? CONTACT_STATUSES.length : i;
  };
  return entries.sort((a, b) => rank(a[0]) - rank(b[0])).map(([k, v]) => [k, v]);
}

export function totalContacts(campaign: Campaign): number | undefined {
  const counts = statusCounts(campaign.contacts_by_status);
  if (counts.length > 0) return counts.reduce((n, [, v]) => n + v, 0);
  if (Array.isArray(campaign.contacts)) return campaign.contacts.length;
  return undefined;
}

/** Contacts the launch will dial: the pending ones, when the server counts them. */
export function pendingContacts(campaign: Campaign): number | undefined {
  const counts = statusCounts(campaign.contacts_by_status);
  if (counts.length === 0) return undefined;
  return counts.find(([k]) => k === 'pending')?.[1] ?? 0;
}

/**
 * Campaigns as rows, for the table of `campaign list` and for -o csv (which has the agent
 * id and a count per status instead of the progress and the agent's name). `agents` names
 * the agents by id (agentNames), read only for the table. `created` (in `zone`, which the
 * header names): the spec does not promise a campaign's creation time, so the column is
 * there only when the service sent one. At any width the table keeps ID (shortened to a
 * unique prefix), NAME, STATUS, CONTACTS, PROGRESS and CREATED; AGENT shows as it allows.
 */
export function campaignColumns(agents = new Map<string, string>(), zone = 'UTC', created = false): Column<Campaign>[] {
  return [
    { header: 'ID', key: 'id', id: true },
    { header: 'NAME', key: 'name', max: 40 },
    { header: 'STATUS', key: 'status' },
    { header: 'agent_id', key: 'agent_id', table: false },
    { header: 'CONTACTS', get: (c) => totalContacts(c) ?? '' },
    ...CONTACT_STATUSES.map((s): Column<Campaign> => ({ header: s, get: (c) => statusCounts(c.contacts_by_status).find(([k]) => k === s)?.[1], table: false })),
    { header: 'PROGRESS', get: (c) => progressText(c), csv: false },
    { header: 'AGENT', get: (c) => agentLabel(c.agent_id, agents), max: 24, drop: 1, csv: false },
    ...(created ? [{ header: `CREATED (${zone})`, get: (c: Campaign) => createdAt(c, zone), csv: false as const }] : []),
  ];
}

function createdAt(c: Campaign, zone: string): string {
  const t = typeof c.created_at === 'string' ? Date.parse(c.created_at) : NaN;
  return Number.isNaN(t) ? '' : formatDateTime(t, zone, { minutes: true });
}

/** "42/120 done" (finished of all) from the counts, or nothing when the server sent none; short, so the table keeps it at 80 columns. */
function progressText(c: Campaign): string {
  const counts = statusCounts(c.contacts_by_status);
  if (counts.length === 0) return '';
  const total = counts.reduce((n, [, v]) => n + v, 0);
  const open = counts.filter(([k]) => k === 'pending' || k === 'initiated').reduce((n, [, v]) => n + v, 0);
  return `${total - open}/${total} done`;
}

export function contactColumns(): Column<CampaignContact>[] {
  return [
    { header: 'NUMBER', key: 'phone_number' },
    { header: 'NAME', key: 'name', max: 30 },
    { header: 'STATUS', key: 'status' },
    { header: 'CALL ID', key: 'call_id', id: true },
    { header: 'EXTRA', get: (c) => extraText(c.extra), max: 50, drop: 1 },
  ];
}


export function extraText(extra: unknown): string {
  if (extra === undefined || extra === null) return '';
  if (typeof extra === 'object' && !Array.isArray(extra) && Object.keys(extra).length === 0) return '';
  return typeof extra === 'string' ? extra : JSON.stringify(extra);
}

/**
 * One line per status: count, share and a bar proportional to it. Bars only on a
 * terminal (`bars`), where they read at a glance; in a pipe they are noise.
 */
export function countLines(counts: Array<[string, number]>, options: { bars: boolean; color: ChalkInstance; width?: number }): string[] {
  const total = counts.reduce((n, [, v]) => n + v, 0);
  const nameWidth = Math.max(...counts.map(([k]) => k.length), 5);
  const numWidth = Math.max(...counts.map(([, v]) => String(v).length), String(total).length);
  const width = options.width ?? 30;
  const c = options.color;
  const lines = counts.map(([k, v]) => {
    const pct = total > 0 ? Math.round((v / total) * 100) : 0;
    const head = `  ${k.padEnd(nameWidth)}  ${String(v).padStart(numWidth)}  ${`${pct}%`.padStart(4)}`;
    if (!options.bars) return head;
    const filled = total > 0 ? Math.round((v / total) * width) : 0;
    // A status with any contacts gets at least one cell, so it never looks empty.
    const cells = v > 0 ? Math.max(1, filled) : 0;
    return `${head}  ${statusColor(k, c)('█'.repeat(cells))}${c.dim('░'.repeat(width - cells))}`;
  });
  lines.push(`  ${'total'.padEnd(nameWidth)}  ${String(total).padStart(numWidth)}`);
  return lines;
}

function statusColor(status: string, c: ChalkInstance): (s: string) => string {
  switch (status) {
    case 'completed':
      return c.green;
    case 'no_answer':
      return c.yellow;
    case 'failed':
      return c.red;
    case 'initiated':
      return c.cyan;
    default:
      return c.gray;
  }
}
