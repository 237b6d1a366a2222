// `campaign report` of a 10,000-contact campaign, whole process, against a sandbox in its
// own process on loopback: the summary as JSON (budget 2 s), the HTML page without
// transcripts (budget 1 s), and, for the record, the page with transcripts (one more
// request per connected call). Medians of interleaved runs. BENCH_TRANSCRIPTS=0 leaves
// the last one out.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGETS_MS = [2000, 1000];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const server = fork(fileURLToPath(new URL('./sandbox-server.js', import.meta.url)), ['1', '10000'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const { url, apiKey } = await new Promise((resolve, reject) => {
  server.once('message', resolve);
  server.once('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
});
const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-report-'));
const env = { ...process.env, VOICECTL_BASE_URL: url, VOICECTL_API_KEY: apiKey, VOICECTL_CONFIG_DIR: dir };
delete env.NODE_EXTRA_CA_CERTS;
try {
  const list = spawnSync(process.execPath, [BIN, 'campaign', 'list', '--json'], { env, encoding: 'utf8' });
  const id = JSON.parse(list.stdout)[0].id;
  const cases = [
    ['report --json', ['campaign', 'report', id, '--json']],
    ['report --html --no-transcripts', ['campaign', 'report', id, '--html', join(dir, 'r.html'), '--no-transcripts']],
    ['report --html (with transcripts)', ['campaign', 'report', id, '--html', join(dir, 't.html')]],
  ].filter((_, j) => j < 2 || process.env.BENCH_TRANSCRIPTS !== '0');
  const times = cases.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    cases.forEach(([, args], j) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      times[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  console.log(`campaign report, one 10,000-contact campaign, whole process, loopback, median of ${RUNS}:`);
  cases.forEach(([name], j) => {
    const ms = median(times[j]);
    const b = BUDGETS_MS[j];
    const budget = b ? `budget < ${b / 1000} s   ${ms < b ? 'OK' : 'OVER BUDGET'}` : '(no budget)';
    console.log(`  ${name.padEnd(34)} ${(ms / 1000).toFixed(2)} s   ${budget}`);
  });
  console.log(`  (load average: ${loadavg().map((l) => l.toFixed(1)).join(', ')})`);
} finally {
  server.send('close');
  rmSync(dir, { recursive: true, force: true });
}
