// --jq budget (issue 36): `call list --all --jq '.[].call_id'` over 10,000 calls within
// 1.5x of `call list --all --json | jq -r '.[].call_id'`, run side by side (interleaved)
// against one in-process sandbox, compared by median; both print the same ids. The
// system's jq is used when there is one (apt-get install jq); without it the comparison
// is skipped and said so. Then the time at 2,500, 5,000 and 10,000 calls, to show it grows
// with the input and not its square. Then Ctrl-C: SIGINT to a filter that never ends
// (`def f: f; f`, `[range(1e9)]`) once it runs, and the time until the process is gone:
// under 1 s.
//
// BENCH_JQ_CALLS (default 10000) and BENCH_JQ_RUNS (default 5) change the sizes.
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { BIN as bin, cliEnv, median, seededSandbox } from './lib.js';

const CALLS = Number(process.env.BENCH_JQ_CALLS ?? 10_000);
const RUNS = Number(process.env.BENCH_JQ_RUNS ?? 5);
const BUDGET = { ratio: 1.5, sigintMs: 1000 };

/** A shell command line, timed from spawn to exit; its stdout. */
function timed(command, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => { err += c; });
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${command} exited ${code}: ${err}`));
      resolve({ ms, out: Buffer.concat(out).toString('utf8') });
    });
  });
}

const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;

/** SIGINT once the filter runs (its debug line is on stderr); ms from the signal to the exit. */
function interrupted(sb, program) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'api', 'GET', '/agents', '--jq', `(1 | debug | empty), (${program})`], { env: cliEnv(sb), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    let t0;
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stderr.on('data', (c) => {
      err += c;
      if (t0 === undefined && err.includes('DEBUG')) {
        t0 = performance.now();
        child.kill('SIGINT');
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      if (t0 === undefined) return reject(new Error(`${program}: exited ${code ?? signal} before it ran: ${err}`));
      resolve({ ms: performance.now() - t0, code });
    });
  });
}

const jqVersion = spawnSync('jq', ['--version'], { encoding: 'utf8' });
const systemJq = jqVersion.status === 0 ? jqVersion.stdout.trim() : undefined;

const sb = await seededSandbox(CALLS);
const env = cliEnv(sb);
const ours = `node ${quote(bin)} call list --all --jq '.[].call_id'`;
const piped = `node ${quote(bin)} call list --all --json | jq -r '.[].call_id'`;
const r = { calls: CALLS, runs: RUNS, systemJq: systemJq ?? 'none', load: loadavg()[0].toFixed(1), ok: true };
try {
  await timed(ours, env); // warm the file cache and the sandbox
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    const x = await timed(ours, env);
    a.push(x.ms);
    if (systemJq) {
      const y = await timed(piped, env);
      b.push(y.ms);
      if (x.out !== y.out) throw new Error('--jq and | jq -r printed different ids');
    }
    if (i === 0 && x.out.split('\n').length - 1 !== CALLS) throw new Error(`--jq printed ${x.out.split('\n').length - 1} ids, not ${CALLS}`);
  }
  r.jqMs = Math.round(median(a));
  if (systemJq) {
    r.pipedMs = Math.round(median(b));
    r.ratio = Number((r.jqMs / r.pipedMs).toFixed(2));
    r.ok &&= r.ratio <= BUDGET.ratio;
  } else {
    console.log('no jq on this machine (apt-get install jq): the comparison with | jq -r is skipped');
  }

  // Growth with the input: medians of three at a quarter, a half and the whole.
  const sizes = [Math.round(CALLS / 4), Math.round(CALLS / 2), CALLS];
  r.bySize = {};
  for (const n of sizes) {
    const own = n === CALLS ? sb : await seededSandbox(n);
    const xs = [];
    for (let i = 0; i < 3; i++) xs.push((await timed(ours, cliEnv(own))).ms);
    if (own !== sb) await own.close();
    r.bySize[n] = Math.round(median(xs));
  }

  for (const [name, program] of [['sigintMs', 'def f: f; f'], ['sigintRangeMs', '[range(1e9)]']]) {
    const xs = [];
    for (let i = 0; i < RUNS; i++) {
      const s = await interrupted(sb, program);
      if (s.code !== 130) throw new Error(`${program}: exit ${s.code} after SIGINT, not 130`);
      xs.push(s.ms);
    }
    r[name] = Math.round(median(xs));
    r[`${name}Max`] = Math.round(Math.max(...xs));
    r.ok &&= r[`${name}Max`] < BUDGET.sigintMs;
  }
} finally {
  await sb.close();
}
console.log(JSON.stringify(r, null, 2));
console.log(r.ok ? 'within budget' : 'OVER BUDGET');
process.exitCode = r.ok ? 0 : 1;
