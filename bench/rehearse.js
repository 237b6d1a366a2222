// `campaign run --rehearse` over 5,000 contacts in three zones (India, New York, London)
// with a daily cap that spreads them over three days: the whole process, as a user runs
// it (no key, no account: a stand-in agent and the sandbox's rates), from the real now.
// Wall time and peak memory, medians of RUNS runs. Budget: under 60 s and 300 MB.
// Run `npm run build` first (npm run bench does).   node bench/rehearse.js [--runs N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contactsFolder, offlineEnv, requireDist, spawnReporting, threeZoneContacts } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
requireDist();
const r = process.argv.indexOf('--runs');
const RUNS = r === -1 ? 3 : Number(process.argv[r + 1]);
const N = 5_000;
const CAP = 1_700;

const contacts = threeZoneContacts(N);

// The CLI as bin/voicectl.js starts it, reporting its peak memory on fd 3 as it exits.
const START = `process.on('exit', () => { try { require('node:fs').writeSync(3, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })); } catch {} });
require(${JSON.stringify(join(root, 'dist', 'start.cjs'))}).start(process.argv.slice(1));`;

async function once() {
  const { dir, file, remove } = contactsFolder('voicectl-bench-rehearse-', contacts);
  const env = offlineEnv({ home: dir, configDir: dir, TZ: 'UTC' });
  const { code, stdout, stderr, report: rss, wallMs } = await spawnReporting(['-e', START, '--', 'campaign', 'run', '--name', 'Bench', '--agent', 'Sales desk', '--contacts', file,
    '--daily-cap', String(CAP), '--tz', 'Asia/Kolkata', '--rehearse', '--json'], { env, cwd: dir });
  try {
    if (code !== 0) throw new Error(`campaign run --rehearse exited ${code}:\n${stderr.slice(-3000)}`);
    const out = JSON.parse(stdout);
    const journal = JSON.parse(readFileSync(join(dir, 'list.rehearsal.run.json'), 'utf8'));
    const dialed = journal.contacts.filter((c) => c.attempts > 0).length;
    const days = out.forecast_vs_actual.find((m) => m.measure === 'calling days')?.actual;
    return { wallMs, mb: JSON.parse(rss).maxRssKb / 1024, dialed, days, waves: journal.waves.length, scale: out.rehearsal.time_scale, simHours: (Date.parse(out.rehearsal.ended_at) - Date.parse(out.rehearsal.started_at)) / 3_600_000 };
  } finally {
    remove();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
const wall = median(runs.map((x) => x.wallMs)) / 1000;
const mb = median(runs.map((x) => x.mb));
const last = runs[runs.length - 1];
console.log(`campaign run --rehearse, ${N.toLocaleString('en-US')} contacts in three zones, at most ${CAP.toLocaleString('en-US')} a day (IST days), ${RUNS} runs`);
console.log(`  ${last.waves} waves, ${last.dialed.toLocaleString('en-US')} contacts dialed over ${last.days} calling days, ${last.simHours.toFixed(1)} simulated hours at ${last.scale.toLocaleString('en-US')}x`);
console.log(`  wall time      ${wall.toFixed(1)} s median (${runs.map((x) => (x.wallMs / 1000).toFixed(1)).join(', ')})   (budget 60 s)`);
console.log(`  peak memory    ${mb.toFixed(0)} MB median (${runs.map((x) => x.mb.toFixed(0)).join(', ')})   (budget 300 MB)`);
if (runs.some((x) => x.dialed !== N)) {
  console.error(`expected ${N} contacts dialed, got ${runs.map((x) => x.dialed).join(', ')}`);
  process.exitCode = 1;
}
if (wall > 60 || mb > 300) process.exitCode = 1;
