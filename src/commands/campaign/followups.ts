import { extname } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { openAtomic, writeFileAtomic } from '../../util/atomic-file.js';
import { csvLine } from '../../io/csv.js';
import { printList, type Column } from '../../io/output.js';
import { note, render } from '../../io/render.js';
import { withSpinner } from '../../io/progress.js';
import type { ApiClient } from '../../api/client.js';
import { campaignIds } from '../../reports/collect.js';
import { runCampaignIds } from '../../reports/run.js';
import { callingWindow } from '../../hours/hours-gate.js';
import { collectFollowups, extraKeys, isoIn, type Followup } from '../../reports/followups.js';
import { formatDateTime, wallDate, zoneAbbreviation } from '../../util/time.js';
import { noun, oneLine } from '../../text/text.js';
import type { FollowupsFlags } from './definition.js';

/** --run JOURNAL: the campaigns of the run's launched waves. */
async function runCampaigns(ctx: Context, ids: string[], journal: string): Promise<{ api: ApiClient; all: string[] }> {
  if (ids.length > 0) throw new UsageError('--run reads the campaigns of one run: give no campaign ids with it.');
  // The run's module (contacts, exclusions, the journal) only for --run: most calls need none of it.
  const { openRun } = await import('../../campaigns/run/start.js');
  const { journal: j, api } = await openRun(ctx, journal);
  return { api, all: runCampaignIds(j) };
}

/**
 * The sheet's columns: phone, name, each `extra` key, outcome, the requested time (in the
 * reader's zone, named; in CSV as ISO 8601 with its offset), the same time on the contact's
 * clock, the words it was read from, how it was read, the contact's zone, summary, call id
 * and time.
 */
function sheet(rows: Followup[], zone: string) {
  const keys = extraKeys(rows);
  const iso = (v: string | null) => (v ? isoIn(Date.parse(v), zone) : '');
  const theirs = (f: Followup) => {
    if (!f.requested_time) return '';
    const at = Date.parse(f.requested_time);
    return `${formatDateTime(at, f.zone, { minutes: true })} ${zoneAbbreviation(f.zone, at)}`;
  };
  const how = (f: Followup) => [f.requested_status === 'read' ? '' : f.requested_status ?? '', f.requested_note ?? '', f.outside_calling_hours ? 'outside calling hours' : ''].filter(Boolean).join('; ');
  const extraCell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  const columns = [
    { title: 'phone', width: 16, kind: 'text' as const, get: (f: Followup) => f.phone_number },
    { title: 'name', width: 22, kind: 'text' as const, get: (f: Followup) => f.name },
    ...keys.map((k) => ({ title: `extra.${k}`, width: 16, kind: 'text' as const, get: (f: Followup) => extraCell(f.extra[k]) })),
    { title: 'follow-up', width: 10, kind: 'text' as const, get: (f: Followup) => f.kind },
    { title: 'outcome', width: 22, kind: 'text' as const, get: (f: Followup) => f.outcome },
    // The instant asked for: a date cell in the reader's zone (the workbook names it), ISO 8601 with its offset in CSV.
    { title: `requested time (${zone})`, width: 20, kind: 'date' as const, get: (f: Followup) => iso(f.requested_time), xlsx: (f: Followup) => (f.requested_time ? wallDate(Date.parse(f.requested_time), zone) : null) },
    // The same time as the customer's clocks show it: ISO 8601 with their offset in CSV, the zone named in the workbook.
    { title: 'requested (contact\'s clock)', width: 22, kind: 'text' as const, get: (f: Followup) => f.requested_time ?? '', xlsx: theirs },
    { title: 'requested as', width: 28, kind: 'text' as const, get: (f: Followup) => f.requested_as ?? '' },
    { title: 'how it was read', width: 28, kind: 'text' as const, get: how },
    { title: 'contact zone', width: 18, kind: 'text' as const, get: (f: Followup) => f.zone },
    { title: 'summary', width: 60, kind: 'text' as const, get: (f: Followup) => f.summary },
    { title: 'call id', width: 24, kind: 'text' as const, get: (f: Followup) => f.call_id },
    { title: `call time (${zone})`, width: 20, kind: 'date' as const, get: (f: Followup) => iso(f.call_time), xlsx: (f: Followup) => (f.call_time && Number.isFinite(Date.parse(f.call_time)) ? wallDate(Date.parse(f.call_time), zone) : f.call_time) },
  ];
  return columns;
}

export default async function campaignFollowups(ctx: Context, ids: string[], flags: FollowupsFlags): Promise<void> {
  const out = flags.out;
  const ext = out === undefined ? undefined : extname(out).toLowerCase();
  if (ext !== undefined && ext !== '.xlsx' && ext !== '.csv') throw new UsageError(`--out ${out}: name a .xlsx or a .csv file.`);
  if (flags.outcomes?.length === 0) throw new UsageError('--outcomes is empty: name the outcomes that need a follow-up, comma-separated.');
  const { api, all } = flags.run !== undefined ? await runCampaigns(ctx, ids, flags.run) : { api: await ctx.api(), all: [] as string[] };
  if (flags.run === undefined) all.push(...(await campaignIds(api, ids, undefined, ctx.signal)));
  const zone = ctx.timeZone;
  const window = callingWindow(ctx, undefined);
  const rows = await withSpinner(ctx, 'Reading the calls', () => collectFollowups(api, all, { outcomes: flags.outcomes, userZone: zone, window, signal: ctx.signal }));
  const columns = sheet(rows, zone);

  if (ext === '.csv') {
    const text = [csvLine(columns.map((c) => c.title)), ...rows.map((r) => csvLine(columns.map((c) => c.get(r))))].join('\r\n');
    await write(out!, () => writeFileAtomic(out!, `${text}\r\n`));
  } else if (ext === '.xlsx') {
    await write(out!, async () => {
      const file = await openAtomic(out!);
      try {
        const { openXlsxSheet } = await import('../../export/xlsx.js');
        const book = await openXlsxSheet({ write: (chunk) => new Promise<void>((res, rej) => file.stream.write(chunk, (e) => (e ? rej(e) : res()))) },
          'Follow-ups', columns.map((c) => ({ title: c.title, kind: c.kind, width: c.width })), ctx.signal, zone);
        await book.add(rows.map((r) => columns.map((c) => ('xlsx' in c && c.xlsx ? c.xlsx(r) : c.get(r)))));
        await book.finish();
        await file.commit();
      } catch (err) {
        await file.discard();
        throw err;
      }
    });
  }
  if (out !== undefined) {
    const callbacks = rows.filter((r) => r.kind === 'callback');
    const count = (s: Followup['requested_status']) => callbacks.filter((r) => r.requested_status === s).length;
    const unread = count('unread');
    const person = count('needs a person');
    const late = callbacks.filter((r) => r.outside_calling_hours).length;
    const notes = [unread ? `${unread} without a day or time said` : '', person ? `${person} with two times said, for a person to choose` : '', late ? `${late} outside calling hours, kept as asked` : ''].filter(Boolean);
    ctx.info(`Wrote ${rows.length} ${noun(rows.length, 'follow-up')} to ${out}: ${callbacks.length} ${noun(callbacks.length, 'callback')}${notes.length ? ` (${notes.join('; ')}: see "requested as" and "how it was read")` : ''}, ${rows.filter((r) => r.kind === 'message').length} messages, ${rows.filter((r) => r.kind === 'lead').length} leads.`);
    // The file is the result; stdout carries the rows only for a script that asked for them.
    return render(ctx, { json: rows, lines: rows, human: () => {} });
  }
  // PHONE, NAME, FOLLOW-UP and the whole requested time (with its zone) stay at any width;
  // the words of a time that could not be read are cut (--json and --out have them whole).
  const table: Column<Followup>[] = [
    { header: 'PHONE', key: 'phone_number' },
    { header: 'NAME', key: 'name', max: 22 },
    { header: 'FOLLOW-UP', key: 'kind' },
    { header: 'OUTCOME', key: 'outcome', max: 22, drop: 4 },
    { header: `REQUESTED (contact's zone)`, get: (f) => (f.requested_time ? `${f.requested_time.slice(0, 16).replace('T', ' ')} ${f.zone}` : f.kind === 'callback' ? `? "${oneLine(f.requested_as ?? '', 24)}"` : '') },
    { header: 'SUMMARY', key: 'summary', max: 60, drop: 1 },
    { header: 'CALL ID', key: 'call_id', drop: 2, id: true },
  ];
  await printList(ctx, rows, table, {
    empty: 'No contact needs a follow-up: no callback, message or interested lead among the latest calls.',
    csv: columns.map((c) => ({ header: c.title, csv: c.title, get: (r: Followup) => c.get(r) })),
  });
  if (rows.length && out === undefined) note(ctx, 'Save them for a spreadsheet with --out followups.xlsx (or .csv).');
}

async function write(path: string, f: () => Promise<void>): Promise<void> {
  try {
    await f();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code) throw new UsageError(`Cannot write ${path}: ${(err as NodeJS.ErrnoException).code}.`);
    throw err;
  }
}
