// The call warehouse budget (issue 40): 1,000,000 calls from an in-process sandbox on
// loopback, exported to a Parquet folder by the built binary in a child process, in at
// most 60 s and 500 MB peak RSS; then the funnel query over that folder in at most 0.5 s.
// The query's own time is the whole `sql --query funnel` process less the same process
// answering `SELECT 1` (start-up, loading DuckDB, opening the folder); both are reported.
// A third part compares Parquet writers on the same calls (the choice of hyparquet-writer).
//
// BENCH_WAREHOUSE_CALLS (default 1,000,000), BENCH_WAREHOUSE_RUNS (default 3),
// BENCH_WAREHOUSE_SECTIONS=export,query,writers (default all). BENCH_WAREHOUSE_DIR=FOLDER: the
// query section over a folder an earlier export wrote (no sandbox, no export; a million-call
// export takes many minutes on a loaded machine).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedCalls, startSandbox } from '../dist/sandbox/index.js';

const bin = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
const CALLS = Number(process.env.BENCH_WAREHOUSE_CALLS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_WAREHOUSE_RUNS ?? 3);
const SECTIONS = new Set((process.env.BENCH_WAREHOUSE_SECTIONS ?? 'export,query,writers').split(',').map((s) => s.trim()));
const BUDGET = { exportMs: 60_000, rssMb: 500, queryMs: 500 };
const PEAK = "data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nPEAK_RSS_KB='+u.maxRSS+' CPU_US='+(u.userCPUTime+u.systemCPUTime)+'\\n')})";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const verdict = (ok) => (ok ? 'OK' : 'OVER BUDGET');

function voicectl(sb, args) {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '', HOME: tmpdir(), CI: 'true', FORCE_COLOR: '0', TZ: 'UTC', VOICECTL_BASE_URL: sb?.url ?? 'http://127.0.0.1:9', VOICECTL_API_KEY: sb?.apiKey ?? 'x', VOICECTL_CONFIG_DIR: tmpdir() };
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK, bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`voicectl ${args.join(' ')} exited ${code}: ${err}`));
      resolve({ ms, out, rssMb: Number(/PEAK_RSS_KB=(\d+)/.exec(err)?.[1] ?? NaN) / 1024, cpuMs: Number(/CPU_US=(\d+)/.exec(err)?.[1] ?? NaN) / 1000 });
    });
  });
}

function folderBytes(dir) {
  let bytes = 0;
  let files = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    if (!String(name).endsWith('.parquet')) continue;
    bytes += statSync(join(dir, String(name))).size;
    files++;
  }
  return { bytes, files };
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'voicectl-bench-warehouse-'));
  let ok = true;
  let sb;
  try {
    const folder = process.env.BENCH_WAREHOUSE_DIR ?? join(root, 'w0');
    if (SECTIONS.has('export') && !process.env.BENCH_WAREHOUSE_DIR) {
      const t0 = performance.now();
      sb = await startSandbox({ port: 0, seed: 5 });
      seedCalls(sb.world, sb.world.keys.get(sb.apiKey).org, CALLS);
      console.log(`sandbox seeded with ${CALLS.toLocaleString('en-US')} calls over 30 days in ${((performance.now() - t0) / 1000).toFixed(1)} s (load average ${loadavg()[0].toFixed(1)})`);
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const dir = join(root, `w${i}`);
        const r = await voicectl(sb, ['call', 'export', '--format', 'parquet', '--out', dir]);
        runs.push({ ...r, ...folderBytes(dir) });
        console.log(`  run ${i + 1}: ${(r.ms / 1000).toFixed(1)} s, peak ${r.rssMb.toFixed(0)} MB, CPU ${(r.cpuMs / 1000).toFixed(1)} s (load average ${loadavg()[0].toFixed(1)})`);
        if (i > 0) rmSync(dir, { recursive: true, force: true });
      }
      const again = await voicectl(sb, ['call', 'export', '--format', 'parquet', '--out', folder]);
      const ms = median(runs.map((r) => r.ms));
      const rss = Math.max(...runs.map((r) => r.rssMb));
      console.log(`call export --format parquet, ${CALLS.toLocaleString('en-US')} calls, loopback, median of ${RUNS}:`);
      console.log(`  whole process   ${(ms / 1000).toFixed(1)} s    budget <= ${BUDGET.exportMs / 1000} s   ${verdict(ms <= BUDGET.exportMs)}`);
      console.log(`  CPU time        ${(median(runs.map((r) => r.cpuMs)) / 1000).toFixed(1)} s`);
      console.log(`  peak RSS        ${rss.toFixed(0)} MB (highest)   budget <= ${BUDGET.rssMb} MB   ${verdict(rss <= BUDGET.rssMb)}`);
      console.log(`  folder          ${(runs[0].bytes / 1024 / 1024).toFixed(1)} MB in ${runs[0].files} files`);
      console.log(`  rerun into the full folder (reads its ${CALLS.toLocaleString('en-US')} call_ids, writes nothing): ${(again.ms / 1000).toFixed(1)} s, peak ${again.rssMb.toFixed(0)} MB`);
      ok &&= ms <= BUDGET.exportMs && rss <= BUDGET.rssMb;
    }
    await sb?.close();
    sb = undefined;
    if (SECTIONS.has('query')) {
      if (!SECTIONS.has('export') || process.env.BENCH_WAREHOUSE_DIR) await voicectl(null, ['--version']);
      const funnel = [];
      const base = [];
      const cpu = [];
      await voicectl(null, ['sql', '--query', 'funnel', '--dir', folder, '--json']); // warm the file cache
      for (let i = 0; i < Math.max(RUNS, 5); i++) {
        const f = await voicectl(null, ['sql', '--query', 'funnel', '--dir', folder, '--json']);
        const b = await voicectl(null, ['sql', 'SELECT 1', '--dir', folder, '--json']);
        funnel.push(f.ms);
        base.push(b.ms);
        cpu.push(f.cpuMs - b.cpuMs);
      }
      const query = median(funnel) - median(base);
      console.log(`voicectl sql --query funnel over ${CALLS.toLocaleString('en-US')} calls, interleaved with SELECT 1, median of ${funnel.length}:`);
      console.log(`  whole process   ${(median(funnel) / 1000).toFixed(2)} s   (SELECT 1: ${(median(base) / 1000).toFixed(2)} s: start-up, DuckDB, the folder's view)`);
      console.log(`  the query       ${(query / 1000).toFixed(2)} s    budget <= ${BUDGET.queryMs / 1000} s   ${verdict(query <= BUDGET.queryMs)}`);
      console.log(`  its CPU time    ${(median(cpu) / 1000).toFixed(2)} s (all DuckDB's threads; informational: less sensitive to load)`);
      ok &&= query <= BUDGET.queryMs;
    }
    if (SECTIONS.has('writers')) await writers(root);
  } finally {
    await sb?.close();
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`  (load average during the run: ${loadavg().map((l) => l.toFixed(1)).join(', ')}; timings need an otherwise idle machine)`);
  process.exitCode = ok ? 0 : 1;
}

/**
 * The writers compared on the same 100,000 calls (as GET /calls lists them), in this
 * process: hyparquet-writer (pure JavaScript, what the export uses), and DuckDB, the
 * alternative that would make the export need the optional native module, twice: its
 * appender fed value by value then COPY, and read_json over the calls as JSON lines then COPY.
 */
async function writers(root) {
  const N = 100_000;
  const sb = await startSandbox({ port: 0, seed: 5 });
  seedCalls(sb.world, sb.world.keys.get(sb.apiKey).org, N);
  const calls = [];
  for (let offset = 0; offset < N; offset += 200) {
    const res = await fetch(`${sb.url}/calls?limit=200&offset=${offset}`, { headers: { 'x-api-key': sb.apiKey } });
    calls.push(...(await res.json()).calls);
  }
  await sb.close();
  const { ByteWriter, parquetWrite } = await import('hyparquet-writer');
  const duckdb = await import('@duckdb/node-api');
  const text = ['call_id', 'campaign_id', 'agent_id', 'agent_name', 'direction', 'phone_number', 'status', 'end_reason', 'outcome', 'summary', 'error'];
  const hyparquet = () => {
    const cols = [
      ...text.map((n) => ({ el: { name: n, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }, data: calls.map((c) => c[n] ?? null) })),
      { el: { name: 'duration_seconds', type: 'INT32', repetition_type: 'OPTIONAL' }, data: calls.map((c) => (typeof c.duration_seconds === 'number' ? Math.round(c.duration_seconds) : null)) },
      ...['start_time', 'end_time'].map((n) => ({ el: { name: n, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }, repetition_type: 'OPTIONAL' }, data: calls.map((c) => (c[n] ? new Date(c[n]) : null)) })),
      { el: { name: 'has_recording', type: 'BOOLEAN', repetition_type: 'OPTIONAL' }, data: calls.map((c) => c.has_recording ?? null) },
      { el: { name: 'contact_name', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }, data: calls.map((c) => c.contact?.name ?? null) },
      { el: { name: 'extra', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }, data: calls.map((c) => (c.contact?.extra == null ? null : JSON.stringify(c.contact.extra))) },
    ];
    const w = new ByteWriter();
    parquetWrite({ writer: w, schema: [{ name: 'calls', num_children: cols.length }, ...cols.map((c) => c.el)], columnData: cols.map((c) => ({ name: c.el.name, data: c.data })), rowGroupSize: 100_000 });
    const file = join(root, 'hyparquet.parquet');
    writeFileSync(file, new Uint8Array(w.getBuffer()));
    return statSync(file).size;
  };
  const ddl = `CREATE TABLE calls (${text.map((n) => `${n} VARCHAR`).join(', ')}, duration_seconds INTEGER, start_time TIMESTAMPTZ, end_time TIMESTAMPTZ, has_recording BOOLEAN, contact_name VARCHAR, extra VARCHAR)`;
  const appender = async () => {
    const db = await duckdb.DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run(ddl);
    const a = await c.createAppender('calls');
    const ts = (v) => (v ? a.appendTimestampTZ(new duckdb.DuckDBTimestampTZValue(BigInt(Date.parse(v)) * 1000n)) : a.appendNull());
    const str = (v) => (v == null ? a.appendNull() : a.appendVarchar(String(v)));
    for (const call of calls) {
      for (const n of text) str(call[n]);
      if (typeof call.duration_seconds === 'number') a.appendInteger(Math.round(call.duration_seconds));
      else a.appendNull();
      ts(call.start_time);
      ts(call.end_time);
      if (typeof call.has_recording === 'boolean') a.appendBoolean(call.has_recording);
      else a.appendNull();
      str(call.contact?.name);
      str(call.contact?.extra == null ? null : JSON.stringify(call.contact.extra));
      a.endRow();
    }
    a.closeSync();
    const file = join(root, 'duckdb-appender.parquet');
    await c.run(`COPY calls TO '${file}' (FORMAT parquet)`);
    c.closeSync();
    return statSync(file).size;
  };
  const fromJson = async () => {
    const jsonl = join(root, 'calls.jsonl');
    writeFileSync(jsonl, calls.map((c) => JSON.stringify(c)).join('\n'));
    const db = await duckdb.DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const file = join(root, 'duckdb-json.parquet');
    await c.run(`COPY (SELECT ${text.join(', ')}, round(duration_seconds)::INTEGER AS duration_seconds, start_time::TIMESTAMPTZ AS start_time, end_time::TIMESTAMPTZ AS end_time, has_recording, contact.name AS contact_name, to_json(contact.extra)::VARCHAR AS extra FROM read_json('${jsonl}', format = 'newline_delimited')) TO '${file}' (FORMAT parquet)`);
    c.closeSync();
    return statSync(file).size;
  };
  const results = { 'hyparquet-writer (pure JS)': [], 'DuckDB appender + COPY': [], 'DuckDB read_json + COPY': [] };
  let sizes = {};
  for (let i = 0; i < RUNS; i++) {
    for (const [name, f] of [['hyparquet-writer (pure JS)', hyparquet], ['DuckDB appender + COPY', appender], ['DuckDB read_json + COPY', fromJson]]) {
      const t0 = performance.now();
      const bytes = await f();
      results[name].push(performance.now() - t0);
      sizes[name] = bytes;
    }
  }
  console.log(`Parquet writers, the same ${N.toLocaleString('en-US')} calls in memory, interleaved, median of ${RUNS}:`);
  for (const [name, ms] of Object.entries(results)) console.log(`  ${name.padEnd(28)} ${(median(ms) / 1000).toFixed(2)} s   ${(sizes[name] / 1024 / 1024).toFixed(1)} MB`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
