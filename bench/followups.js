// `campaign followups` over a 10,000-contact campaign, whole process, against a sandbox in
// its own process on loopback: the follow-ups as JSON, as .xlsx and as .csv. A callback
// whose summary names no readable time costs one more request (its transcript). Medians.
import { join } from 'node:path';
import { finishedCampaign, timeCases } from './finished-campaign.js';
import { loadText, median } from './lib.js';

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
  console.log(`  (load average: ${loadText()})`);
} finally {
  close();
}

// The same campaign where no callback's summary says anything: each callback's transcript is
// read (GET /calls/{id}, eight at a time) and its customer's turns read for the time.
const blank = await finishedCampaign('followups-transcripts', { blankCallbackSummaries: true });
try {
  let callbacks = 0;
  let read = 0;
  const times = timeCases([['followups --json', ['campaign', 'followups', blank.id, '--json']]], RUNS, blank.env, (_j, r) => {
    const rows = JSON.parse(r.stdout).filter((x) => x.kind === 'callback');
    callbacks = rows.length;
    read = rows.filter((x) => x.requested_time !== null).length;
  });
  console.log(`the same, every callback's summary blank (${callbacks} transcripts read, ${read} times found in them), median of ${RUNS}:`);
  console.log(`  ${'followups --json'.padEnd(26)} ${(median(times[0]) / 1000).toFixed(2)} s`);
  console.log(`  (load average: ${loadText()})`);
} finally {
  blank.close();
}
