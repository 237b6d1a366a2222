// `voicectl call tail --json` with 1,000 calls in flight: the built binary in a child
// process against a loopback GET /calls that holds 10,000 calls finished in the last hour
// and then 1,000 dialed at once that end over about ten seconds. Reports requests per
// poll (the first poll, while the 1,000 run, once they have ended) and the child's CPU
// time per poll, and checks that each of the 1,000 is printed exactly once.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
const HISTORY = 10_000;
const IN_FLIGHT = 1_000;
const SPREAD_MS = 10_000;
const INTERVAL_S = 0.5;
const ROUNDS = Number(process.env.BENCH_TAIL_ROUNDS ?? 3);
const TICKS = 100; // USER_HZ: /proc/PID/stat counts CPU time in clock ticks of 1/100 s on Linux

function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function calls(now) {
  const list = [];
  for (let i = 0; i < HISTORY; i++) {
    const start = now - 3_600_000 + i * 300;
    list.push({ id: `call_h${i}`, start, end: start + 60_000 });
  }
  const t0 = now + 1_500;
  for (let i = 0; i < IN_FLIGHT; i++) list.push({ id: `call_f${i}`, start: t0 + i, end: t0 + 500 + Math.floor(((i * 7919) % IN_FLIGHT) / IN_FLIGHT * SPREAD_MS) });
  return list.sort((a, b) => a.start - b.start);
}

function view(c, now) {
  const done = now >= c.end;
  return {
    call_id: c.id, campaign_id: '5f0c6a52-8e1b-4f7e-9a43-2d7c1e9b8a10', agent_id: '0b7d2c1e-4a5f-4e8b-9c3d-6f1a2b3c4d5e', agent_name: 'Asha',
    direction: 'outbound', phone_number: `+9198${String(c.start % 1e8).padStart(8, '0')}`,
    status: done ? 'completed' : 'initiated', end_reason: done ? 'completed' : null, outcome: done ? 'requirements_gathered' : null,
    summary: done ? 'The caller asked for the fee structure and a callback after 6 pm.' : null, error: null,
    duration_seconds: done ? Math.round((c.end - c.start) / 1000) : null,
    start_time: new Date(c.start).toISOString(), end_time: done ? new Date(c.end).toISOString() : null, has_recording: false,
    contact: { name: 'Lead', extra: { city: 'Pune' } },
  };
}

async function round() {
  const list = calls(Date.now());
  const log = []; // [time, since]
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const now = Date.now();
    const since = Date.parse(u.searchParams.get('since') ?? '1970-01-01T00:00:00Z');
    const limit = Number(u.searchParams.get('limit') ?? 50);
    const offset = Number(u.searchParams.get('offset') ?? 0);
    log.push({ at: now, offset });
    const visible = list.filter((c) => c.start <= now && c.start >= since);
    const body = JSON.stringify({ calls: visible.slice(offset, offset + limit).map((c) => view(c, now)), total: visible.length, limit, offset });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const child = spawn(process.execPath, [bin, 'call', 'tail', '--json', '--interval', String(INTERVAL_S)], {
    env: { PATH: process.env.PATH, HOME: '/nonexistent', VOICECTL_BASE_URL: url, VOICECTL_API_KEY: 'sk_bench', CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  const lines = () => out.split('\n').filter(Boolean).length;
  // CPU while the 1,000 are in flight: sampled when they start and when the last has ended.
  let cpuStart;
  let cpuEnd;
  const t0 = list.find((c) => c.id.startsWith('call_f')).start;
  const tLast = Math.max(...list.filter((c) => c.id.startsWith('call_f')).map((c) => c.end));
  setTimeout(() => { cpuStart = cpuMs(child.pid); }, t0 - Date.now());
  setTimeout(() => { cpuEnd = cpuMs(child.pid); }, tLast - Date.now());
  const deadline = Date.now() + 60_000;
  while (lines() < IN_FLIGHT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // Past the ten-second overlap after the last start, then a few idle polls.
  await new Promise((r) => setTimeout(r, Math.max(0, t0 + 1_000 + 10_000 - Date.now()) + INTERVAL_S * 4000));
  const cpu = cpuMs(child.pid);
  child.kill('SIGINT');
  const code = await exited;
  server.close();
  const ids = out.split('\n').filter(Boolean).map((l) => JSON.parse(l).call_id);
  const unique = new Set(ids);
  const ok = ids.length === IN_FLIGHT && unique.size === IN_FLIGHT && [...unique].every((id) => id.startsWith('call_f')) && code === 130;
  // Polls: a request at offset 0 starts one.
  const polls = [];
  for (const r of log) (r.offset === 0 ? polls.push([r]) : polls.at(-1).push(r));
  const firstEnd = list.find((c) => c.id.startsWith('call_f')).start;
  const lastEnd = Math.max(...list.filter((c) => c.id.startsWith('call_f')).map((c) => c.end));
  const during = polls.slice(1).filter((p) => p[0].at >= firstEnd && p[0].at <= lastEnd).map((p) => p.length);
  const after = polls.filter((p) => p[0].at > Math.max(lastEnd, t0 + 1_000 + 10_000) + 600).map((p) => p.length);
  const inFlightPolls = polls.filter((p) => p[0].at >= t0 && p[0].at <= tLast).length;
  return { ok, steadyCpu: (cpuEnd - cpuStart) / inFlightPolls, first: polls[0].length, during: median(during), duringMax: Math.max(...during), after: after.length ? median(after) : NaN, polls: polls.length, cpuPerPoll: cpu / polls.length, cpu };
}

const results = [];
for (let i = 0; i < ROUNDS; i++) results.push(await round());
const bad = results.filter((r) => !r.ok).length;
console.log(`call tail --json, ${HISTORY.toLocaleString('en')} calls already finished in the last hour, then ${IN_FLIGHT.toLocaleString('en')} dialed at once ending over ${SPREAD_MS / 1000}s, polls every ${INTERVAL_S}s (median of ${ROUNDS}):`);
console.log(`  requests, first poll (reads the 2-hour lookback):   ${median(results.map((r) => r.first))}`);
console.log(`  requests per poll with calls in flight:           ${median(results.map((r) => r.during))} (max ${Math.max(...results.map((r) => r.duringMax))})`);
console.log(`  requests per poll once they have ended (idle):    ${median(results.map((r) => r.after))}`);
console.log(`  reading everything since the lookback each poll:  ${Math.ceil((HISTORY + IN_FLIGHT) / 200)} requests per poll`);
console.log(`  child CPU per poll while the 1,000 are in flight:  ${median(results.map((r) => r.steadyCpu)).toFixed(1)} ms`);
console.log(`  child CPU per poll (whole process incl. start):   ${median(results.map((r) => r.cpuPerPoll)).toFixed(1)} ms over ${median(results.map((r) => r.polls))} polls; total ${median(results.map((r) => r.cpu)).toFixed(0)} ms`);
console.log(`  every in-flight call printed exactly once, exit 130: ${bad === 0 ? 'yes' : `NO (${bad} of ${ROUNDS} rounds)`}`);
process.exitCode = bad ? 1 : 0;
