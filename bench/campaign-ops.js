// Campaign operations on 10,000 contacts, whole process, medians of several runs:
//   - the calling-hours check before a launch: `campaign launch` refused by the check
//     (reads the contacts, works out every number's zone) beside `campaign contacts --json`
//     (reads and prints the same contacts);
//   - `campaign create --dry-run` with a 10,000-number --exclude list beside without one.
// Run `npm run build` first (npm run bench does).   node bench/campaign-ops.js [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN as bin, cliEnv, forkedSandbox, median, requireDist } from './lib.js';

requireDist();
const i = process.argv.indexOf('--runs');
const RUNS = i === -1 ? 5 : Number(process.argv[i + 1]);
const N = 10_000;

let seed = 4242;
const rand = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const digits = (n) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join('');
const US_AREAS = ['212', '310', '312', '415', '617', '713', '808', '907', '303', '602'];
/** Mostly Indian mobiles, with US numbers across zones, Australian mobiles (several zones) and London. */
function number(k) {
  const r = rand();
  if (r < 0.7) return `+91${['98', '99', '97', '94', '70'][k % 5]}${digits(8)}`;
  if (r < 0.85) return `+1${US_AREAS[k % US_AREAS.length]}555${digits(4)}`;
  if (r < 0.95) return `+614${digits(8)}`;
  return `+4420794${digits(5)}`;
}

const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-ops-'));
const server = await forkedSandbox([1, 0]);
const { url, apiKey } = server;
const env = cliEnv(server, { home: dir, configDir: dir });

async function api(method, path, body) {
  const res = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  return res.json();
}

function time(args, expectCode) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== expectCode) throw new Error(`${args.join(' ')} exited ${r.status}, expected ${expectCode}:\n${r.stderr}`);
  return ms;
}
function compare(label, a, b) {
  const ta = [];
  const tb = [];
  for (let k = 0; k < RUNS; k++) {
    ta.push(time(...a));
    tb.push(time(...b));
  }
  const ma = median(ta);
  const mb = median(tb);
  console.log(`${label}\n  ${a[0].slice(0, 2).join(' ')}: ${ma.toFixed(0)} ms   baseline ${b[0].slice(0, 2).join(' ')}: ${mb.toFixed(0)} ms   ratio ${(ma / mb).toFixed(2)}`);
}

try {
  const agent = await api('POST', '/agents', { name: 'Bench', voice_name: 'Ananya', greeting: 'Hi', call_purpose: 'x', prompt: 'y', tools: [] });
  const numbers = Array.from({ length: N }, (_, k) => number(k));
  const campaign = await api('POST', '/campaigns/json', { name: 'Bench', agent_id: agent.id, contacts: numbers.map((phone_number, k) => ({ phone_number, name: `P${k}` })) });
  console.log(`${N.toLocaleString('en-US')} contacts (70% India, 15% US over 10 area codes, 10% Australian mobiles, 5% London), ${RUNS} runs each, medians`);
  // A one-minute window nobody is inside everywhere at once: the check runs in full and refuses (exit 2).
  compare('calling-hours check before launch (refused) vs reading the contacts',
    [['campaign', 'launch', campaign.id, '--yes', '--calling-hours', '03:00-03:01'], 2],
    [['campaign', 'contacts', campaign.id, '--json'], 0]);

  const csv = join(dir, 'contacts.csv');
  writeFileSync(csv, `name,phone\n${numbers.map((n, k) => `P${k},${n}`).join('\n')}\n`);
  const dnc = join(dir, 'dnc.txt');
  // Half the list are contacts (written as national numbers where Indian), half are other numbers.
  writeFileSync(dnc, `${numbers.map((n, k) => (k % 2 === 0 ? (n.startsWith('+91') ? `0${n.slice(3, 8)} ${n.slice(8)}` : n) : number(k))).join('\n')}\n`);
  const create = ['campaign', 'create', '--name', 'B', '--agent', agent.id, '--csv', csv, '--skip-invalid', '--dry-run', '--json'];
  compare('create --dry-run with a 10,000-number --exclude list vs without',
    [[...create, '--exclude', dnc, '--default-country', 'IN'], 0],
    [[...create, '--default-country', 'IN'], 0]);
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
