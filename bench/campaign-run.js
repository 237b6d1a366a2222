// `campaign run` over 10,000 contacts in three zones (India, New York, London), whole
// process, in the sandbox at a high time scale with voicectl on the sandbox's clock: wall
// time, peak memory, and journal writes per wave. Budget: under 30 s and 200 MB.
// Run `npm run build` first (npm run bench does).   node bench/campaign-run.js [--wave-size N]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEnv, forkedSandbox, requireDist } from './lib.js';

requireDist();
const w = process.argv.indexOf('--wave-size');
const WAVE = w === -1 ? 1000 : Number(process.argv[w + 1]);
const N = 10_000;
const SCALE = 20_000;

const contacts = [];
for (let i = 0; contacts.length < N; i++) {
  contacts.push({ phone_number: `+9198${String(10_000_000 + i).slice(-8)}`, name: `India ${i}` });
  contacts.push({ phone_number: `+1212${String(2_000_000 + i).slice(-7)}`, name: `New York ${i}` });
  contacts.push({ phone_number: `+447911${String(100_000 + i).slice(-6)}`, name: `London ${i}` });
}
contacts.length = N;

const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-run-'));
const file = join(dir, 'list.json');
writeFileSync(file, JSON.stringify(contacts));
const sb = await forkedSandbox([SCALE, '2026-01-15T02:00:00Z'], { script: './run-sandbox.js' });
const { server } = sb;
const api = async (method, path, body) => (await fetch(`${sb.url}${path}`, { method, headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })).json();
const agent = await api('POST', '/agents', { name: 'Bench runner', voice_name: 'Priya', greeting: 'Hello', call_purpose: 'bench', prompt: 'Be brief.', tools: [] });

const env = cliEnv(sb, { home: dir, configDir: dir, SIM_START: String(sb.simStart), SIM_REAL_START: String(sb.realStart), SIM_SCALE: String(sb.scale) });
const t0 = process.hrtime.bigint();
const child = spawn(process.execPath, [fileURLToPath(new URL('./run-clock.cjs', import.meta.url)), 'campaign', 'run', '--name', 'Bench', '--agent', agent.id,
  '--contacts', file, '--wave-size', String(WAVE), '--yes', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
let stdout = '';
let stderr = '';
let report = '';
child.stdout.on('data', (c) => (stdout += c));
child.stderr.on('data', (c) => (stderr += c));
child.stdio[3].on('data', (c) => (report += c));
const code = await new Promise((resolve) => child.on('close', resolve));
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
server.send('calls');
const { calls } = await new Promise((resolve) => server.once('message', resolve));
server.send('close');
if (code !== 0) {
  console.error(`campaign run exited ${code}:\n${stderr.slice(-3000)}`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
const summary = JSON.parse(stdout);
const { maxRssKb, renames } = JSON.parse(report);
const journal = JSON.parse(readFileSync(join(dir, 'list.run.json'), 'utf8'));
const simHours = (Date.parse(journal.updated_at) - Date.parse(journal.created_at)) / 3_600_000;
const waves = summary.waves.length;
rmSync(dir, { recursive: true, force: true });

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
