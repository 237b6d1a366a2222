// `campaign report` of a 10,000-contact campaign, whole process, against a sandbox in its
// own process on loopback: the summary as JSON (budget 2 s), the HTML page without
// transcripts (budget 1 s), and, for the record, the page with transcripts (one more
// request per connected call). Medians of interleaved runs. BENCH_TRANSCRIPTS=0 leaves
// the last one out.
import { join } from 'node:path';
import { finishedCampaign, timeCases } from './finished-campaign.js';
import { loadText, median } from './lib.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGETS_MS = [2000, 1000];

const { id, dir, env, close } = await finishedCampaign('report');
try {
  const cases = [
    ['report --json', ['campaign', 'report', id, '--json']],
    ['report --html --no-transcripts', ['campaign', 'report', id, '--html', join(dir, 'r.html'), '--no-transcripts']],
    ['report --html (with transcripts)', ['campaign', 'report', id, '--html', join(dir, 't.html')]],
  ].filter((_, j) => j < 2 || process.env.BENCH_TRANSCRIPTS !== '0');
  const times = timeCases(cases, RUNS, env);
  console.log(`campaign report, one 10,000-contact campaign, whole process, loopback, median of ${RUNS}:`);
  cases.forEach(([name], j) => {
    const ms = median(times[j]);
    const b = BUDGETS_MS[j];
    const budget = b ? `budget < ${b / 1000} s   ${ms < b ? 'OK' : 'OVER BUDGET'}` : '(no budget)';
    console.log(`  ${name.padEnd(34)} ${(ms / 1000).toFixed(2)} s   ${budget}`);
  });
  console.log(`  (load average: ${loadText()})`);
} finally {
  close();
}
