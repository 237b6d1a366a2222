// Start-up budget: median wall time of `voicectl --version` and `voicectl agent --help`
// against `node -e 0`, measured side by side (interleaved) in one run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 40);
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
delete env.NODE_OPTIONS;

const cases = [
  ['node -e 0', ['-e', '0']],
  ['voicectl --version', [bin, '--version']],
  ['voicectl agent --help', [bin, 'agent', '--help']],
];

function once(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function benchStartup() {
  const times = cases.map(() => []);
  for (let i = 0; i < 3; i++) cases.forEach(([, a]) => once(a)); // warm the file cache
  for (let i = 0; i < runs; i++) cases.forEach(([, a], j) => times[j].push(once(a)));
  const base = median(times[0]);
  const rows = cases.map(([name], j) => ({ name, median_ms: +median(times[j]).toFixed(1), ratio: +(median(times[j]) / base).toFixed(2) }));
  return { runs, rows, budget: 1.5, ok: rows.slice(1).every((r) => r.ratio <= 1.5) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = benchStartup();
  console.log(`start-up (${r.runs} interleaved runs, median):`);
  for (const row of r.rows) console.log(`  ${row.name.padEnd(24)} ${String(row.median_ms).padStart(7)} ms  ${row.ratio.toFixed(2)}x`);
  console.log(`  budget: within ${r.budget}x of node -e 0 -> ${r.ok ? 'OK' : 'OVER BUDGET'}`);
}
