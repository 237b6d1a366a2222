/**
 * Watch output for logs and scripts: one line per change on stdout. Plain text for CI
 * logs, or NDJSON with --json ({"type":"progress"|"call"|"completed", ...}). Problems
 * and notices go to stderr, so stdout stays parseable.
 */
import type { Context } from '../context.js';
import { finishedAt, outcomeLabel, str, num, type ListedCall } from '../calls/model.js';
import { duration, oneLine } from '../text/text.js';
import { formatDateTime, zoneAbbreviation } from '../util/time.js';
import { describeResult, type ConditionResult } from './fail-if.js';
import { formatSummary, orderedStatuses, type Summary } from './summary.js';
import type { Snapshot, WatchView } from './view.js';
import { terminalLine } from '../text/terminal-text.js';

/** Only the facts that make a change worth a line: rates and clocks move every tick. */
function progressKey(s: Snapshot): string {
  return JSON.stringify([s.status, s.counts, s.notice]);
}

abstract class LineView implements WatchView {
  private lastKey?: string;
  private lastNotice?: string;
  private failing = false;

  constructor(protected readonly ctx: Context) {}

  update(snapshot: Snapshot, finished: ListedCall[]): void {
    if (snapshot.notice && snapshot.notice !== this.lastNotice) this.ctx.info(terminalLine(snapshot.notice));
    this.lastNotice = snapshot.notice;
    for (const call of finished) this.call(call);
    const key = progressKey(snapshot);
    if (key !== this.lastKey) this.progress(snapshot);
    this.lastKey = key;
  }

  problem(message: string | undefined): void {
    if (message) this.ctx.warn(message);
    else if (this.failing) this.ctx.info('Polling recovered.');
    this.failing = message !== undefined;
  }

  close(): void {}

  abstract finish(summary: Summary, failIf: ConditionResult[]): void;
  protected abstract progress(s: Snapshot): void;
  protected abstract call(call: ListedCall): void;
}

export class PlainView extends LineView {
  protected progress(s: Snapshot): void {
    const parts = orderedStatuses(s.counts).map((k) => `${k} ${s.counts[k]}`);
    const rate = s.callsPerMinute !== undefined ? `, ${s.callsPerMinute.toFixed(1)} calls/min` : '';
    const eta = s.etaSeconds !== undefined && s.etaSeconds > 0 ? `, about ${duration(s.etaSeconds)} left` : '';
    const counts = s.total > 0 ? `  ${s.finished}/${s.total} finished${rate}${eta}` : '';
    this.ctx.out(terminalLine(`progress  ${s.status ?? 'unknown'}${parts.length ? `  ${parts.join('  ')}` : ''}${counts}`));
  }

  protected call(call: ListedCall): void {
    const at = finishedAt(call);
    const zone = this.ctx.timeZone;
    const when = at === undefined ? '-' : `${formatDateTime(at, zone)} ${zoneAbbreviation(zone, at)}`;
    const summary = str(call.summary);
    const fields = [
      'call', call.call_id, when, str(call.phone_number) ?? '-', outcomeLabel(call),
      duration(num(call.duration_seconds), { missing: '-' }),
    ];
    this.ctx.out(terminalLine(`${fields.join('  ')}${summary ? `  ${oneLine(summary)}` : ''}`));
  }

  finish(summary: Summary, failIf: ConditionResult[]): void {
    this.ctx.out('');
    for (const line of formatSummary(summary, this.ctx.color)) this.ctx.out(line);
    for (const r of failIf) {
      this.ctx.out(`${r.crossed ? 'FAIL' : 'ok  '}  --fail-if ${describeResult(r, summary.total_contacts)}`);
    }
  }
}

export class JsonView extends LineView {
  protected progress(s: Snapshot): void {
    this.emit({
      type: 'progress',
      campaign_id: s.campaignId,
      name: s.name ?? null,
      status: s.status ?? null,
      contacts_by_status: s.counts,
      total: s.total,
      finished: s.finished,
      calls_per_minute: s.callsPerMinute === undefined ? null : Math.round(s.callsPerMinute * 10) / 10,
      eta_seconds: s.etaSeconds ?? null,
    });
  }

  protected call(call: ListedCall): void {
    // The call as the API listed it, `type` first so a reader can dispatch on it (a
    // field of the call's own called `type` would be ambiguous, so it gives way).
    const { type: _ignored, ...fields } = call;
    this.emit({ type: 'call', ...fields });
  }

  finish(summary: Summary, failIf: ConditionResult[]): void {
    const event: Record<string, unknown> = { type: 'completed', campaign_id: summary.campaign_id, summary };
    if (failIf.length > 0) {
      event.fail_if = failIf.map((r) => ({
        condition: r.condition.source,
        name: r.condition.name,
        count: r.count,
        percent: Math.round(r.percent * 100) / 100,
        crossed: r.crossed,
      }));
    }
    this.emit(event);
  }

  private emit(obj: Record<string, unknown>): void {
    this.ctx.out(JSON.stringify(obj));
  }
}
