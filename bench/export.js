// `call export` budget (issue 5): 100,000 calls from an in-process sandbox on loopback,
// exported to CSV by the built binary in a child process. Whole-process wall time under
// 4 s and peak RSS under 150 MB; then, against a sandbox answering with 20 ms latency,
// the concurrent export at least 3x faster than --concurrency 1, run side by side
// (interleaved) and compared by median. Then (issue 11) the same 100,000 calls to an
// xlsx workbook beside CSV, interleaved: peak RSS under 200 MB.
//
// Then (issue 13) the same export with the sandbox compressing its answers (gzip, as a
// real service does) and not, interleaved.
//
// BENCH_EXPORT_SECTIONS=csv,latency,xlsx,compression picks sections (default: all four).
import { request } from 'node:http';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, loadText, median, seededSandbox, verdict, voicectlTimed } from './lib.js';

const CALLS = Number(process.env.BENCH_EXPORT_CALLS ?? 100_000);
const LATENCY_CALLS = Number(process.env.BENCH_EXPORT_LATENCY_CALLS ?? CALLS);
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 3);
const BUDGET = { wallMs: 4000, rssMb: 150, speedup: 3, xlsxRssMb: 200 };
const SECTIONS = new Set((process.env.BENCH_EXPORT_SECTIONS ?? 'csv,latency,xlsx,compression').split(',').map((s) => s.trim()));

// Uncompressed unless asked, so the budget rows stay comparable with earlier runs; the
// compression section measures both.
const seeded = (n, latencyMs, compress = false) => seededSandbox(n, { latencyMs, compress });

/** One export in a child process: wall time from spawn to exit, the child's peak RSS. */
async function exportOnce(sb, out, extra = [], format = 'csv') {
  const r = await voicectlTimed(['call', 'export', '--format', format, '--out', out, ...extra], { env: cliEnv(sb), peak: true, out: 'ignore' });
  return { ms: r.ms, rssMb: r.rssMb, cpuMs: r.cpuMs, bytes: statSync(out).size };
}

export async function benchExport() {
  const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-export-'));
  try {
    const out = join(dir, 'calls.csv');
    const r = { calls: CALLS, runs: RUNS, latencyCalls: LATENCY_CALLS, ok: true };
    if (SECTIONS.has('csv')) {
      const sb = await seeded(CALLS, 0);
      await exportOnce(sb, out); // warm the file cache and the sandbox's JSON cache
      const plain = [];
      for (let i = 0; i < RUNS; i++) plain.push(await exportOnce(sb, out));
      await sb.close();
      Object.assign(r, {
        wallMs: median(plain.map((x) => x.ms)), rssMb: Math.max(...plain.map((x) => x.rssMb)),
        cpuMs: median(plain.map((x) => x.cpuMs)), csvMb: plain[0].bytes / 1024 / 1024,
      });
      r.ok &&= r.wallMs < BUDGET.wallMs && r.rssMb < BUDGET.rssMb;
    }
    if (SECTIONS.has('latency')) {
      const sb = await seeded(LATENCY_CALLS, 20);
      const conc = [];
      const serial = [];
      for (let i = 0; i < RUNS; i++) {
        conc.push(await exportOnce(sb, out));
        serial.push(await exportOnce(sb, out, ['--concurrency', '1']));
      }
      await sb.close();
      Object.assign(r, { concMs: median(conc.map((x) => x.ms)), serialMs: median(serial.map((x) => x.ms)) });
      r.speedup = r.serialMs / r.concMs;
      r.ok &&= r.speedup >= BUDGET.speedup;
    }
    if (SECTIONS.has('xlsx')) r.xlsx = await benchXlsx(dir);
    if (r.xlsx) r.ok &&= r.xlsx.xlsxRssMb < BUDGET.xlsxRssMb;
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CSV and xlsx of the same calls, interleaved run by run: medians of time, the highest peak RSS. */
async function benchXlsx(dir) {
  const sb = await seeded(CALLS, 0);
  try {
    const csvOut = join(dir, 'calls.csv');
    const xlsxOut = join(dir, 'calls.xlsx');
    await exportOnce(sb, csvOut);
    await exportOnce(sb, xlsxOut, [], 'xlsx');
    const csv = [];
    const xlsx = [];
    for (let i = 0; i < RUNS; i++) {
      csv.push(await exportOnce(sb, csvOut));
      xlsx.push(await exportOnce(sb, xlsxOut, [], 'xlsx'));
    }
    return {
      csvMs: median(csv.map((x) => x.ms)), csvRssMb: Math.max(...csv.map((x) => x.rssMb)), csvMb: csv[0].bytes / 1024 / 1024,
      xlsxMs: median(xlsx.map((x) => x.ms)), xlsxRssMb: Math.max(...xlsx.map((x) => x.rssMb)), xlsxCpuMs: median(xlsx.map((x) => x.cpuMs)),
      xlsxMb: xlsx[0].bytes / 1024 / 1024, rssRuns: xlsx.map((x) => Math.round(x.rssMb)),
    };
  } finally {
    await sb.close();
  }
}

/** Bytes of one 200-call page on the wire, as sent to a client that accepts gzip and br, and to one that does not. */
function pageBytes(sb, acceptEncoding) {
  return new Promise((resolve, reject) => {
    const headers = { 'x-api-key': sb.apiKey, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
    request(`${sb.url}/calls?limit=200&offset=200`, { headers }, (res) => {
      let n = 0;
      res.on('data', (c) => { n += c.length; });
      res.on('end', () => resolve(n));
    }).on('error', reject).end();
  });
}

/** The export with the sandbox compressing (gzip) and not: time, peak RSS and CPU of the client, interleaved. */
export async function benchCompression() {
  const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-gzip-'));
  const on = await seeded(CALLS, 0, true);
  const off = await seeded(CALLS, 0, false);
  try {
    const out = join(dir, 'calls.csv');
    await exportOnce(on, out);
    await exportOnce(off, out);
    const gz = [];
    const plain = [];
    for (let i = 0; i < RUNS; i++) {
      gz.push(await exportOnce(on, out));
      plain.push(await exportOnce(off, out));
    }
    const pick = (rs) => ({ ms: median(rs.map((r) => r.ms)), rssMb: Math.max(...rs.map((r) => r.rssMb)), cpuMs: median(rs.map((r) => r.cpuMs)) });
    return {
      calls: CALLS, runs: RUNS, on: pick(gz), off: pick(plain),
      pagePlain: await pageBytes(off, 'gzip, br'), pageGzip: await pageBytes(on, 'gzip, br'),
    };
  } finally {
    await on.close();
    await off.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printCompression(c) {
  const row = (name, r) => `  ${name.padEnd(24)}${(r.ms / 1000).toFixed(2)} s   peak RSS ${r.rssMb.toFixed(0)} MB   client CPU ${(r.cpuMs / 1000).toFixed(2)} s`;
  console.log(`call export, ${c.calls.toLocaleString('en-US')} calls to CSV, sandbox compressing or not, interleaved, median of ${c.runs}:`);
  console.log(row('gzip (Accept-Encoding)', c.on));
  console.log(row('uncompressed', c.off));
  console.log(`  ratio                   ${(c.on.ms / c.off.ms).toFixed(2)}x time, ${(c.on.rssMb / c.off.rssMb).toFixed(2)}x peak RSS`);
  console.log(`  one 200-call page       ${(c.pagePlain / 1024).toFixed(0)} KB plain, ${(c.pageGzip / 1024).toFixed(0)} KB gzip (${(c.pagePlain / c.pageGzip).toFixed(1)}x smaller on the wire)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchExport();
  if (r.wallMs !== undefined) {
    console.log(`call export, ${r.calls.toLocaleString('en-US')} calls to CSV (${r.csvMb.toFixed(1)} MB), loopback, median of ${r.runs}:`);
    console.log(`  whole process   ${(r.wallMs / 1000).toFixed(2)} s    budget < ${BUDGET.wallMs / 1000} s    ${verdict(r.wallMs < BUDGET.wallMs)}`);
    console.log(`  CPU time        ${(r.cpuMs / 1000).toFixed(2)} s    (client user+sys, informational: less sensitive to load)`);
    console.log(`  peak RSS        ${r.rssMb.toFixed(0)} MB     budget < ${BUDGET.rssMb} MB   ${verdict(r.rssMb < BUDGET.rssMb)}`);
  }
  if (r.speedup !== undefined) {
    console.log(`with --latency 20, ${r.latencyCalls.toLocaleString('en-US')} calls, interleaved, median of ${r.runs}:`);
    console.log(`  concurrent (default)  ${(r.concMs / 1000).toFixed(2)} s`);
    console.log(`  --concurrency 1       ${(r.serialMs / 1000).toFixed(2)} s`);
    console.log(`  speed-up              ${r.speedup.toFixed(1)}x   budget >= ${BUDGET.speedup}x   ${verdict(r.speedup >= BUDGET.speedup)}`);
  }
  if (r.xlsx) {
    const x = r.xlsx;
    console.log(`call export, ${r.calls.toLocaleString('en-US')} calls, xlsx beside CSV, interleaved, median of ${r.runs}:`);
    console.log(`  CSV   ${(x.csvMs / 1000).toFixed(2)} s   peak ${x.csvRssMb.toFixed(0)} MB   ${x.csvMb.toFixed(1)} MB file`);
    console.log(`  xlsx  ${(x.xlsxMs / 1000).toFixed(2)} s   peak ${x.xlsxRssMb.toFixed(0)} MB   ${x.xlsxMb.toFixed(1)} MB file   (${(x.xlsxMs / x.csvMs).toFixed(1)}x CSV's time; CPU ${(x.xlsxCpuMs / 1000).toFixed(2)} s; peaks ${x.rssRuns.join(', ')} MB)`);
    console.log(`  xlsx peak RSS budget < ${BUDGET.xlsxRssMb} MB   ${verdict(x.xlsxRssMb < BUDGET.xlsxRssMb)}`);
  }
  if (SECTIONS.has('compression')) printCompression(await benchCompression());
  console.log(`  (load average during the run: ${loadText()}; timings need an otherwise idle machine)`);
  process.exitCode = r.ok ? 0 : 1;
}
