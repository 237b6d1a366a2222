// What the benches share: the built CLI's path, medians, a child's peak RSS and CPU time,
// the environment that points voicectl at a sandbox (or at none), a sandbox seeded in this
// process or started in a child of its own, contacts in three zones in a folder of their
// own, a child that reports its figures on fd 3, and the load average printed beside the
// figures.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));

/** Exits 1 with the fix when dist/ has not been built. */
export function requireDist() {
  if (!existsSync(fileURLToPath(new URL('../dist/main.js', import.meta.url)))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
}

/** The median: the middle value, or the mean of the two middle ones. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const verdict = (ok) => (ok ? 'OK' : 'OVER BUDGET');

/** The load average, as the benches print it beside their figures ("1.2, 0.9, 0.7"). */
export const loadText = () => loadavg().map((l) => l.toFixed(1)).join(', ');

/** `node --import PEAK`: the child reports its peak RSS and CPU time on stderr as it exits; what it runs is untouched. */
export const PEAK = "data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nPEAK_RSS_KB='+u.maxRSS+' CPU_US='+(u.userCPUTime+u.systemCPUTime)+'\\n')})";

/** The peak RSS (MB) and CPU time (ms) a child started with PEAK reported on `stderr`. */
export function peakOf(stderr) {
  return {
    rssMb: Number(/PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024,
    cpuMs: Number(/CPU_US=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1000,
  };
}

/** The environment of a voicectl child with no account (no base URL, no key): nothing inherited but PATH, no colours, CI. */
export function offlineEnv({ home = tmpdir(), configDir = tmpdir(), ...extra } = {}) {
  return { PATH: process.env.PATH ?? '', HOME: home, CI: 'true', FORCE_COLOR: '0', VOICECTL_CONFIG_DIR: configDir, ...extra };
}

/** The environment of a voicectl child against `sb` ({ url, apiKey }): offlineEnv's, with the sandbox's URL and key. */
export function cliEnv(sb, options = {}) {
  return offlineEnv({ VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey, ...options });
}

/** `n` contacts, in turn from India, New York and London, as a contacts JSON file holds them. */
export function threeZoneContacts(n) {
  const contacts = [];
  for (let i = 0; contacts.length < n; i++) {
    contacts.push({ phone_number: `+9198${String(10_000_000 + i).slice(-8)}`, name: `India ${i}` });
    contacts.push({ phone_number: `+1212${String(2_000_000 + i).slice(-7)}`, name: `New York ${i}` });
    contacts.push({ phone_number: `+447911${String(100_000 + i).slice(-6)}`, name: `London ${i}` });
  }
  contacts.length = n;
  return contacts;
}

/** A new folder in the temp folder (its name starts with `prefix`) holding `contacts` as list.json: `dir`, `file`, and `remove()`. */
export function contactsFolder(prefix, contacts) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, 'list.json');
  writeFileSync(file, JSON.stringify(contacts));
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `node ...args` with its stdout, stderr and fd 3 piped (the child writes its own figures
 * to fd 3 as it exits), timed from spawn to close: its exit code, the three texts
 * (`stdout`, `stderr`, `report`) and the wall time in ms (`wallMs`).
 */
export async function spawnReporting(args, { env, cwd }) {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let report = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdio[3].on('data', (c) => (report += c));
  const code = await new Promise((resolve) => child.on('close', resolve));
  return { code, stdout, stderr, report, wallMs: Number(process.hrtime.bigint() - t0) / 1e6 };
}

/**
 * `node [--import PEAK] bin/voicectl.js ...args`, timed from spawn to exit. Resolves with its
 * wall time (`ms`), exit code, stdout (`out`: the text, or with `out: 'bytes'` its length,
 * with `out: 'ignore'` nothing read) and stderr, and with `peak` its peak RSS and CPU time;
 * rejects on an exit code not in `allowed`.
 */
export function voicectlTimed(args, { env, peak = false, allowed = [0], out = 'text' }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...(peak ? ['--import', PEAK] : []), BIN, ...args], { env, stdio: ['ignore', out === 'ignore' ? 'ignore' : 'pipe', 'pipe'] });
    let text = '';
    let bytes = 0;
    let err = '';
    if (out === 'text') child.stdout.on('data', (c) => { text += c; });
    if (out === 'bytes') child.stdout.on('data', (c) => { bytes += c.length; });
    child.stderr.on('data', (c) => { err += c; });
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - t0;
      if (!allowed.includes(code)) return reject(new Error(`voicectl ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      resolve({ ms, code, out: out === 'bytes' ? bytes : text, err, ...(peak ? peakOf(err) : {}) });
    });
  });
}

/** An in-process sandbox (seed `seed`, `options` as startSandbox takes them) holding `calls` seeded calls; `campaigns` their campaigns' ids. */
export async function seededSandbox(calls, { seed = 5, ...options } = {}) {
  const { seedCalls, startSandbox } = await import('../dist/sandbox/index.js');
  const sb = await startSandbox({ port: 0, seed, ...options });
  const campaigns = seedCalls(sb.world, sb.world.keys.get(sb.apiKey).org, calls);
  return Object.assign(sb, { campaigns });
}

/**
 * A sandbox in a child process of its own (bench/sandbox-server.js, or `script`) with `args`,
 * once it has said where it listens: `ready` is its first message ({ url, apiKey, … }),
 * `close()` asks it to stop.
 */
export async function forkedSandbox(args, { script = './sandbox-server.js', execArgv, stdout = 'ignore' } = {}) {
  const server = fork(fileURLToPath(new URL(script, import.meta.url)), args.map(String), { ...(execArgv ? { execArgv } : {}), stdio: ['ignore', stdout, 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
  });
  return { ...ready, ready, server, close: () => server.send('close') };
}
