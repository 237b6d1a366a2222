/**
 * `campaign report --html FILE`: one self-contained page. No network: styles inline, charts
 * drawn as HTML bars here (their labels are text at the page's own size, so they stay
 * readable from a phone to a wide screen), a few lines of script to sort, filter and
 * search the calls and to open a transcript. Every bar carries its numbers (`data-label`,
 * `data-value`) so tests and people can read them. All text from the service is escaped:
 * a contact named `<script>` is just a name.
 *
 * Outcomes are grouped into four classes (classes.ts), each with one colour of a
 * colour-blind-safe palette (Okabe and Ito), used by every chart, the table and the legend;
 * a class is also always named in words, never told by colour alone.
 */
import { createHash } from 'node:crypto';
import { comparisonRows } from './text.js';
import { CLASSES, isCallback, type OutcomeClass } from './classes.js';
import { percent, type CampaignReport, type ReportCall } from './stats.js';
import { duration } from '../text/text.js';
import { clockWithZone, formatDateTime, isoInZone, zoneAbbreviation } from '../util/time.js';
import { readCallbackTime, referenceOf, turnsOf } from './followups.js';
import { NO_RATE_CARD, SPEND_HEAD, spendLine, spendMoney, spendRows } from './spend.js';

const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CLASS_LABEL: Record<OutcomeClass, string> = Object.fromEntries(CLASSES.map((c) => [c.id, c.label])) as Record<OutcomeClass, string>;
const CLASS_MEANING: Record<OutcomeClass, string> = {
  success: 'reached, and the call did its job',
  neutral: 'reached, something left to do (a callback, a message)',
  failure: 'reached, and said no or was the wrong person',
  no_contact: 'nobody reached: unanswered or failed',
};

interface Bar {
  label: string;
  value: number;
  /** Shown beside the bar instead of the value (a rate, say). */
  text?: string;
  cls?: OutcomeClass;
}

/** Horizontal bars scaled to the largest value (or to `max`); each a list item people and tests can read. */
function barChart(name: string, title: string, bars: Bar[], o: { max?: number; note?: string } = {}): string {
  const max = o.max ?? Math.max(1, ...bars.map((b) => b.value));
  const items = bars.map((b) => {
    const w = max > 0 ? Math.min(100, (b.value / max) * 100) : 0;
    const cls = b.cls ?? 'plain';
    return `<li data-label="${esc(b.label)}" data-value="${b.value}"${b.cls ? ` data-class="${b.cls}"` : ''}><span class="bl">${esc(b.label)}</span>`
      + `<span class="bt" aria-hidden="true"><span class="bf c-${cls}" style="width:${w.toFixed(1)}%"></span></span>`
      + `<span class="bv">${esc(b.text ?? String(b.value))}${b.cls ? `<span class="sr"> (${CLASS_LABEL[b.cls]})</span>` : ''}</span></li>`;
  }).join('');
  const body = bars.length ? `<ol class="bars">${items}</ol>` : '<p class="none">Nothing to show yet.</p>';
  return `<figure class="chart" data-chart="${esc(name)}"><figcaption>${esc(title)}</figcaption>${body}${o.note ? `<p class="note">${esc(o.note)}</p>` : ''}</figure>`;
}

function legend(): string {
  return `<ul class="legend" aria-label="Outcome classes">${CLASSES.map((c) => `<li><span class="sw c-${c.id}" aria-hidden="true"></span><b>${c.label}</b> <span class="muted">${CLASS_MEANING[c.id]}</span></li>`).join('')}</ul>`;
}

const badge = (cls: OutcomeClass, text: string) => `<span class="badge"><span class="sw c-${cls}" aria-hidden="true"></span>${esc(text)}</span>`;

function funnel(r: CampaignReport): string {
  const f = r.funnel;
  const of = (n: number) => (f.contacts ? ` (${Math.round((n / f.contacts) * 100)}%)` : '');
  return barChart('funnel', 'Funnel: contacts → dialed → connected → outcomes of interest', [
    { label: 'contacts', value: f.contacts, text: String(f.contacts) },
    { label: 'dialed', value: f.dialed, text: `${f.dialed}${of(f.dialed)}` },
    { label: 'connected', value: f.connected, text: `${f.connected}${of(f.connected)}` },
    { label: 'of interest', value: f.of_interest, text: `${f.of_interest}${of(f.of_interest)}`, cls: 'success' },
  ], { note: 'Contacts, each counted once however often it was called, and their share of all contacts. Of interest: a call with a success outcome.' });
}

function transcriptHtml(c: ReportCall): string {
  const turns = c.transcript?.length
    ? `<div class="turns">${c.transcript.map((t) => {
      const agent = t.role === 'agent';
      return `<p class="turn ${agent ? 'agent' : 'user'}"><b>${agent ? 'Agent' : t.role === 'user' ? 'Customer' : esc(t.role || 'Unknown')}</b> ${esc(t.text)}</p>`;
    }).join('')}</div>`
    : '<p class="none">No transcript.</p>';
  const audio = c.recording_url
    ? `<p class="rec"><audio controls preload="none" src="${esc(c.recording_url)}" aria-label="Recording of the call with ${esc(c.name || c.phone_number)}"></audio></p>`
    : '';
  return audio + turns;
}

const COLUMNS = ['started', 'phone', 'name', 'status', 'outcome', 'duration', 'summary'];

function callsTable(r: CampaignReport, zone: string, abbr: string): string {
  // A call with neither transcript nor recording (--no-transcripts, a call nobody answered) has no details row.
  const hasDetails = (c: ReportCall) => Boolean(c.transcript?.length || c.recording_url);
  const details = r.call_list.some(hasDetails);
  const rows = r.call_list.map((c, i) => {
    const t = c.start_time ? Date.parse(c.start_time) : Number.NaN;
    const id = `t-${esc(r.id)}-${i}`;
    const open = hasDetails(c);
    return `<tr class="call" data-call="${esc(c.call_id)}" data-class="${c.class}" data-status="${esc(c.status)}" data-outcome="${esc(c.outcome || c.status)}">`
      + `<td data-v="${Number.isNaN(t) ? '' : t}">${esc(isoInZone(c.start_time, zone))}</td><td class="ph">${esc(c.phone_number)}</td><td>${esc(c.name)}</td><td>${esc(c.status)}</td>`
      + `<td>${badge(c.class, c.outcome || c.status)}</td><td class="n" data-v="${c.duration_seconds ?? ''}">${esc(duration(c.duration_seconds, { missing: '-' }))}</td><td class="sum">${esc(c.summary)}</td>`
      + (details ? `<td>${open ? `<button type="button" class="open" aria-expanded="false" aria-controls="${id}">${c.recording_url ? 'Listen, read' : 'Transcript'}</button>` : ''}</td>` : '')
      + '</tr>'
      + (open ? `<tr class="transcript" id="${id}" hidden><td colspan="8">${transcriptHtml(c)}</td></tr>` : '');
  }).join('');
  const outcomes = Object.keys(r.outcomes);
  const statuses = [...new Set(r.call_list.map((c) => c.status))].sort();
  const opt = (v: string, label: string) => `<option value="${esc(v)}">${esc(label)}</option>`;
  const sid = esc(r.id);
  const recordings = r.call_list.some((c) => c.recording_url);
  return `<h3 id="calls-${sid}">Calls</h3>
<div class="controls" role="search" aria-label="Filter calls">
<label>Search <input type="search" class="search" placeholder="name, phone, outcome, summary"></label>
<label>Outcome <select class="f-outcome"><option value="">all</option><optgroup label="Classes">${CLASSES.map((c) => opt(`class:${c.id}`, c.label)).join('')}</optgroup><optgroup label="Outcomes">${outcomes.map((o) => opt(`outcome:${o}`, o)).join('')}</optgroup></select></label>
<label>Status <select class="f-status"><option value="">all</option>${statuses.map((s) => opt(s, s || '(none)')).join('')}</select></label>
<span class="count muted" aria-live="polite"></span>
</div>
${recordings ? `<p class="note">Recording links were fetched when this page was made and expire after an hour; make the report again for fresh ones.</p>` : ''}
<div class="scroll" tabindex="0" role="region" aria-labelledby="calls-${sid}">
<table class="calls"><caption class="sr">Calls of ${esc(r.name)}; column buttons sort, a row's button opens its transcript.</caption>
<thead><tr>${COLUMNS.map((c, i) => `<th scope="col" aria-sort="${i === 0 ? 'ascending' : 'none'}"><button type="button" class="sort" data-col="${i}">${esc(c)}${i === 0 ? ` <span class="muted">(${esc(abbr)})</span>` : ''}</button></th>`).join('')}<th scope="col"><span class="sr">Details</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>
${details ? `<p class="hint muted">Click a call (or its button) to show its transcript: the agent's turns on the left, the customer's on the right.</p>` : ''}`;
}

/**
 * The time the customer asked for, read as `campaign followups` reads it (the summary, else
 * the transcript when the page has it), from the end of the call in the contact's zone, and
 * shown in the report's zone, named; with the contact's own clock beside it when that differs.
 */
function askedFor(c: ReportCall, zone: string): string {
  const ref = referenceOf(c);
  if (Number.isNaN(ref)) return '';
  const own = c.contact_zone ?? zone;
  const r = readCallbackTime({ summary: c.summary, ...turnsOf(c.transcript) }, ref, own);
  if (r.kind === 'conflict') return `two times said: "${r.phrase}"`;
  if (r.at === undefined) return '';
  const theirs = own === zone ? '' : ` (${clockWithZone(r.at, own)} for them)`;
  return `${formatDateTime(r.at, zone, { minutes: true })} ${zoneAbbreviation(zone, r.at)}${theirs}${r.kind === 'day' ? ', day only' : ''}`;
}

/** The spend per country by the user's rate card; an unpriced country says so. */
function spendBlock(r: CampaignReport): string {
  const s = r.spend;
  if (!s) return '';
  const rows = spendRows(s);
  return `<h3>Spend <span class="muted">(${esc(s.rate_card)})</span></h3>
<p class="note" data-spend-minor-units="${s.minor_units}" data-currency="${esc(s.currency)}">${esc(spendLine(s))}.</p>
<div class="scroll" tabindex="0" role="region" aria-label="Spend of ${esc(r.name)}"><table class="spend"><thead><tr>${SPEND_HEAD.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map(([label, ...cells]) =>
    `<tr data-country="${esc(label)}"><th scope="row">${esc(label)}</th>${cells.map((c) => `<td class="n">${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
}

function callbacks(r: CampaignReport, zone: string): string {
  const list = r.call_list.filter((c) => isCallback(c.outcome));
  if (list.length === 0) return `<h3>Callbacks</h3><p class="none">No callback was asked for.</p>`;
  return `<h3>Callbacks <span class="muted">(${list.length})</span></h3>
<p class="note">"Asked for" is read as <code>voicectl campaign followups</code> reads it (the summary, else the transcript), in your zone; <code>voicectl campaign followups</code> writes a spreadsheet.</p>
<div class="scroll" tabindex="0" role="region" aria-label="Callbacks of ${esc(r.name)}"><table class="callbacks"><thead><tr><th scope="col">asked for</th><th scope="col">called</th><th scope="col">phone</th><th scope="col">name</th><th scope="col">what was said</th></tr></thead><tbody>${list.map((c) =>
    `<tr data-call="${esc(c.call_id)}"><td>${esc(askedFor(c, zone))}</td><td>${esc(isoInZone(c.start_time, zone))}</td><td class="ph">${esc(c.phone_number)}</td><td>${esc(c.name)}</td><td class="sum">${esc(c.summary)}</td></tr>`).join('')}</tbody></table></div>`;
}

/** `zone`: the zone of the report's hours (hourlyStats) and of the times shown, named beside them. */
function section(r: CampaignReport, zone: string, abbr: string): string {
  const cls = (o: string): OutcomeClass => r.outcome_classes[o] ?? 'neutral';
  const charts = [
    funnel(r),
    barChart('classes', 'Finished calls by class', CLASSES.map((c) => ({ label: c.label, value: r.classes[c.id], cls: c.id }))),
    barChart('outcomes', 'Outcomes (finished calls)', Object.entries(r.outcomes).map(([label, value]) => ({ label, value, cls: cls(label) }))),
    barChart('durations', 'Duration of connected calls', r.duration.histogram.map((b) => ({ label: b.bucket, value: b.calls }))),
    barChart('calls-over-time', `Calls per hour (${zone})`, r.calls_per_hour.map((p) => ({ label: p.hour.slice(5, 16).replace('T', ' '), value: p.calls }))),
    barChart('connect-rate-by-hour', `Connect rate by hour of day (${zone})`, r.connect_rate_by_hour_of_day.filter((p) => p.calls > 0).map((p) => ({ label: `${String(p.hour).padStart(2, '0')}:00`, value: p.rate === null ? 0 : Math.round(p.rate * 1000) / 10, text: `${percent(p.rate)} of ${p.calls}` })), { max: 100, note: 'Hours without calls are left out.' }),
  ].join('');
  const sid = esc(r.id);
  return `<section class="campaign" data-campaign="${sid}" aria-labelledby="h-${sid}">
<h2 id="h-${sid}">${esc(r.name)} <small class="muted">${sid} · ${esc(r.status)}</small></h2>
<div class="kpis">
<div><b data-kpi="contacts">${r.contacts}</b>contacts</div>
<div><b data-kpi="finished">${r.finished_calls}</b>calls finished</div>
<div><b data-kpi="connected">${r.connected}</b>connected</div>
<div><b data-kpi="connect-rate">${esc(percent(r.connect_rate))}</b>connect rate</div>
<div><b data-kpi="average-duration">${esc(duration(r.duration.average_seconds, { missing: '-' }))}</b>average duration</div>
${r.spend ? `<div><b data-kpi="spend">${esc(spendMoney(r.spend, r.spend.minor_units))}</b>spent${Object.keys(r.spend.unpriced).length ? ' (priced calls)' : ''}</div>
` : ''}</div>
<div class="charts">${charts}</div>
${spendBlock(r)}
${callbacks(r, zone)}
${callsTable(r, zone, abbr)}
</section>`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f2a;--muted:#4f5668;--line:#d5d9e2;--panel:#f6f7fa;--focus:#0b57d0;--agent:#e8f1fb;--user:#fdf2e3;
--success:#0072b2;--neutral:#e69f00;--failure:#d55e00;--no_contact:#8d8d8d;--plain:#5b6478}
@media (prefers-color-scheme:dark){:root{--bg:#14161b;--fg:#e7e9ee;--muted:#b3b9c6;--line:#3a3f4b;--panel:#1d2027;--focus:#8ab4f8;--agent:#1b2a3a;--user:#35280f;
--success:#56b4e9;--neutral:#e69f00;--failure:#f07e3c;--no_contact:#9a9a9a;--plain:#9aa3b8}}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:var(--bg)}
main{padding:16px clamp(12px,3vw,32px);max-width:1800px;margin:0 auto}
h1{font-size:1.5rem;margin:0 0 4px;overflow-wrap:anywhere}h2{font-size:1.25rem;margin:36px 0 10px;overflow-wrap:anywhere;border-top:1px solid var(--line);padding-top:16px}
h3{font-size:1.05rem;margin:24px 0 8px}small{font-weight:400;font-size:.8em}.muted{color:var(--muted)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.legend{list-style:none;padding:0;margin:8px 0 16px;display:flex;flex-wrap:wrap;gap:6px 18px}.legend li{overflow-wrap:anywhere}
.sw{display:inline-block;width:.85em;height:.85em;border-radius:2px;margin-right:6px;vertical-align:-1px;flex:none}
.c-success{background:var(--success)}.c-neutral{background:var(--neutral)}.c-failure{background:var(--failure)}.c-no_contact{background:var(--no_contact)}.c-plain{background:var(--plain)}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:10px}
.kpis div{border:1px solid var(--line);border-radius:8px;padding:8px 12px;color:var(--muted);overflow-wrap:anywhere}.kpis b{display:block;font-size:1.35rem;color:var(--fg)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,340px),1fr));gap:12px;margin:16px 0}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:10px 12px;min-width:0}figcaption{font-weight:600;margin-bottom:6px;overflow-wrap:anywhere}
.chart[data-chart=funnel]{grid-column:1/-1}.bars{list-style:none;margin:0;padding:0}.bars li{display:grid;grid-template-columns:minmax(4.5em,38%) minmax(24px,1fr) auto;gap:8px;align-items:center;padding:2px 0}
.bl{overflow-wrap:anywhere;min-width:0;font-size:.9rem}.bt{height:14px;background:var(--panel);border-radius:3px;overflow:hidden}.bf{display:block;height:100%;min-width:1px}
.bv{font-variant-numeric:tabular-nums;font-size:.9rem;text-align:right;overflow-wrap:anywhere;min-width:0}
.note,.none,.hint{font-size:.85rem;color:var(--muted);margin:6px 0}
.controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end;margin:8px 0}.controls label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted);min-width:0;max-width:100%}
input,select,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:5px 8px;max-width:100%}
.search{width:min(360px,100%)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.scroll{position:relative;overflow-x:auto;max-width:100%;border:1px solid var(--line);border-radius:8px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:break-word}
table.calls{min-width:860px}table.callbacks{min-width:680px}
th{background:var(--panel);font-weight:600;white-space:nowrap}th button.sort{border:0;background:none;padding:0;font-weight:600;cursor:pointer;white-space:nowrap}
th[aria-sort=ascending] button.sort::after{content:" ▲"}th[aria-sort=descending] button.sort::after{content:" ▼"}
td.n{text-align:right;white-space:nowrap}td.ph{white-space:nowrap}td.sum{min-width:16em}
tr.call{cursor:pointer}tr.call:hover td{background:var(--panel)}
.badge{display:inline-flex;align-items:baseline;min-width:0}
button.open{font-size:.85rem;padding:2px 8px;white-space:nowrap;cursor:pointer}
tr.transcript>td{background:var(--panel)}
.turns{display:flex;flex-direction:column;gap:6px;max-width:900px}
.turn{margin:0;padding:6px 10px;border-radius:10px;max-width:85%;overflow-wrap:anywhere}
.turn.agent{align-self:flex-start;background:var(--agent);border-left:4px solid var(--success)}
.turn.user{align-self:flex-end;background:var(--user);border-right:4px solid var(--neutral)}
.turn b{display:block;font-size:.8rem}
audio{width:min(420px,100%)}
table.compare{min-width:0}table.compare td:not(:first-child),table.compare th:not(:first-child){text-align:right}
@media print{
:root{--bg:#fff;--fg:#000;--muted:#333;--line:#bbb;--panel:#f2f2f2}
body{font-size:11pt}main{padding:0;max-width:none}.controls,.hint,button.open,audio,th:last-child,td:last-child{display:none}
.scroll{overflow:visible;border:0}table.calls,table.callbacks{min-width:0}tr,figure,li{break-inside:avoid}
h2{break-before:page}.sw,.bf{-webkit-print-color-adjust:exact;print-color-adjust:exact}
tr.transcript:not([hidden]){display:table-row}table.spend th:last-child,table.spend td:last-child{display:table-cell}th button.sort{color:#000}}`;

const SCRIPT = `
function init() {
document.querySelectorAll('section.campaign').forEach(function (s) {
  var input = s.querySelector('input.search');
  var fo = s.querySelector('select.f-outcome');
  var fs = s.querySelector('select.f-status');
  var count = s.querySelector('.count');
  var tbody = s.querySelector('table.calls tbody');
  var rows = Array.prototype.slice.call(tbody.querySelectorAll('tr.call'));
  var details = new Map(rows.map(function (r) { var t = r.nextElementSibling; return [r, t && t.classList.contains('transcript') ? t : null]; }));
  function apply() {
    var q = input.value.trim().toLowerCase(), o = fo.value, st = fs.value, n = 0;
    rows.forEach(function (r) {
      var show = (!q || r.textContent.toLowerCase().indexOf(q) !== -1)
        && (!o || (o.indexOf('class:') === 0 ? r.dataset.class === o.slice(6) : r.dataset.outcome === o.slice(8)))
        && (!st || r.dataset.status === st);
      r.hidden = !show;
      if (!show) close(r);
      if (show) n++;
    });
    count.textContent = n + ' of ' + rows.length + ' calls';
  }
  function toggle(r) {
    var t = details.get(r);
    if (!t) return;
    t.hidden = !t.hidden;
    r.querySelector('button.open').setAttribute('aria-expanded', String(!t.hidden));
  }
  function close(r) {
    var t = details.get(r);
    if (!t) return;
    t.hidden = true;
    r.querySelector('button.open').setAttribute('aria-expanded', 'false');
  }
  input.addEventListener('input', apply);
  fo.addEventListener('change', apply);
  fs.addEventListener('change', apply);
  tbody.addEventListener('click', function (e) {
    var r = e.target.closest('tr.call');
    if (r) toggle(r);
  });
  s.querySelectorAll('table.calls th button.sort').forEach(function (b) {
    b.addEventListener('click', function () {
      var col = Number(b.dataset.col), th = b.parentNode;
      var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      s.querySelectorAll('table.calls th').forEach(function (h) { if (h.hasAttribute('aria-sort')) h.setAttribute('aria-sort', 'none'); });
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      var key = function (r) { var c = r.cells[col]; return c.dataset.v !== undefined ? (c.dataset.v === '' ? -Infinity : Number(c.dataset.v)) : c.textContent.toLowerCase(); };
      var sorted = rows.map(function (r, i) { return [key(r), i, r]; }).sort(function (a, b) {
        var c = a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
        return c ? c * dir : a[1] - b[1];
      });
      var frag = document.createDocumentFragment();
      sorted.forEach(function (x) { frag.appendChild(x[2]); if (details.get(x[2])) frag.appendChild(details.get(x[2])); });
      tbody.appendChild(frag);
      rows = sorted.map(function (x) { return x[2]; });
    });
  });
  apply();
});
}
init();`;

/** The live page (watch --serve): each server-sent event holds the new report, put in place of the old. */
const LIVE_SCRIPT = `
var live = document.getElementById('live');
var events = new EventSource('events');
events.onmessage = function (e) {
  document.getElementById('report').innerHTML = JSON.parse(e.data).html;
  init();
  live.textContent = 'Live: updated ' + new Date().toLocaleTimeString() + '.';
};
events.onerror = function () { live.textContent = 'Live: reconnecting to voicectl…'; };`;

/** What the page shows under its title: the legend, the side-by-side table, each campaign. */
export function reportBody(reports: CampaignReport[], generatedAt: Date, zone = 'UTC'): string {
  const abbr = zoneAbbreviation(zone, generatedAt.getTime());
  let compare = '';
  if (reports.length > 1) {
    const rows = [
      ...comparisonRows(reports),
      ['dialed', ...reports.map((r) => String(r.funnel.dialed))],
      ['of interest', ...reports.map((r) => String(r.funnel.of_interest))],
      ...CLASSES.map((c) => [c.label, ...reports.map((r) => String(r.classes[c.id]))]),
    ];
    compare = `<h2>Side by side</h2><div class="scroll" tabindex="0" role="region" aria-label="Campaigns side by side"><table class="compare"><thead><tr><td></td>${reports.map((r) => `<th scope="col">${esc(r.name)}</th>`).join('')}</tr></thead>`
      + `<tbody>${rows.map(([label, ...cells]) => `<tr><th scope="row">${esc(label)}</th>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
  }
  return `<p class="muted">Made by voicectl on ${esc(formatDateTime(generatedAt.getTime(), zone, { minutes: true }))} ${esc(abbr)}. Times are in ${esc(zone)}${abbr !== zone ? ` (${esc(abbr)})` : ''}. Connect rate: connected calls (status completed) of finished calls.</p>
${legend()}
${reports.some((r) => r.spend === null) ? `<p class="note" data-spend="none">${esc(NO_RATE_CARD)}</p>
` : ''}${compare}
${reports.map((r) => section(r, zone, abbr)).join('\n')}`;
}

/** The page; `live` (watch --serve) adds a script that takes each new report from the server. */
/**
 * The Content-Security-Policy header `watch --serve` sends with the live page: nothing but
 * what the page uses. Its one script by hash (no other script runs, whatever a contact's
 * name or a transcript holds), its styles (the bars' widths are style attributes), the
 * recordings' origins, the event stream of its own address; no frames, forms or base.
 */
export function livePagePolicy(reports: CampaignReport[]): string {
  const script = `'sha256-${createHash('sha256').update(SCRIPT + LIVE_SCRIPT).digest('base64')}'`;
  const media = mediaOrigins(reports);
  return [
    "default-src 'none'", `script-src ${script}`, "style-src 'unsafe-inline'", 'img-src data:',
    ...(media.length ? [`media-src ${media.join(' ')}`] : []),
    "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

function mediaOrigins(reports: CampaignReport[]): string[] {
  return [...new Set(reports.flatMap((r) => r.call_list.flatMap((c) => (c.recording_url ? [new URL(c.recording_url).origin] : []))))];
}

export function htmlReport(reports: CampaignReport[], generatedAt: Date, zone = 'UTC', o: { live?: boolean } = {}): string {
  const title = reports.length === 1 ? `Campaign report: ${reports[0]!.name}` : `Campaign report: ${reports.length} campaigns`;
  // Recording links are the only addresses the page may load, and only with --recordings.
  const media = mediaOrigins(reports);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:${media.length ? `; media-src ${media.map(esc).join(' ')}` : ''}${o.live ? "; connect-src 'self'" : ''}">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${esc(title)}</h1>
${o.live ? '<p id="live" class="muted" role="status">Live: the page updates as calls finish.</p>\n' : ''}<div id="report">${reportBody(reports, generatedAt, zone)}</div>
</main><script>${SCRIPT}${o.live ? LIVE_SCRIPT : ''}</script></body></html>
`;
}
