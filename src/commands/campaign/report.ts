import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { printFittedTable } from '../../io/output.js';
import { noun, truncate } from '../../io/text.js';
import { isoInZone } from '../../util/time.js';
import { openRun } from '../../campaigns/run/start.js';
import { campaignIds, collectReport } from '../../reports/collect.js';
import { collectRunReport } from '../../reports/run.js';
import type { CampaignReport } from '../../reports/stats.js';
import { ownFormat, printJson, render } from '../../io/render.js';
import { Counter } from '../../io/progress.js';
import type { ReportFlags } from './definition.js';
import { lineWidth } from '../../io/terminal.js';

type Opts = ReportFlags;

export default async function campaignReport(ctx: Context, ids: string[], opts: Opts): Promise<void> {
  if (opts.recordings && opts.html === undefined) throw new UsageError('--recordings puts audio players in the page: use it with --html FILE.');
  if (opts.run !== undefined) return runReport(ctx, ids, opts);
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
    // The links are for the page; the JSON keeps what the service returned.
    reports.push({ ...report, call_list: report.call_list.map(({ recording_url: _, ...c }) => c) });
    shown.push({ ...report, ...hours(zone) });
  }
  await present(ctx, opts, shown, body(ctx, reports));
}

/** --run JOURNAL: the run as one campaign, then each wave and each zone, as sections side by side. */
async function runReport(ctx: Context, ids: string[], opts: Opts): Promise<void> {
  if (ids.length > 0 || opts.namePrefix !== undefined) throw new UsageError('--run reports one campaign run: give no campaign ids or --name-prefix with it.');
  const { journal, api } = await openRun(ctx, opts.run!);
  const r = await collectRunReport(api, journal, ctx.signal);
  const zone = ctx.timeZone;
  const parts = [r.whole, ...r.waves, ...r.zones];
  const json = {
    generated_at: ctx.now().toISOString(), run: r.run,
    campaigns: [r.whole.report], waves: r.waves.map((w) => ({ n: w.n, ...w.report })), zones: r.zones.map((z) => ({ zone: z.zone, ...z.report })),
  };
  await present(ctx, opts, parts.map((p) => ({ ...p.report, ...p.hours(zone) })), json);
}

/** The page (--html), markdown, JSON or the terminal's sections, as --format and the output format say. */
async function present(ctx: Context, opts: Opts, shown: CampaignReport[], json: unknown): Promise<void> {
  const zone = ctx.timeZone;
  const when = (iso: string | null) => isoInZone(iso, zone);
  if (opts.html !== undefined) {
    const { htmlReport } = await import('../../reports/html.js');
    try {
      await writeFileAtomic(opts.html, htmlReport(shown, ctx.now(), zone));
    } catch (err) {
      throw new UsageError(`Cannot write ${opts.html}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
    }
    ctx.info(`Wrote the report to ${opts.html} (one file: open it in a browser, no network needed).`);
    // The page is the report: stdout carries the JSON only for a script that asked for it.
    if (opts.format === undefined) return render(ctx, { json, layout: 'pretty' });
  }
  const sections = async () => {
    const { terminalSections } = await import('../../reports/text.js');
    const width = lineWidth(ctx, 80);
    for (const s of terminalSections(shown, { zone, when, width })) {
      ctx.out(ctx.color.bold(truncate(s.title, width)));
      if (s.rows.length === 0) ctx.out(ctx.color.dim('none'));
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

function body(ctx: Context, reports: CampaignReport[]): unknown {
  return { generated_at: ctx.now().toISOString(), campaigns: reports };
}
