import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { printFittedTable } from '../../io/output.js';
import { noun, truncate } from '../../text/text.js';
import { isoInZone } from '../../util/time.js';
import { campaignIds, collectReport } from '../../reports/collect.js';
import { collectRunReport } from '../../reports/run.js';
import type { CampaignReport } from '../../reports/stats.js';
import { ownFormat, printJson, render } from '../../io/render.js';
import { Counter } from '../../io/progress.js';
import type { ReportFlags } from './definition.js';
import { lineWidth } from '../../io/terminal.js';
import { chooseRateCard, type RateCard } from '../../reports/rate-card.js';
import { reportSpend } from '../../reports/spend.js';
import type { Journal } from '../../campaigns/run/journal.js';
import { resolve } from 'node:path';

type Opts = ReportFlags;

export default async function campaignReport(ctx: Context, ids: string[], opts: Opts): Promise<void> {
  if (opts.recordings && opts.html === undefined) throw new UsageError('--recordings puts audio players in the page: use it with --html FILE.');
  if (opts.run !== undefined) return runReport(ctx, ids, opts);
  const card = await rateCard(ctx, opts);
  const api = await ctx.api();
  const all = await campaignIds(api, ids, opts.namePrefix, ctx.signal);
  // Transcripts are only shown in the page: one more request per connected call.
  const transcripts = opts.html !== undefined && opts.transcripts !== false;
  const reports: CampaignReport[] = [];
  // What people read (the page, markdown, the terminal) has its hours in the user's zone; JSON keeps UTC.
  const zone = ctx.timeZone;
  const shown: CampaignReport[] = [];
  for (const id of all) {
    let total = 0;
    const counter = new Counter(ctx, (done) => `Transcripts ${done}/${total}`);
    const { report, hours, recordingFailures } = await collectReport(api, id, {
      transcripts,
      recordings: opts.recordings === true,
      signal: ctx.signal,
      onTranscript: counter.live ? (done, all) => {
        total = all;
        counter.update(done);
        if (done === all) counter.keep();
      } : undefined,
    });
    if (recordingFailures.length) {
      const first = recordingFailures[0]!;
      ctx.warn(`${recordingFailures.length} recording ${noun(recordingFailures.length, 'link')} could not be fetched; those calls have no player (first: ${first.callId}: ${first.message}).`);
    }
    // Contacts a campaign still running has not dialed yet: the projected spend dials each once.
    report.spend = card ? reportSpend(report.call_list, card, { contactsLeft: report.status === 'completed' ? 0 : Math.max(0, report.contacts - report.funnel.dialed) }) : null;
    // The links are for the page; the JSON keeps what the service returned.
    reports.push({ ...report, call_list: report.call_list.map(({ recording_url: _, ...c }) => c) });
    shown.push({ ...report, ...hours(zone) });
  }
  await present(ctx, opts, shown, body(ctx, reports));
}

/** --run JOURNAL: the run as one campaign, then each wave and each zone, as sections side by side. */
async function runReport(ctx: Context, ids: string[], opts: Opts): Promise<void> {
  if (ids.length > 0 || opts.namePrefix !== undefined) throw new UsageError('--run reports one campaign run: give no campaign ids or --name-prefix with it.');
  const { shown, json } = await runReportData(ctx, opts.run!, (journal) => rateCard(ctx, opts, journal));
  await present(ctx, opts, shown, json);
}

/**
 * A run's report from its journal: the sections a person reads (hours in the user's zone) and
 * the JSON. `card` chooses the rate card for the spend (none: the spend says how to add one).
 */
export async function runReportData(ctx: Context, journalPath: string, card: (journal: Journal) => Promise<RateCard | undefined> = async () => undefined): Promise<{ shown: CampaignReport[]; json: Record<string, unknown> }> {
  // The run's module (contacts, exclusions, the journal) only for --run.
  const { openRun } = await import('../../campaigns/run/start.js');
  const { journal, api } = await openRun(ctx, journalPath);
  const rates = await card(journal);
  const r = await collectRunReport(api, journal, ctx.signal);
  // The whole run's projected spend dials once each contact not yet released; a wave's or a zone's is what it spent.
  const waiting = journal.contacts.filter((c) => c.state === 'waiting').length;
  r.whole.report.spend = rates ? reportSpend(r.whole.report.call_list, rates, { contactsLeft: waiting }) : null;
  for (const p of [...r.waves, ...r.zones]) p.report.spend = rates ? reportSpend(p.report.call_list, rates) : null;
  const zone = ctx.timeZone;
  const parts = [r.whole, ...r.waves, ...r.zones];
  const json = {
    generated_at: ctx.now().toISOString(), run: r.run,
    campaigns: [r.whole.report], waves: r.waves.map((w) => ({ n: w.n, ...w.report })), zones: r.zones.map((z) => ({ zone: z.zone, ...z.report })),
  };
  return { shown: parts.map((p) => ({ ...p.report, ...p.hours(zone) })), json };
}

/** --html FILE: the report as one page. */
export async function writeHtmlReport(ctx: Context, file: string, shown: CampaignReport[]): Promise<void> {
  const { htmlReport } = await import('../../reports/html.js');
  try {
    await writeFileAtomic(file, htmlReport(shown, ctx.now(), ctx.timeZone));
  } catch (err) {
    throw new UsageError(`Cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
  ctx.info(`Wrote the report to ${file} (one file: open it in a browser, no network needed).`);
}

/** The page (--html), markdown, JSON or the terminal's sections, as --format and the output format say. */
export async function present(ctx: Context, opts: Pick<Opts, 'html' | 'format'>, shown: CampaignReport[], json: unknown): Promise<void> {
  const zone = ctx.timeZone;
  const when = (iso: string | null) => isoInZone(iso, zone);
  if (opts.html !== undefined) {
    await writeHtmlReport(ctx, opts.html, shown);
    // The page is the report: stdout carries the JSON only for a script that asked for it.
    if (opts.format === undefined) return render(ctx, { json, layout: 'pretty' });
  }
  const sections = async () => {
    const { terminalSections } = await import('../../reports/text.js');
    const width = lineWidth(ctx, 80);
    for (const s of terminalSections(shown, { zone, when, width })) {
      ctx.out(ctx.color.bold(truncate(s.title, width)));
      if (s.text !== undefined) ctx.out(s.text);
      else if (s.rows.length === 0) ctx.out(ctx.color.dim('none'));
      else await printFittedTable(ctx, s.head.map((header, i) => ({ header, max: s.max?.[i] })), s.rows);
      ctx.out('');
    }
  };
  // --format is the report's own choice; without it, the run's output format decides.
  const format = ownFormat(ctx, { flag: opts.format, json: 'json', otherwise: 'sections' });
  if (format === 'json') await printJson(ctx, json, 'pretty');
  else if (format === 'md') ctx.out((await import('../../reports/text.js')).markdown(shown, { zone, when }));
  else await render(ctx, { json, layout: 'pretty', human: sections });
}

/** The rate card of the report: --rate-card, else the run's own (--run), else the profile's; none is no error. */
function rateCard(ctx: Context, opts: Opts, journal?: Journal): Promise<RateCard | undefined> {
  return chooseRateCard({
    ...(opts.rateCard !== undefined ? { flag: { typed: opts.rateCard, path: resolve(ctx.cwd, opts.rateCard) } } : {}),
    ...(journal?.guardrails?.rate_card ? { journal: journal.guardrails.rate_card } : {}),
    profile: ctx.settings().profile.rate_card,
  });
}

function body(ctx: Context, reports: CampaignReport[]): unknown {
  return { generated_at: ctx.now().toISOString(), campaigns: reports };
}
