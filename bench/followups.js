// `campaign followups` over a 10,000-contact campaign, whole process, against a sandbox in
// its own process on loopback: the follow-ups as JSON, as .xlsx and as .csv. A callback
// whose summary names no readable time costs one more request (its transcript). Medians.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const server = fork(fileURLToPath(new URL('./sandbox-server.js', import.meta.url)), ['1', '10000'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const { url, apiKey } = await new Promise((resolve, reject) => {
  server.once('message', resolve);
  server.once('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
});
const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-followups-'));
const env = { ...process.env, VOICECTL_BASE_URL: url, VOICECTL_API_KEY: apiKey, VOICECTL_CONFIG_DIR: dir };
delete env.NODE_EXTRA_CA_CERTS;
try {
  const list = spawnSync(process.execPath, [BIN, 'campaign', 'list', '--json'], { env, encoding: 'utf8' });
  const id = JSON.parse(list.stdout)[0].id;
  const cases = [
    ['followups --json', ['campaign', 'followups', id, '--json']],
    ['followups --out f.xlsx', ['campaign', 'followups', id, '--out', join(dir, 'f.xlsx')]],
    ['followups --out f.csv', ['campaign', 'followups', id, '--out', join(dir, 'f.csv')]],
  ];
  const times = cases.map(() => []);
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    cases.forEach(([, args], j) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      times[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (j === 0) rows = JSON.parse(r.stdout).length;
    });
  }
  console.log(`campaign followups, one 10,000-contact campaign (${rows} follow-ups), whole process, loopback, median of ${RUNS}:`);
  cases.forEach(([name], j) => console.log(`  ${name.padEnd(26)} ${(median(times[j]) / 1000).toFixed(2)} s`));
  console.log(`  (load average: ${loadavg().map((l) => l.toFixed(1)).join(', ')})`);
} finally {
  server.send('close');
  rmSync(dir, { recursive: true, force: true });
}
