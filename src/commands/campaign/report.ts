import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../export/atomic-file.js';
import { printTable } from '../../io/output.js';
import { campaignIds, collectReport } from '../../reports/collect.js';
import type { CampaignReport } from '../../reports/stats.js';

interface Opts {
  format?: 'md' | 'json';
  html?: string;
  namePrefix?: string;
  transcripts?: boolean;
}

export default async function campaignReport(ctx: Context, ids: string[], opts: Opts): Promise<void> {
  const api = await ctx.api();
  const all = await campaignIds(api, ids, opts.namePrefix, ctx.signal);
  // Transcripts are only shown in the page: one more request per connected call.
  const transcripts = opts.html !== undefined && opts.transcripts !== false;
  const reports: CampaignReport[] = [];
  for (const id of all) {
    reports.push(await collectReport(api, id, {
      transcripts,
      signal: ctx.signal,
      onTranscript: ctx.interactiveStderr ? (done, total) => ctx.io.stderr.write(`\rTranscripts ${done}/${total}${done === total ? '\n' : ''}`) : undefined,
    }));
  }
  if (opts.html !== undefined) {
    const { htmlReport } = await import('../../reports/html.js');
    try {
      await writeFileAtomic(opts.html, htmlReport(reports, ctx.now()));
    } catch (err) {
      throw new UsageError(`Cannot write ${opts.html}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
    }
    ctx.info(`Wrote the report to ${opts.html} (one file: open it in a browser, no network needed).`);
    if (opts.format === undefined && !ctx.machineOutput) return;
  }
  const format = opts.format ?? (ctx.machineOutput ? 'json' : 'table');
  if (format === 'json') {
    ctx.out(JSON.stringify({ generated_at: ctx.now().toISOString(), campaigns: reports }, null, 2));
  } else if (format === 'md') {
    const { markdown } = await import('../../reports/text.js');
    ctx.out(markdown(reports));
  } else {
    const { terminalSections } = await import('../../reports/text.js');
    for (const s of terminalSections(reports)) {
      ctx.out(ctx.color.bold(s.title));
      await printTable(ctx, s.head, s.rows);
      ctx.out('');
    }
  }
}
