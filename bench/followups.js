// `campaign followups` over a 10,000-contact campaign, whole process, against a sandbox in
// its own process on loopback: the follow-ups as JSON, as .xlsx and as .csv. A callback
// whose summary names no readable time costs one more request (its transcript). Medians.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { finishedCampaign, median, timeCases } from './finished-campaign.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const { id, dir, env, close } = await finishedCampaign('followups');
try {
  const cases = [
    ['followups --json', ['campaign', 'followups', id, '--json']],
    ['followups --out f.xlsx', ['campaign', 'followups', id, '--out', join(dir, 'f.xlsx')]],
    ['followups --out f.csv', ['campaign', 'followups', id, '--out', join(dir, 'f.csv')]],
  ];
  let rows = 0;
  const times = timeCases(cases, RUNS, env, (j, r) => {
    if (j === 0) rows = JSON.parse(r.stdout).length;
  });
  console.log(`campaign followups, one 10,000-contact campaign (${rows} follow-ups), whole process, loopback, median of ${RUNS}:`);
  cases.forEach(([name], j) => console.log(`  ${name.padEnd(26)} ${(median(times[j]) / 1000).toFixed(2)} s`));
  console.log(`  (load average: ${loadavg().map((l) => l.toFixed(1)).join(', ')})`);
} finally {
  close();
}
