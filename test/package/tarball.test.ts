/**
 * voicectl as users get it: the tarball `npm pack` makes, installed into an empty folder
 * with production dependencies only, then run as a user would run it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const work = mkdtempSync(join(tmpdir(), 'voicectl-tarball-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', pkg.name);
const bin = join(app, 'node_modules', '.bin', 'voicectl');
let sandbox: Sandbox;

const userEnv = () => ({
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  HOME: join(work, 'home'),
  VOICECTL_CONFIG_DIR: join(work, 'config'),
  FORCE_COLOR: '0',
  CI: 'true',
});

beforeAll(async () => {
  // dist/ is already built by `npm test`: packing without scripts keeps it as it is
  // while other test files run against it.
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-user-project', private: true, type: 'module' }));
  // Production dependencies only, from the npm cache where it has them.
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(work, filename)], {
    cwd: app,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  sandbox = await startSandbox({ port: 0, timeScale: 600, seed: 3 });
}, 240_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(work, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = {}) =>
  execa(bin, args, { reject: false, extendEnv: false, env: { ...userEnv(), ...env }, timeout: 120_000 });

describe('the packed tarball, installed without dev dependencies', () => {
  it('has no dev dependency installed (the install is what users get)', () => {
    expect(existsSync(join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'typescript'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'esbuild'))).toBe(false);
  });

  it('answers --version and --help', async () => {
    const v = await run(['--version']);
    expect(v.exitCode).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const help = await run(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: voicectl');
    for (const group of ['agent', 'campaign', 'call', 'webhook', 'listen', 'sandbox']) expect(help.stdout).toContain(group);
    const groupHelp = await run(['campaign', '--help']);
    expect(groupHelp.exitCode).toBe(0);
  });

  it('runs the demo end to end', async () => {
    const out = join(work, 'demo-calls.csv');
    const r = await run(['demo', '--out', out]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toContain('call_id');
  });

  it('talks to a service (a sandbox on loopback)', async () => {
    const env = { VOICECTL_BASE_URL: sandbox.url, VOICECTL_API_KEY: sandbox.apiKey };
    const voices = await run(['voice', 'list', '--json'], env);
    expect(voices.exitCode).toBe(0);
    expect((JSON.parse(voices.stdout) as unknown[]).length).toBeGreaterThan(0);
    const validate = await run(['contacts', 'validate', join(installed, 'fixtures', 'leads.csv'), '--default-country', 'IN', '--json'], env);
    expect(validate.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(validate.stdout)).toMatchObject({ invalid: expect.any(Number), valid: expect.any(Number) });
  });

  it("exports voicectl/webhooks: sign and verify from a user's module", async () => {
    const file = join(app, 'receiver.mjs');
    writeFileSync(file, `import { sign, verify } from 'voicectl/webhooks';
const body = JSON.stringify({ id: 'evt_1', type: 'ping', created_at: new Date().toISOString(), data: {} });
const header = sign('whsec_test', body);
const good = verify('whsec_test', body, header);
const bad = verify('whsec_other', body, header);
console.log(JSON.stringify({ good: good.ok, bad: bad.ok }));
`);
    const r = await execa(process.execPath, [file], { cwd: app, reject: false });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ good: true, bad: false });
  });

  it('type-checks a TypeScript file that imports voicectl/webhooks', async () => {
    const file = join(app, 'receiver.ts');
    writeFileSync(file, `import { verify, type WebhookEvent, type VerifyResult } from 'voicectl/webhooks';
export function handle(body: string, header: string): WebhookEvent | undefined {
  const r: VerifyResult = verify('whsec_test', body, header);
  return r.ok ? (JSON.parse(body) as WebhookEvent) : undefined;
}
`);
    // A deliberate mistake, to show the check reads voicectl's types rather than accepting anything.
    const wrong = join(app, 'wrong.ts');
    writeFileSync(wrong, "import { verify } from 'voicectl/webhooks';\nverify('whsec_test', 42, 'header');\n");
    const tsconfig = (files: string[]) => JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
        skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      files,
    });
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    writeFileSync(join(app, 'tsconfig.json'), tsconfig([file]));
    const ok = await execa(tsc, ['-p', join(app, 'tsconfig.json')], { cwd: app, reject: false });
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.exitCode).toBe(0);
    writeFileSync(join(app, 'tsconfig.json'), tsconfig([wrong]));
    const bad = await execa(tsc, ['-p', join(app, 'tsconfig.json')], { cwd: app, reject: false });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toMatch(/wrong\.ts.*number/s);
  });

  it('contains every file the README and the help point to', async () => {
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const help = (await Promise.all(['', 'agent', 'campaign', 'call', 'contacts', 'webhook', 'kb', 'config'].map((g) => run(g ? [g, '--help'] : ['--help']))))
      .map((r) => r.stdout).join('\n');
    const linked = new Set<string>();
    for (const m of readme.matchAll(/\]\(((?:docs|fixtures)\/[^)#\s]+)/g)) linked.add(m[1]);
    for (const m of `${readme}\n${help}`.matchAll(/\b((?:docs|fixtures)\/[\w./-]+\.\w+)/g)) linked.add(m[1].replace(/[.,]$/, ''));
    expect(linked.size).toBeGreaterThan(3);
    const missing = [...linked].filter((p) => !existsSync(join(installed, p)));
    expect(missing).toEqual([]);
    expect(existsSync(join(installed, 'LICENSE'))).toBe(true);
    // The tests and sources stay out of what users download.
    expect(readdirSync(installed)).not.toContain('test');
    expect(readdirSync(installed)).not.toContain('src');
  });
});
