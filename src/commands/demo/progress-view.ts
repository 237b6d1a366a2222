/**
 * The demo's progress when stdout is not a terminal: a line on stderr whenever the
 * counts change, then the watch summary, so stdout keeps only the results table.
 */
import type { Context } from '../../context.js';
import { formatSummary, orderedStatuses, type Summary } from '../../watch/summary.js';
import type { Snapshot, WatchView } from '../../watch/view.js';

export class ProgressLines implements WatchView {
  private last?: string;

  constructor(private readonly ctx: Context) {}

  update(s: Snapshot): void {
    const counts = orderedStatuses(s.counts).filter((k) => (s.counts[k] ?? 0) > 0).map((k) => `${k} ${s.counts[k]}`);
    const line = `  ${s.status ?? 'running'}: ${s.finished}/${s.total} finished${counts.length ? ` (${counts.join(', ')})` : ''}`;
    if (line !== this.last) this.ctx.info(line);
    this.last = line;
  }

  problem(message: string | undefined): void {
    if (message) this.ctx.warn(message);
  }

  finish(summary: Summary): void {
    this.ctx.info('');
    for (const line of formatSummary(summary, this.ctx.errColor)) this.ctx.info(line);
  }

  close(): void {}
}
