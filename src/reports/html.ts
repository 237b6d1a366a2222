/**
 * `campaign report --html FILE`: one self-contained page. No network: styles inline, charts
 * as inline SVG drawn here, a few lines of script for the search box and the transcripts.
 * Every bar carries its numbers (`data-label`, `data-value`) so tests and people can read
 * them. All text from the service is escaped: a contact named `<script>` is just a name.
 */
import { comparisonRows } from './text.js';
import { percent, seconds, type CampaignReport } from './stats.js';
import { formatDateTime, isoInZone } from '../util/time.js';

const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A label cut to fit under its bar; the whole label is in the bar's tooltip. */
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

interface Bar {
  label: string;
  value: number;
  /** Shown above the bar instead of the value (a rate, say). */
  text?: string;
}

/** Vertical bars, scaled to the largest value (or to `max`). */
function barChart(name: string, title: string, bars: Bar[], o: { max?: number } = {}): string {
  const w = 640;
  const h = 220;
  const pad = { top: 24, bottom: 44, left: 8, right: 8 };
  const max = o.max ?? Math.max(1, ...bars.map((b) => b.value));
  const slot = (w - pad.left - pad.right) / Math.max(1, bars.length);
  const bw = Math.max(2, slot * 0.7);
  const plotH = h - pad.top - pad.bottom;
  const rects = bars.map((b, i) => {
    const bh = max > 0 ? (b.value / max) * plotH : 0;
    const x = pad.left + i * slot + (slot - bw) / 2;
    const y = pad.top + plotH - bh;
    const small = bars.length > 12;
    return `<g><rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${bw.toFixed(1)}" height="${bh.toFixed(1)}" data-label="${esc(b.label)}" data-value="${b.value}"><title>${esc(b.label)}: ${esc(b.text ?? b.value)}</title></rect>`
      + (small ? '' : `<text x="${(x + bw / 2).toFixed(1)}" y="${(y - 4).toFixed(1)}" class="v">${esc(b.text ?? b.value)}</text>`)
      + `<text x="${(x + bw / 2).toFixed(1)}" y="${h - pad.bottom + 14}" class="l${small ? ' s' : ''}">${esc(small && i % 3 ? '' : cut(b.label, Math.max(4, Math.floor(slot / 6.5))))}</text></g>`;
  }).join('');
  return `<figure><figcaption>${esc(title)}</figcaption><svg data-chart="${esc(name)}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(title)}">${rects}</svg></figure>`;
}

/** `zone`: the zone of the report's hours (hourlyStats) and of the times shown, named beside them. */
function section(r: CampaignReport, zone: string): string {
  const charts = [
    barChart('outcomes', 'Outcomes (finished calls)', Object.entries(r.outcomes).map(([label, value]) => ({ label, value }))),
    barChart('durations', 'Duration of connected calls', r.duration.histogram.map((b) => ({ label: b.bucket, value: b.calls }))),
    barChart('calls-over-time', `Calls per hour (${zone})`, r.calls_per_hour.map((p) => ({ label: p.hour.slice(5, 13).replace('T', ' '), value: p.calls }))),
    barChart('connect-rate-by-hour', `Connect rate by hour of day (${zone})`, r.connect_rate_by_hour_of_day.map((p) => ({ label: String(p.hour), value: p.rate === null ? 0 : Math.round(p.rate * 1000) / 10, text: p.calls ? `${percent(p.rate)} of ${p.calls}` : 'no calls' })), { max: 100 }),
  ].join('');
  const rows = r.call_list.map((c, i) => {
    const transcript = c.transcript?.length
      ? c.transcript.map((t) => `<p class="turn ${t.role === 'agent' ? 'agent' : 'user'}"><b>${esc(t.role)}</b> ${esc(t.text)}</p>`).join('')
      : '<p class="none">No transcript.</p>';
    return `<tr class="call" data-call="${esc(c.call_id)}" data-i="${i}"><td>${esc(isoInZone(c.start_time, zone))}</td><td>${esc(c.phone_number)}</td><td>${esc(c.name)}</td><td>${esc(c.status)}</td><td>${esc(c.outcome)}</td><td class="n">${esc(seconds(c.duration_seconds))}</td><td>${esc(c.summary)}</td></tr>`
      + `<tr class="transcript" hidden><td colspan="7">${transcript}</td></tr>`;
  }).join('');
  return `<section class="campaign" data-campaign="${esc(r.id)}">
<h2>${esc(r.name)} <small>${esc(r.id)} · ${esc(r.status)}</small></h2>
<div class="kpis">
<div><b data-kpi="contacts">${r.contacts}</b>contacts</div>
<div><b data-kpi="finished">${r.finished_calls}</b>calls finished</div>
<div><b data-kpi="connected">${r.connected}</b>connected</div>
<div><b data-kpi="connect-rate">${esc(percent(r.connect_rate))}</b>connect rate</div>
<div><b data-kpi="average-duration">${esc(seconds(r.duration.average_seconds))}</b>average duration</div>
</div>
<div class="charts">${charts}</div>
<h3>Calls</h3>
<input type="search" class="search" placeholder="Search calls: name, phone, outcome, summary" aria-label="Search calls">
<table class="calls"><thead><tr><th>started (${esc(zone)})</th><th>phone</th><th>name</th><th>status</th><th>outcome</th><th>duration</th><th>summary</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">Click a call to show its transcript.</p>
</section>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px}h2 small{font-weight:400;color:#667}
.kpis{display:flex;gap:12px;flex-wrap:wrap}.kpis div{border:1px solid #dde;border-radius:8px;padding:8px 14px;min-width:110px;color:#556}
.kpis b{display:block;font-size:20px;color:#1d2330}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:12px;margin:16px 0}
figure{margin:0;border:1px solid #eef;border-radius:8px;padding:8px}figcaption{font-weight:600;margin-bottom:4px}
svg{width:100%;height:auto}.bar{fill:#4f6bed}.v{font-size:11px;text-anchor:middle;fill:#334}.l{font-size:11px;text-anchor:middle;fill:#667}.l.s{font-size:9px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;vertical-align:top}
td.n{text-align:right;white-space:nowrap}tr.call{cursor:pointer}tr.call:hover{background:#f5f7ff}
tr.transcript td{background:#fafbff}.turn{margin:2px 0}.turn.agent b{color:#4f6bed}.turn.user b{color:#0a7d4f}
.search{width:100%;max-width:420px;padding:6px 8px;margin:6px 0;border:1px solid #ccd;border-radius:6px}
.compare td:not(:first-child),.compare th:not(:first-child){text-align:right}.hint{color:#889;font-size:12px}`;

const SCRIPT = `
document.querySelectorAll('section.campaign').forEach(function (s) {
  var input = s.querySelector('input.search');
  var rows = Array.prototype.slice.call(s.querySelectorAll('tr.call'));
  input.addEventListener('input', function () {
    var q = input.value.trim().toLowerCase();
    rows.forEach(function (r) {
      var show = !q || r.textContent.toLowerCase().indexOf(q) !== -1;
      r.hidden = !show;
      if (!show) r.nextElementSibling.hidden = true;
    });
  });
  rows.forEach(function (r) {
    r.addEventListener('click', function () { r.nextElementSibling.hidden = !r.nextElementSibling.hidden; });
  });
});`;

export function htmlReport(reports: CampaignReport[], generatedAt: Date, zone = 'UTC'): string {
  const compare = comparisonRows(reports);
  const head = `<tr><th></th>${reports.map((r) => `<th>${esc(r.name)}</th>`).join('')}</tr>`;
  const body = compare.map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('');
  const title = reports.length === 1 ? `Campaign report: ${reports[0]!.name}` : `Campaign report: ${reports.length} campaigns`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(title)}</h1><p class="hint">Made by voicectl at ${esc(formatDateTime(generatedAt.getTime(), zone))} ${esc(zone)}; times are ${esc(zone)}. Connect rate: connected calls (status completed) of finished calls.</p>
<table class="compare">${head}${body}</table>
${reports.map((r) => section(r, zone)).join('\n')}
<script>${SCRIPT}</script></body></html>
`;
}
