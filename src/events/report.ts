/** What reconcile prints: one row per missing event, and the same rows as a Markdown table. */
import type { GapStatus } from './delivery-status.js';
import { reconciledId } from './rebuild.js';
import type { Gap, Scan } from './reconcile.js';
import { noun } from '../text/text.js';

export interface GapRow {
  type: string;
  object_id: string;
  campaign_id: string | null;
  occurred_at: string | null;
  /** The id a backfilled copy carries. */
  event_id: string;
  delivery?: GapStatus;
}

export function gapRows(gaps: readonly Gap[], statuses?: readonly GapStatus[]): GapRow[] {
  return gaps.map((g, i) => ({
    type: g.type,
    object_id: g.object_id,
    campaign_id: g.campaign_id,
    occurred_at: g.occurred_at ?? null,
    event_id: reconciledId(g.type, g.object_id),
    ...(statuses ? { delivery: statuses[i]! } : {}),
  }));
}

export function summary(scan: Scan, logs: readonly string[]): string {
  const n = scan.gaps.length;
  const of = `${scan.expected} ${noun(scan.expected, 'event')} expected for ${scan.calls} ${noun(scan.calls, 'call')} and ${scan.campaigns} ${noun(scan.campaigns, 'campaign')}`;
  const pending = scan.unfinished ? ` (${scan.unfinished} ${noun(scan.unfinished, 'call')} not finished yet)` : '';
  return n === 0
    ? `Nothing missing: ${logs.join(', ')} hold${logs.length === 1 ? 's' : ''} all ${of}${pending}.`
    : `${n} of ${of} ${n === 1 ? 'is' : 'are'} not in ${logs.join(', ')}${pending}.`;
}

const cellMd = (s: string | null | undefined) => (s ?? '').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

export function markdown(rows: readonly GapRow[], line: string): string {
  const why = rows.some((r) => r.delivery);
  const head = ['Event', 'Object', 'Campaign', 'Happened', ...(why ? ['Why'] : [])];
  const out = [`### Webhook events reconciled`, '', line, ''];
  if (rows.length === 0) return out.join('\n');
  out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const r of rows) {
    out.push(`| ${[r.type, `\`${r.object_id}\``, r.campaign_id ?? '', r.occurred_at ?? '', ...(why ? [r.delivery?.reason ?? ''] : [])].map(cellMd).join(' | ')} |`);
  }
  return out.join('\n');
}
