// `contacts validate` speed, whole process, as a user runs it:
//   10,000 rows: budget 0.4 s wall time;
//   1,000,000 rows: budget >= 100,000 rows/s with peak memory (RSS) under 150 MB.
// Generates realistic CSVs (Indian numbers in local and international formats, landlines,
// a few foreign numbers, ~1% bad rows, ~1% duplicates, extra columns) into a temp dir and
// runs the built CLI several times; prints medians. Run `npm run build` first (npm run bench does).
//   node bench/import.js [--runs N] [--big-rows N] [--against OTHER/bin/voicectl.js]
// --big-rows 0 measures the 10,000-row file only. CPU time (user + system, the process and
// its worker threads) is printed beside wall time: on a shared machine it moves less.
// --against runs another build (an earlier commit, say) on the same files, its runs
// interleaved with this build's, and prints both medians and their ratio.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN as bin, median, requireDist } from './lib.js';

requireDist();
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const RUNS = arg('--runs', 5);
const BIG = arg('--big-rows', 1_000_000);
const AGAINST = process.argv.includes('--against') ? process.argv[process.argv.indexOf('--against') + 1] : undefined;

/** Deterministic, so every run of the benchmark reads the same files. */
let seed = 12345;
const rand = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const digits = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 10);
  return s;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const CITIES = ['Mumbai', 'Delhi', 'Bengaluru', 'Chennai', 'Kolkata', 'Pune', 'Hyderabad', 'Jaipur', 'Kochi', 'Lucknow'];
const PLANS = ['Basic', 'Silver', 'Gold', 'Enterprise'];
const NAMES = ['Priya Sharma', 'Rahul Verma', 'Anjali Deshmukh', 'Arjun Nair', 'Lakshmi Iyer', 'Imran Qureshi', 'Sneha Banerjee', '"Mehta, Karan"'];

function phone(i, recent) {
  const r = rand();
  const mobile = pick(['98', '99', '97', '94', '93', '88', '87', '70', '63']) + digits(8);
  if (r < 0.01 && recent.length > 0) return pick(recent); // a duplicate of a recent row
  if (r < 0.02) return digits(5); // too short
  if (r < 0.42) return `${mobile.slice(0, 5)} ${mobile.slice(5)}`;
  if (r < 0.67) return `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`;
  if (r < 0.82) return `0${mobile.slice(0, 5)} ${mobile.slice(5)}`;
  if (r < 0.92) return `+91-${mobile.slice(0, 5)}-${mobile.slice(5)}`;
  if (r < 0.97) return `0 80 ${digits(4)} ${digits(4)}`; // Bengaluru landline
  return pick([`+44 20 7946 ${digits(4)}`, `+1 212 555 ${digits(4)}`, `+971 50 ${digits(3)} ${digits(4)}`]);
}

async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  let buf = 'name,phone,city,plan,customer_id\n';
  const recent = [];
  for (let i = 0; i < rows; i++) {
    const p = phone(i, recent);
    if (i % 97 === 0) recent.push(p);
    if (recent.length > 50) recent.shift();
    buf += `${pick(NAMES)},${p},${pick(CITIES)},${pick(PLANS)},${String(i).padStart(7, '0')}\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
      buf = '';
    }
  }
  await new Promise((resolve, reject) => out.end(buf, (err) => (err ? reject(err) : resolve())));
}

const hasGnuTime = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;

/** One run: wall time (ms), CPU time (ms, user + system), peak RSS (MB). */
function run(file, program = bin) {
  const args = [program, 'contacts', 'validate', file, '--json', '--default-country', 'IN'];
  const env = { ...process.env, FORCE_COLOR: '0', VOICECTL_CONFIG_DIR: dir };
  const t0 = process.hrtime.bigint();
  let r;
  let rssKb;
  let cpuMs;
  if (hasGnuTime) {
    r = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M cpu=%U+%S', process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
    rssKb = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1]);
    const cpu = /cpu=([\d.]+)\+([\d.]+)/.exec(r.stderr);
    cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN;
  } else {
    // Without GNU time: run the CLI in a wrapper that reports its own peak RSS on exit.
    const wrapper = `process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('maxrss=' + u.maxRSS + ' cpu=' + (u.userCPUTime + u.systemCPUTime) + '\\n'); }); process.argv.splice(1, 1); await import(${JSON.stringify(program)});`;
    r = spawnSync(process.execPath, ['--input-type=module', '-e', wrapper, 'x', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
    rssKb = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1]);
    cpuMs = Number(/cpu=(\d+)/.exec(r.stderr)?.[1]) / 1000;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 2) throw new Error(`voicectl exited ${r.status}: ${r.stderr}`);
  return { ms, cpuMs, rssMb: rssKb / 1024 };
}

/**
 * The two figures the issue gives for scale, measured on this machine: papaparse alone,
 * and a plain loop of parsePhoneNumberWithError(...).isValid() with the max metadata.
 */
async function calibrate(file) {
  const { readFileSync } = await import('node:fs');
  const { default: Papa } = await import('papaparse');
  const { parsePhoneNumberWithError } = await import('libphonenumber-js/max');
  const text = readFileSync(file, 'utf8');
  let t = performance.now();
  const rows = Papa.parse(text, { delimiter: ',' }).data;
  const papaRate = rows.length / ((performance.now() - t) / 1000);
  const phones = rows.slice(1, 100_001).map((r) => r[1] ?? '');
  t = performance.now();
  for (const p of phones) {
    try {
      parsePhoneNumberWithError(p, 'IN').isValid();
    } catch {
      // invalid numbers count too
    }
  }
  const loopRate = phones.length / ((performance.now() - t) / 1000);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  console.log(`for scale, on this machine: papaparse alone ${fmt(papaRate)} rows/s; plain libphonenumber-js max loop ${fmt(loopRate)} rows/s`);
}

const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-import-'));
try {
  const cases = [
    { rows: 10_000, runs: Math.max(RUNS, 7), budget: (m) => m.ms <= 400, label: 'budget 0.4 s' },
    { rows: BIG, runs: RUNS, budget: (m) => m.rate >= 100_000 && m.rssMb < 150, label: 'budget >= 100,000 rows/s, < 150 MB' },
  ].filter((c) => c.rows > 0);
  console.log(`contacts validate --json --default-country IN; ${hasGnuTime ? 'peak RSS from /usr/bin/time' : 'peak RSS from process.resourceUsage()'}`);
  for (const c of cases) {
    const file = join(dir, `contacts-${c.rows}.csv`);
    await writeCsv(file, c.rows);
    if (c.rows === BIG) await calibrate(file);
    run(file); // warm the page cache; not counted
    const results = [];
    const other = [];
    for (let i = 0; i < c.runs; i++) {
      results.push(run(file));
      if (AGAINST) other.push(run(file, AGAINST));
    }
    const ms = median(results.map((r) => r.ms));
    const rssMb = Math.max(...results.map((r) => r.rssMb));
    const rate = c.rows / (ms / 1000);
    const ok = c.budget({ ms, rate, rssMb });
    console.log(
      `${c.rows.toLocaleString('en-US').padStart(9)} rows: median ${(ms / 1000).toFixed(3)} s ` +
      `(min ${(Math.min(...results.map((r) => r.ms)) / 1000).toFixed(3)} s, ${c.runs} runs), ` +
      `${Math.round(rate).toLocaleString('en-US')} rows/s, CPU median ${(median(results.map((r) => r.cpuMs)) / 1000).toFixed(3)} s, peak RSS ${rssMb.toFixed(0)} MB  ` +
      `[${c.label}: ${ok ? 'ok' : 'OVER'}]`,
    );
    if (AGAINST) {
      const oms = median(other.map((r) => r.ms));
      console.log(
        `${''.padStart(9)}       against ${AGAINST}: median ${(oms / 1000).toFixed(3)} s, CPU median ${(median(other.map((r) => r.cpuMs)) / 1000).toFixed(3)} s, ` +
        `${Math.round(c.rows / (oms / 1000)).toLocaleString('en-US')} rows/s, peak RSS ${Math.max(...other.map((r) => r.rssMb)).toFixed(0)} MB; ` +
        `this build takes ${(ms / oms).toFixed(2)}x its time`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
