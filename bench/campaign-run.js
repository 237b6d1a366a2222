// `campaign run` over 10,000 contacts in three zones (India, New York, London), whole
// process, in the sandbox at a high time scale with voicectl on the sandbox's clock: wall
// time, peak memory, and journal writes per wave. Budget: under 30 s and 200 MB.
// Run `npm run build` first (npm run bench does).   node bench/campaign-run.js [--wave-size N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEnv, contactsFolder, forkedSandbox, requireDist, spawnReporting, threeZoneContacts } from './lib.js';

requireDist();
const w = process.argv.indexOf('--wave-size');
const WAVE = w === -1 ? 1000 : Number(process.argv[w + 1]);
const N = 10_000;
const SCALE = 20_000;

const { dir, file, remove } = contactsFolder('voicectl-bench-run-', threeZoneContacts(N));
const sb = await forkedSandbox([SCALE, '2026-01-15T02:00:00Z'], { script: './run-sandbox.js' });
const { server } = sb;
const api = async (method, path, body) => (await fetch(`${sb.url}${path}`, { method, headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })).json();
const agent = await api('POST', '/agents', { name: 'Bench runner', voice_name: 'Priya', greeting: 'Hello', call_purpose: 'bench', prompt: 'Be brief.', tools: [] });

const env = cliEnv(sb, { home: dir, configDir: dir, SIM_START: String(sb.simStart), SIM_REAL_START: String(sb.realStart), SIM_SCALE: String(sb.scale) });
const { code, stdout, stderr, report, wallMs } = await spawnReporting([fileURLToPath(new URL('./run-clock.cjs', import.meta.url)), 'campaign', 'run', '--name', 'Bench', '--agent', agent.id,
  '--contacts', file, '--wave-size', String(WAVE), '--yes', '--json'], { env });
server.send('calls');
const { calls } = await new Promise((resolve) => server.once('message', resolve));
server.send('close');
if (code !== 0) {
  console.error(`campaign run exited ${code}:\n${stderr.slice(-3000)}`);
  remove();
  process.exit(1);
}
const summary = JSON.parse(stdout);
const { maxRssKb, renames } = JSON.parse(report);
const journal = JSON.parse(readFileSync(join(dir, 'list.run.json'), 'utf8'));
const simHours = (Date.parse(journal.updated_at) - Date.parse(journal.created_at)) / 3_600_000;
const waves = summary.waves.length;
remove();

const mb = maxRssKb / 1024;
console.log(`campaign run, ${N.toLocaleString('en-US')} contacts in three zones, waves of ${WAVE}, sandbox at ${SCALE}x`);
console.log(`  ${waves} waves, ${calls.toLocaleString('en-US')} calls placed, ${simHours.toFixed(1)} simulated hours`);
console.log(`  wall time      ${(wallMs / 1000).toFixed(1)} s   (budget 30 s)`);
console.log(`  peak memory    ${mb.toFixed(0)} MB   (budget 200 MB)`);
console.log(`  journal writes ${renames} in all, ${(renames / waves).toFixed(1)} per wave`);
if (calls !== N || summary.contacts.done !== N) {
  console.error(`expected ${N} contacts dialed once each, got ${calls} calls and ${JSON.stringify(summary.contacts)}`);
  process.exitCode = 1;
}
if (wallMs > 30_000 || mb > 200) process.exitCode = 1;
