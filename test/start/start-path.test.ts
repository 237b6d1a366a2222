/**
 * The start path (bin/voicectl.js → dist/start.cjs): `--version` and help answered from
 * CommonJS, everything else handed to the ES module build. Help from the start path must
 * be the same, byte for byte and exit code for exit code, as the full program's.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { version } from '../../src/program.js';
import { execa } from 'execa';
import { baseEnv, BIN, runCli } from '../helpers/cli.js';
import { run } from '../helpers/run.js';

const configDir = mkdtempSync(join(tmpdir(), 'voicectl-start-'));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));
const env = baseEnv(configDir);

async function inProcess(argv: string[]) {
  const r = await run(argv, { env, realTime: true });
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

describe('start path', () => {
  it.each([['--version'], ['-v']])('%s prints the version alone', async (flag) => {
    const r = await runCli([flag], env);
    expect(r).toEqual({ exitCode: 0, stdout: version(), stderr: '' });
  });

  it.each([
    [[]],
    [['--help']],
    [['-h']],
    [['help']],
    [['help', 'agent']],
    [['agent', '--help']],
    [['agents', '-h']],
    [['campaign', 'create', '--help']],
    [['call', 'export', '-h']],
    [['--json', 'webhook', '--help']],
    [['--profile', 'help', 'kb', '--help']],
    [['agent', 'list', '--bogus', '--help']],
    [['agent', 'lst', '--help']],
    [['help', 'nothing']],
  ])('voicectl %j: the same output and exit code as the full program', async (argv) => {
    const fromBin = await runCli(argv, env);
    const full = await inProcess(argv);
    expect(fromBin.exitCode).toBe(full.exitCode);
    expect(fromBin.stdout).toBe(full.stdout.trimEnd());
    expect(fromBin.stderr).toBe(full.stderr.trimEnd());
    expect(fromBin.stdout + fromBin.stderr).toMatch(/Usage: voicectl|error: /);
  });

  it('hands a command line that runs a command to the full program (a flag value that is -h)', async () => {
    const r = await runCli(['agent', 'create', '--name', '-h', '--no-input'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Missing --voice');
    expect(r.stdout).toBe('');
  });

  it('reads --help after -- as an argument, not a request for help', async () => {
    const r = await runCli(['agent', 'get', '--', '--help'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('No service address is set.');
  });

  it('writes help to a file as it does to a pipe', async () => {
    const file = join(configDir, 'help.txt');
    const r = await runCli(['campaign', '--help'], env, { stdout: { file } });
    const piped = await runCli(['campaign', '--help'], env);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${piped.stdout}\n`);
  });

  // The build writes a code cache for the Node that built it; any other Node writes its
  // own under ~/.cache/voicectl/code after its first run.
  const builtHere = existsSync(join(BIN, '../../dist', `help.cjs.${process.versions.v8}.cache`));

  it.runIf(builtHere)('compiles help and the program from the code caches the build wrote', async () => {
    // In a fresh Node, as a user's run: V8 accepts a cache only under the flags it was made with.
    const dist = join(BIN, '../../dist');
    // The files main.cjs loads when a part first runs (undici, the MCP SDK, chrono) come after it, under the same flags.
    const script = "const s = require('./start.cjs'); const h = s.loadHelp(); s.preferBaselineWasm(); const m = s.load(s.MAIN_FILE, { userCache: false }); "
      + "const parts = ['undici', 'mcp-sdk', 'chrono'].map((f) => s.load(require('node:path').join(process.cwd(), f + '.cjs'), { userCache: false }).cacheRejected); "
      + "process.stdout.write(`${h.cacheRejected} ${m.cacheRejected} ${parts.join(' ')}`)";
    const r = await execa(process.execPath, ['-e', script], { cwd: dist });
    expect(r.stdout).toBe('false false false false false');
  });

  it.runIf(!builtHere)(`writes its own code cache on Node ${process.versions.node}, then compiles from it`, async () => {
    const home = mkdtempSync(join(configDir, 'home-'));
    const first = await runCli(['agent', '--help'], { ...env, HOME: home, XDG_CACHE_HOME: '' });
    expect(first.exitCode).toBe(0);
    const dir = join(home, '.cache', 'voicectl', 'code');
    expect(readdirSync(dir).filter((f) => f.startsWith('help.cjs-'))).toHaveLength(1);
    const dist = join(BIN, '../../dist');
    const script = "const s = require('./start.cjs'); process.stdout.write(String(s.load(s.HELP_FILE).cacheRejected))";
    const r = await execa(process.execPath, ['-e', script], { cwd: dist, env: { HOME: home, XDG_CACHE_HOME: '' } });
    expect(r.stdout).toBe('false');
    const second = await runCli(['agent', '--help'], { ...env, HOME: home, XDG_CACHE_HOME: '' });
    expect(second.stdout).toBe(first.stdout);
  });

  it.runIf(!builtHere)(`keeps its code cache on Node ${process.versions.node} across runs of contacts validate, which turns a compiler off and on again`, async () => {
    // V8 hashes its flags into a cache; a cache written after the flags moved would not fit
    // the next start, and be written again at every run (src/code-cache.ts).
    const home = mkdtempSync(join(configDir, 'home-'));
    const csv = join(home, 'list.csv');
    writeFileSync(csv, 'name,phone\nAsha,98765 43210\nRavi,+91 98100 12345\n');
    // validate alone, as a scheduled job runs it: each run must find the cache the first wrote.
    const runs = [['contacts', 'validate', csv, '--default-country', 'IN']];
    const cacheOf = () => {
      const dir = join(home, '.cache', 'voicectl', 'code');
      const file = readdirSync(dir).find((f) => f.startsWith('main.cjs-'));
      return file === undefined ? undefined : { file, bytes: readFileSync(join(dir, file)), mtimeMs: statSync(join(dir, file)).mtimeMs };
    };
    for (const argv of runs) expect((await runCli(argv, { ...env, HOME: home, XDG_CACHE_HOME: '' })).exitCode).toBe(0);
    const written = cacheOf();
    expect(written).toBeDefined();
    for (const argv of [...runs, ...runs]) expect((await runCli(argv, { ...env, HOME: home, XDG_CACHE_HOME: '' })).exitCode).toBe(0);
    const after = cacheOf();
    expect(after?.file).toBe(written!.file);
    expect(after?.mtimeMs).toBe(written!.mtimeMs);
    expect(after?.bytes.equals(written!.bytes)).toBe(true);
  });

  it('shows help all the same when the code cache does not fit this Node (or is missing)', async () => {
    const dist = join(BIN, '../../dist');
    const copy = mkdtempSync(join(configDir, 'dist-'));
    for (const f of ['start.cjs', 'help.cjs']) copyFileSync(join(dist, f), join(copy, f));
    const script = "const s = require('./start.cjs'); const h = s.loadHelp(); console.error(String(h.cacheRejected)); h.exports.help(['agent', '--help']).then((c) => { process.exitCode = c; });";
    const expected = (await runCli(['agent', '--help'], env)).stdout;

    const missing = await execa(process.execPath, ['-e', script], { cwd: copy, reject: false });
    expect(missing.stderr).toBe('undefined');
    expect(missing.stdout).toBe(expected);

    writeFileSync(join(copy, `help.cjs.${process.versions.v8}.cache`), Buffer.alloc(4096, 7));
    const rejected = await execa(process.execPath, ['-e', script], { cwd: copy, reject: false });
    expect(rejected.stderr).toBe('true');
    expect(rejected.exitCode).toBe(0);
    expect(rejected.stdout).toBe(expected);
  });

  it('says in one line that voicectl could not start when its build is broken, with the stack only under --debug', async () => {
    const dist = join(BIN, '../../dist');
    const broken = mkdtempSync(join(configDir, 'broken-'));
    copyFileSync(join(dist, 'start.cjs'), join(broken, 'start.cjs')); // no main.cjs beside it
    const script = "require('./start.cjs').start(process.argv.slice(1))";
    const plain = await execa(process.execPath, ['-e', script, 'agent', 'list'], { cwd: broken, reject: false });
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toMatch(/^error: voicectl could not start: .*main\.cjs/);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = await execa(process.execPath, ['-e', script, 'agent', 'list', '--debug'], { cwd: broken, reject: false });
    expect(debug.exitCode).toBe(1);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});
