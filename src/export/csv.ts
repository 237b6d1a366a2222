/**
 * CSV rows for calls. Columns: the spec's call fields in a fixed order, any other
 * top-level fields the first page shows, contact_name, one `extra.<key>` column per key
 * of contact.extra seen on the first page, then `extra_json` holding whatever did not
 * fit (keys first seen later, or an extra that is not an object), and `transcript`
 * with --transcripts. Rows stream, so the header is fixed after the first page; see
 * docs/export.md.
 */
import type { Call } from '../api/calls.js';
import { csvCell } from '../io/csv.js';
import { isObject } from '../util/is-object.js';
import { transcriptText } from './transcript.js';

export const CALL_FIELDS = [
  'call_id', 'campaign_id', 'agent_id', 'agent_name', 'direction', 'phone_number', 'status', 'end_reason',
  'outcome', 'summary', 'error', 'duration_seconds', 'start_time', 'end_time', 'has_recording',
] as const;

/** Fields that have their own treatment instead of a column of their own. */
const SPECIAL = new Set(['contact', 'transcript']);

export interface CsvPlan {
  /** Top-level fields beyond the spec's, as the first page showed them. */
  otherFields: string[];
  extraKeys: string[];
  transcripts: boolean;
}

const keySets = new WeakMap<CsvPlan, Set<string>>();
function extraKeySet(plan: CsvPlan): Set<string> {
  let set = keySets.get(plan);
  if (!set) keySets.set(plan, (set = new Set(plan.extraKeys)));
  return set;
}

/** Fixes the columns from a sample of calls (the first page). */
export function planColumns(sample: Call[], options: { transcripts?: boolean } = {}): CsvPlan {
  const known = new Set<string>([...CALL_FIELDS, ...SPECIAL, 'contact_name', 'extra_json']);
  const other = new Set<string>();
  const extra = new Set<string>();
  for (const call of sample) {
    for (const k of Object.keys(call)) if (!known.has(k)) other.add(k);
    const ex = call.contact?.extra;
    if (isObject(ex)) for (const k of Object.keys(ex)) extra.add(k);
  }
  return { otherFields: [...other], extraKeys: [...extra], transcripts: options.transcripts ?? false };
}

export function headerCells(plan: CsvPlan): string[] {
  return [
    ...CALL_FIELDS, ...plan.otherFields, 'contact_name', ...plan.extraKeys.map((k) => `extra.${k}`), 'extra_json',
    ...(plan.transcripts ? ['transcript'] : []),
  ];
}

export function csvHeader(plan: CsvPlan): string {
  // Header cells come from data too (extra keys): escape them like any other cell.
  return `${headerCells(plan).map((h) => safeCell(h)).join(',')}\r\n`;
}

/** One CSV record, CRLF-terminated as RFC 4180 says. Built by concatenation: the hot loop of an export. */
export function csvRow(call: Call, plan: CsvPlan): string {
  let row = safeCell(call[CALL_FIELDS[0]]);
  for (let i = 1; i < CALL_FIELDS.length; i++) row += `,${safeCell(call[CALL_FIELDS[i]!])}`;
  for (const f of plan.otherFields) row += `,${safeCell(call[f])}`;
  const contact = isObject(call.contact) ? call.contact : undefined;
  row += `,${safeCell(contact?.name)}`;
  const ex = contact?.extra;
  if (isObject(ex)) {
    for (const k of plan.extraKeys) row += `,${safeCell(ex[k])}`;
    const fitted = extraKeySet(plan);
    let rest: Record<string, unknown> | undefined;
    for (const k of Object.keys(ex)) {
      if (fitted.has(k)) continue;
      (rest ??= {})[k] = ex[k];
    }
    row += rest ? `,${safeCell(JSON.stringify(rest))}` : ',';
  } else {
    row += ','.repeat(plan.extraKeys.length);
    row += ex === undefined || ex === null ? ',' : `,${safeCell(JSON.stringify(ex))}`;
  }
  if (plan.transcripts) row += `,${safeCell(transcriptText(call))}`;
  return `${row}\r\n`;
}

/** A cell of the export: the one escaper of src/io/csv.ts. */
export const safeCell = (value: unknown): string => csvCell(value);

