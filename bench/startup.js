// Start-up budgets, on every Node version found: median wall time of `voicectl --version`,
// `voicectl agent --help`, `voicectl agent list --json` and `voicectl api GET /agents` (against a loopback sandbox)
// beside `node -e 0` of the same binary, measured interleaved in one run.
// Node versions: this Node, and those that scripts/fetch-node.sh put in the cache folder
// (VOICECTL_NODE_CACHE, default ~/.cache/voicectl-node). BIN=path/to/voicectl.js measures
// another build with the same harness; BENCH_RUNS sets the number of runs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeBinaries } from '../scripts/node-binaries.js';
import { BIN, forkedSandbox, median } from './lib.js';

const bin = process.env.BIN ?? BIN;
const runs = Number(process.env.BENCH_RUNS ?? 30);
const env = { ...process.env };
// Both change what every start costs (a CA bundle read, extra flags) and neither is a user's default.
delete env.NODE_EXTRA_CA_CERTS;
delete env.NODE_OPTIONS;

// `api GET /agents` has the budget of `agent list --json`: the same request, spelled out (issue 28).
const BUDGETS = { '--version': 1.5, 'agent --help': 1.5, 'agent list --json': 3, 'api GET /agents': 3 };

function timed(node, args, e) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(node, args, { env: e, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${node} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** One Node binary: every case interleaved with `node -e 0`, so load affects all alike. */
export function benchNode(node, serviceEnv) {
  const cases = [
    ['node -e 0', ['-e', '0'], env],
    ['--version', [bin, '--version'], env],
    ['agent --help', [bin, 'agent', '--help'], env],
    ['agent list --json', [bin, 'agent', 'list', '--json'], serviceEnv],
    // BENCH_NO_API=1: for BIN= a build from before `voicectl api`.
    ...(process.env.BENCH_NO_API ? [] : [['api GET /agents', [bin, 'api', 'GET', '/agents'], serviceEnv]]),
  ];
  const times = cases.map(() => []);
  // Warm the file cache and the compile caches (Node 22.1+ keeps them in the temporary folder).
  for (let i = 0; i < 3; i++) for (const [, args, e] of cases) timed(node, args, e);
  for (let i = 0; i < runs; i++) cases.forEach(([, args, e], j) => times[j].push(timed(node, args, e)));
  const base = median(times[0]);
  return cases.map(([name], j) => {
    const ms = median(times[j]);
    const budget = BUDGETS[name];
    return { name, median_ms: +ms.toFixed(1), ratio: +(ms / base).toFixed(2), budget, ok: budget === undefined || ms / base <= budget };
  });
}

export async function benchStartup() {
  const sandbox = await forkedSandbox([1, 0]);
  const serviceEnv = {
    ...env,
    VOICECTL_BASE_URL: sandbox.url,
    VOICECTL_API_KEY: sandbox.apiKey,
    VOICECTL_CONFIG_DIR: fileURLToPath(new URL('./.out', import.meta.url)),
  };
  try {
    return nodeBinaries().map(({ path, version }) => ({ version, path, rows: benchNode(path, serviceEnv) }));
  } finally {
    sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchStartup();
  let over = 0;
  console.log(`start-up on each Node (${runs} interleaved runs, median; ratio to node -e 0 of the same binary):`);
  console.log(`  ${'node'.padEnd(10)} ${'command'.padEnd(20)} ${'ms'.padStart(7)}  ratio  budget`);
  for (const { version, rows } of results) {
    for (const r of rows) {
      if (!r.ok) over++;
      const budget = r.budget === undefined ? '' : `${r.budget}x ${r.ok ? 'OK' : 'OVER'}`;
      console.log(`  ${version.padEnd(10)} ${r.name.padEnd(20)} ${r.median_ms.toFixed(1).padStart(7)}  ${r.ratio.toFixed(2)}x  ${budget}`);
    }
  }
  if (results.length < 3) console.log('  (run scripts/fetch-node.sh to measure Node 22 and 24 as well)');
  console.log(over ? `  ${over} over budget` : '  all within budget');
}
