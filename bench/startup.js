// Start-up budget: median wall time of `voicectl --version` and `voicectl agent --help`
// against `node -e 0`, measured side by side (interleaved) in one run. BIN=path/to/voicectl.js
// measures another build (an older commit's, say) with the same harness.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = process.env.BIN ?? fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
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

/**
 * No budget, for the record: a whole command that reads from the service (a sandbox in
 * its own process), since that is what most runs of voicectl are.
 */
export async function benchServiceCommand(count = Math.max(10, runs >> 1)) {
  const { fork } = await import('node:child_process');
  const server = fork(fileURLToPath(new URL('./sandbox-server.js', import.meta.url)), ['1', '0'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { url, apiKey } = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
  });
  const serviceEnv = { ...env, VOICECTL_BASE_URL: url, VOICECTL_API_KEY: apiKey, VOICECTL_CONFIG_DIR: fileURLToPath(new URL('./.out', import.meta.url)) };
  const list = [bin, 'agent', 'list', '--json'];
  const timed = (args, e) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env: e, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const base = [];
  const cmd = [];
  try {
    for (let i = 0; i < 2; i++) timed(list, serviceEnv);
    for (let i = 0; i < count; i++) {
      base.push(timed(['-e', '0'], env));
      cmd.push(timed(list, serviceEnv));
    }
  } finally {
    server.send('close');
  }
  return { runs: count, base: median(base), command: median(cmd) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = benchStartup();
  console.log(`start-up (${r.runs} interleaved runs, median):`);
  for (const row of r.rows) console.log(`  ${row.name.padEnd(24)} ${String(row.median_ms).padStart(7)} ms  ${row.ratio.toFixed(2)}x`);
  console.log(`  budget: within ${r.budget}x of node -e 0 -> ${r.ok ? 'OK' : 'OVER BUDGET'}`);
  const s = await benchServiceCommand();
  console.log(`a command that reads from the service (${s.runs} interleaved runs, median; no budget):`);
  console.log(`  node -e 0                ${s.base.toFixed(1).padStart(7)} ms`);
  console.log(`  voicectl agent list --json ${s.command.toFixed(1).padStart(5)} ms  (sandbox in another process, loopback)`);
}
