/**
 * The live view's screen as lines that each fit the terminal's width (a line that
 * wraps would throw off the redraw's cursor arithmetic). Pure: the terminal view
 * decides when and where to draw it.
 */
import type { ChalkInstance } from 'chalk';
import { finishedAt, num, outcomeLabel, str } from '../calls/model.js';
import { duration, oneLine } from '../text/text.js';
import { clockTime } from '../util/time.js';
import { orderedStatuses } from './summary.js';
import { terminalLine } from '../text/terminal-text.js';
import type { Snapshot } from './view.js';

type Style = (s: string) => string;
interface Segment {
  text: string;
  style?: Style;
}
type Line = Segment[];

export interface FrameLine {
  text: string;
  /** Columns the line occupies on screen. */
  width: number;
}

export interface FrameOptions {
  width: number;
  height: number;
  color: ChalkInstance;
  problem?: string;
  /** Shown before the first successful poll. */
  campaignId: string;
  /** The zone of the calls' times, named above them (default UTC). */
  zone?: string;
}

const MAX_CALL_ROWS = 10;

export function buildFrame(s: Snapshot | undefined, o: FrameOptions): FrameLine[] {
  const c = o.color;
  const lines: Line[] = [];
  if (!s) {
    lines.push([{ text: `Watching campaign ${o.campaignId}`, style: c.bold }, { text: '  waiting for the first poll…', style: c.dim }]);
  } else {
    lines.push([
      { text: 'Campaign ', style: c.dim },
      { text: s.name ?? s.campaignId, style: c.bold },
      { text: '  ' },
      { text: s.status ?? 'unknown', style: statusStyle(s.status, c) },
      { text: `  elapsed ${duration(s.elapsedMs / 1000)}`, style: c.dim },
    ]);
    if (s.total > 0) {
      const barWidth = Math.max(10, Math.min(50, o.width - 28));
      const pct = Math.floor((s.finished / s.total) * 100);
      lines.push([...bar(s.counts, s.total, barWidth, c), { text: `  ${pct}%  ${s.finished}/${s.total} finished` }]);
      lines.push(legend(s.counts, c));
    }
    if (s.status !== 'draft') lines.push([{ text: rateText(s), style: c.dim }]);
    // The header already names the campaign and says draft: say only what is awaited.
    if (s.status === 'draft') {
      lines.push([{ text: 'Not launched yet; waiting for:', style: c.yellow }]);
      lines.push([{ text: `  voicectl campaign launch ${s.campaignId}`, style: c.yellow }]);
    }
    else if (s.notice) lines.push([{ text: s.notice, style: c.yellow }]);
  }
  if (o.problem) lines.push([{ text: `⚠ ${o.problem}`, style: c.yellow }]);
  if (s) {
    lines.push([]);
    const room = Math.min(MAX_CALL_ROWS, o.height - 1 - lines.length - 1);
    const recent = s.recent.slice(-Math.max(0, room)).reverse();
    if (s.recent.length === 0) lines.push([{ text: 'No finished calls yet.', style: c.dim }]);
    else if (room > 0) {
      const zone = o.zone ?? 'UTC';
      lines.push([{ text: 'Latest finished calls', style: c.bold }, { text: ` (times ${zone})`, style: c.dim }]);
      lines.push(...callRows(recent, c, o.width - 1, zone));
    }
  }
  return lines.slice(0, Math.max(1, o.height - 1)).map((l) => fit(l, o.width - 1));
}

function rateText(s: Snapshot): string {
  const rate = s.callsPerMinute === undefined ? 'measuring rate…' : `${s.callsPerMinute.toFixed(1)} calls/min`;
  const left = s.total - s.finished;
  const eta = left <= 0 ? 'nothing left' : s.etaSeconds === undefined ? 'time left unknown' : `about ${duration(s.etaSeconds)} left`;
  return `${rate} · ${eta}`;
}

// Maps: a status is the service's word, and `constructor` must find no block here.
const BLOCKS_COLOR = new Map([['initiated', '▒'], ['pending', '░']]);
const BLOCKS_PLAIN = new Map([['completed', '█'], ['no_answer', '▓'], ['failed', '▒'], ['initiated', '░'], ['pending', '·']]);

function block(status: string, c: ChalkInstance): string {
  if (c.level > 0) return BLOCKS_COLOR.get(status) ?? '█';
  return BLOCKS_PLAIN.get(status) ?? '#';
}

function statusColor(status: string, c: ChalkInstance): Style {
  switch (status) {
    case 'completed': return c.green;
    case 'no_answer': return c.yellow;
    case 'failed': return c.red;
    case 'initiated': return c.cyan;
    case 'pending': return c.gray;
    default: return c.magenta;
  }
}

function statusStyle(status: string | undefined, c: ChalkInstance): Style {
  if (status === 'completed') return c.green.bold;
  if (status === 'draft') return c.yellow.bold;
  return c.cyan.bold;
}

/** Segments of the bar, sized by largest remainder so they always add up to `width`. */
function bar(counts: Record<string, number>, total: number, width: number, c: ChalkInstance): Segment[] {
  const names = orderedStatuses(counts).filter((k) => counts[k]! > 0);
  const exact = names.map((k) => (counts[k]! / total) * width);
  const cells = exact.map(Math.floor);
  let left = width - cells.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    cells[i]!++;
    left--;
  }
  const segs: Segment[] = names.map((k, i) => ({ text: block(k, c).repeat(cells[i]!), style: statusColor(k, c) }));
  if (left > 0) segs.push({ text: ' '.repeat(left) });
  return segs;
}

function legend(counts: Record<string, number>, c: ChalkInstance): Line {
  const out: Line = [];
  for (const k of orderedStatuses(counts)) {
    if (out.length) out.push({ text: '  ' });
    out.push({ text: block(k, c), style: statusColor(k, c) }, { text: ` ${k} ${counts[k]}` });
  }
  return out;
}

function callRows(calls: ReadonlyArray<Record<string, unknown>>, c: ChalkInstance, width: number, zone: string): Line[] {
  const phoneW = Math.max(...calls.map((x) => (str(x.phone_number) ?? '-').length));
  const outcomeW = Math.min(24, Math.max(...calls.map((x) => outcomeLabel(x).length)));
  // A summary cut to a few letters says nothing: on a narrow terminal leave it out.
  const withSummary = width - (10 + phoneW + 2 + outcomeW + 10) >= 16;
  return calls.map((call) => {
    const outcome = outcomeLabel(call);
    const row: Line = [
      { text: `${clockTime(finishedAt(call), zone)}  `, style: c.dim },
      { text: `${(str(call.phone_number) ?? '-').padEnd(phoneW)}  ` },
      { text: cut(outcome, outcomeW).padEnd(outcomeW), style: statusColor(outcomeColorKey(call), c) },
      { text: `  ${duration(num(call.duration_seconds), { missing: '-' }).padStart(7)}` },
    ];
    if (withSummary) row.push({ text: `  ${oneLine(str(call.summary) ?? '')}`, style: c.dim });
    return row;
  });
}

function outcomeColorKey(call: Record<string, unknown>): string {
  const status = str(call.status)?.toLowerCase();
  if (status === 'no_answer' || status === 'failed') return status;
  if (str(call.error)) return 'failed';
  return 'completed';
}

function cut(s: string, w: number): string {
  return s.length <= w ? s : `${s.slice(0, Math.max(0, w - 1))}…`;
}

/** Joins segments, cutting at `max` columns with an ellipsis; styles apply to what is kept. */
function fit(line: Line, max: number): FrameLine {
  let used = 0;
  let text = '';
  for (const raw of line) {
    // Names, outcomes and summaries are the service's text: shown, never obeyed.
    const seg = { ...raw, text: terminalLine(raw.text) };
    const w = textWidth(seg.text);
    if (used + w <= max) {
      text += seg.style ? seg.style(seg.text) : seg.text;
      used += w;
      continue;
    }
    let kept = '';
    let keptW = 0;
    for (const ch of seg.text) {
      const cw = charWidth(ch);
      if (used + keptW + cw > max - 1) break;
      kept += ch;
      keptW += cw;
    }
    kept += '…';
    text += seg.style ? seg.style(kept) : kept;
    used += keptW + 1;
    break;
  }
  return { text, width: used };
}

export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch);
  return w;
}

/** Terminal columns of one character: 0 for combining marks, 2 for wide East Asian and emoji. */
function charWidth(ch: string): number {
  if (/\p{M}|\p{Cf}/u.test(ch)) return 0;
  if (/\p{Emoji_Presentation}/u.test(ch)) return 2;
  const cp = ch.codePointAt(0)!;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3)
    || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60)
    || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}
