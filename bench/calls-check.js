// `calls check` budget (issue 25): 10,000 calls with transcripts on loopback, each read
// by its own GET /calls/{id}, checked against a rules file of every kind but the judge
// (a program started per call measures the program, not voicectl), by the built binary in
// a child process. Wall time under 20 s and peak RSS under 200 MB; the requests counted
// at the sandbox. Median of BENCH_CHECK_RUNS runs (default 3).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, median, seededSandbox, voicectlTimed } from './lib.js';

const CALLS = Number(process.env.BENCH_CHECK_CALLS ?? 10_000);
const RUNS = Number(process.env.BENCH_CHECK_RUNS ?? 3);
const BUDGET = { wallMs: 20_000, rssMb: 200 };

const RULES = `rules:
  - {id: disclosure, kind: first_agent_turn_matches, severity: error, pattern: "I am an AI assistant"}
  - {id: no-promises, kind: never_says, severity: error, role: agent, phrases: ["guaranteed returns"], patterns: ["100% (safe|sure)"]}
  - {id: opt-out, kind: opt_out_honoured, severity: error, pattern: "do not call|don't call", within_turns: 1, outcomes: [do_not_call]}
  - {id: long, kind: max_duration, severity: warn, seconds: 200}
  - {id: outcomes, kind: outcome_in, severity: warn, outcomes: [requirements_gathered, callback_scheduled], where: {status: [completed]}}
  - {id: script, kind: language, severity: error, language: en-IN}
  - {id: hours, kind: within_calling_hours, severity: error}
  - {id: dnc, kind: not_suppressed, severity: error, exclude: [dnc.txt]}
`;

async function checkOnce(sb, dir, campaigns) {
  const args = ['calls', 'check', '--rules', join(dir, 'rules.yaml'), '--campaign', ...campaigns, '--json', '--junit', join(dir, 'checks.xml')];
  // Exit 1 is a verdict (some calls break the rules), not a failure of the run.
  const r = await voicectlTimed(args, { env: cliEnv(sb, { configDir: dir }), peak: true, allowed: [0, 1] });
  return { ms: r.ms, rssMb: r.rssMb, checked: JSON.parse(r.out).calls };
}

export async function benchCheck() {
  const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-check-'));
  const sb = await seededSandbox(CALLS, { compress: false });
  try {
    let requests = 0;
    const push = sb.requests.push;
    sb.requests.push = function (...items) {
      requests += items.length;
      return push.apply(this, items);
    };
    writeFileSync(join(dir, 'rules.yaml'), RULES);
    writeFileSync(join(dir, 'dnc.txt'), '+919800000007\n+919800000042\n');
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const before = requests;
      runs.push({ ...(await checkOnce(sb, dir, sb.campaigns)), requests: requests - before });
    }
    const r = {
      calls: CALLS, runs: RUNS, checked: runs[0].checked, requests: runs[0].requests,
      wallMs: median(runs.map((x) => x.ms)), rssMb: Math.max(...runs.map((x) => x.rssMb)),
    };
    r.ok = r.wallMs < BUDGET.wallMs && r.rssMb < BUDGET.rssMb;
    return r;
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchCheck();
  console.log(`calls check, ${r.calls.toLocaleString('en-US')} calls with transcripts (${r.checked.toLocaleString('en-US')} finished), 8 rule kinds, median of ${r.runs}:`);
  console.log(`  wall ${(r.wallMs / 1000).toFixed(2)} s (budget ${BUDGET.wallMs / 1000} s), peak RSS ${r.rssMb.toFixed(0)} MB (budget ${BUDGET.rssMb} MB), ${r.requests.toLocaleString('en-US')} requests`);
  console.log(r.ok ? 'within budget' : 'OVER BUDGET');
  process.exitCode = r.ok ? 0 : 1;
}
