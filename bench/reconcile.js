// `voicectl events reconcile` over 100,000 calls and a 100,000-line log: wall time from
// spawn to exit and the child's peak RSS, median of a few runs. The API is a fake paging
// server in this process (GET /calls in pages of 200, GET /campaigns/{id}), so the figure
// is the CLI's, not an emulator's. Budget: under 10 s and 300 MB.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, median, voicectlTimed } from './lib.js';

const CALLS = Number(process.env.BENCH_RECONCILE_CALLS ?? 100_000);
const RUNS = Number(process.env.BENCH_RECONCILE_RUNS ?? 3);
const CAMPAIGNS = 5;
const BUDGET = { wallMs: 10_000, rssMb: 300 };

const t0 = Date.parse('2026-03-02T04:00:00.000Z');
const campaignId = (i) => `00000000-0000-4000-8000-00000000000${i % CAMPAIGNS}`;
function call(i) {
  const start = new Date(t0 + i * 1000).toISOString();
  return {
    call_id: `call_${String(i).padStart(7, '0')}`, campaign_id: campaignId(i), agent_id: '11111111-1111-4111-8111-111111111111', agent_name: 'Asha',
    direction: 'outbound', phone_number: `+9198${String(10_000_000 + i).slice(-8)}`, status: i % 7 === 0 ? 'no_answer' : 'completed',
    end_reason: 'completed', outcome: 'requirements_gathered', summary: 'The lead wants a two-bedroom flat and a call back next week.',
    error: null, duration_seconds: 95, start_time: start, end_time: new Date(t0 + i * 1000 + 95_000).toISOString(),
    has_recording: i % 10 === 0, contact: { name: `Lead ${i}`, extra: { lead_id: i, city: 'Pune' } },
  };
}

// The log: call.ended of 95% of the calls, and recording_ready of half the recorded ones.
function writeLog(file) {
  const lines = [];
  for (let i = 0; lines.length < CALLS && i < CALLS; i++) {
    if (i % 20 !== 0) lines.push(JSON.stringify({ id: `evt_e${i}`, type: 'call.ended', created_at: new Date(t0 + i * 1000 + 95_000).toISOString(), data: call(i) }));
    if (i % 20 === 0 && lines.length < CALLS) lines.push(JSON.stringify({ id: `evt_r${i}`, type: 'call.recording_ready', created_at: new Date(t0 + i * 1000 + 120_000).toISOString(), data: call(i) }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return lines.length;
}

async function fakeApi() {
  // Pages made once: the figure is the CLI's, not this server's.
  const pages = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/calls') {
      const limit = Math.min(200, Number(url.searchParams.get('limit') ?? 50));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const key = `${limit}:${offset}`;
      if (!pages.has(key)) {
        const calls = [];
        for (let i = offset; i < Math.min(CALLS, offset + limit); i++) calls.push(call(i));
        pages.set(key, JSON.stringify({ calls, total: CALLS, limit, offset }));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(pages.get(key));
      return;
    }
    const m = /^\/campaigns\/([^/]+)$/.exec(url.pathname);
    if (m) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: m[1], name: 'Bench', agent_id: null, status: 'completed', contacts_by_status: { completed: CALLS / CAMPAIGNS } }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found","status_code":404}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function once(api, log, dir) {
  const env = cliEnv({ url: api.url, apiKey: 'bench-key' }, { home: dir, configDir: dir });
  // Exit 1: there are gaps, as this log is made to have.
  const r = await voicectlTimed(['events', 'reconcile', '--log', log, '--since', '2026-03-01', '--json'], { env, peak: true, allowed: [1], out: 'bytes' });
  const gaps = /(\d+) of (\d+) events expected/.exec(r.err);
  return { ms: r.ms, cpuMs: r.cpuMs, rssMb: r.rssMb, gaps: gaps ? Number(gaps[1]) : NaN, expected: gaps ? Number(gaps[2]) : NaN, outBytes: r.out };
}

const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-reconcile-'));
const api = await fakeApi();
try {
  const log = join(dir, 'events.jsonl');
  const lines = writeLog(log);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(api, log, dir));
  const wall = median(runs.map((r) => r.ms));
  const rss = median(runs.map((r) => r.rssMb));
  console.log(`events reconcile --since … --json: ${CALLS} calls (${CALLS / 200} pages), ${lines}-line log, ${runs[0].expected} events expected, ${runs[0].gaps} missing`);
  const cpu = median(runs.map((r) => r.cpuMs));
  console.log(`  wall ${Math.round(wall)} ms (budget ${BUDGET.wallMs}), peak RSS ${rss.toFixed(0)} MB (budget ${BUDGET.rssMb}); CPU ${Math.round(cpu)} ms; runs: ${runs.map((r) => `${Math.round(r.ms)} ms/${r.rssMb.toFixed(0)} MB`).join(', ')}`);
  if (wall > BUDGET.wallMs || rss > BUDGET.rssMb) {
    console.log('  OVER BUDGET');
    process.exitCode = 1;
  }
} finally {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
}
