/**
 * What a command that reads from the service loads: not node:http or node:assert, which
 * undici would load for values it reads lazily in voicectl's build (scripts/build.js), and
 * a program file that is ASCII, so the start path reads it as a one-byte string.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeMaxHeaderSize } from '../../src/api/dispatcher.js';
import { WRAPPER_HEAD, WRAPPER_TAIL } from '../../src/module-wrapper.js';
import { BIN, harness, type Harness } from '../helpers/cli.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** Runs a command with a preload that writes the built-in modules Node loaded, at exit. */
async function loadedModules(args: string[], env: Record<string, string> = {}, command = ['agent', 'list', '--json']) {
  const preload = join(h.configDir, 'modules.cjs');
  const out = join(h.configDir, 'modules.json');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));`);
  const r = await h.run([...command, ...args], { env: { NODE_OPTIONS: `--require ${preload} ${env.NODE_OPTIONS ?? ''}`.trim() } });
  const list = JSON.parse(readFileSync(out, 'utf8')) as string[];
  return { r, modules: new Set(list.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length))) };
}

describe('start-up of a command that reads from the service', () => {
  it('agent list loads neither node:http nor node:assert, and still answers', async () => {
    const made = await h.run(['agent', 'create', '--name', 'Loader', '--voice', 'Priya', '--greeting', 'Hello', '--call-purpose', 'Test', '--prompt', 'Say hello.', '--json']);
    expect(made.stderr).toBe('');
    const { r, modules } = await loadedModules([]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).map((a: { name: string }) => a.name)).toContain('Loader');
    expect(modules.has('net')).toBe(true);
    expect(modules.has('http')).toBe(false);
    expect(modules.has('_http_client')).toBe(false);
    expect(modules.has('assert')).toBe(false);
  });

  it('with --max-http-header-size, undici reads Node\'s limit from node:http itself', async () => {
    const { r, modules } = await loadedModules([], { NODE_OPTIONS: '--max-http-header-size=32768' });
    expect(r.exitCode).toBe(0);
    expect(modules.has('http')).toBe(true);
  });

  it('api GET loads the same built-in modules as agent list: node:fs/promises (readline, file watchers) only for --input', async () => {
    const list = (await loadedModules([])).modules;
    const { r, modules } = await loadedModules([], {}, ['api', 'GET', '/agents']);
    expect(r.exitCode).toBe(0);
    expect(modules.has('fs/promises')).toBe(false);
    expect([...modules].filter((m) => !list.has(m))).toEqual([]);
  });

  it('compiles undici from a code cache: the build\'s, or one this Node writes once and keeps', async () => {
    // undici is a file of its own (dist/undici.cjs), which a command loads when it first talks to the service.
    const home = mkdtempSync(join(h.configDir, 'home-'));
    const env = { HOME: home, XDG_CACHE_HOME: '' };
    const dir = join(home, '.cache', 'voicectl', 'code');
    const undiciCaches = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('undici.cjs-')) : []);
    expect((await h.run(['agent', 'list', '--json'], { env })).exitCode).toBe(0);
    const builtHere = existsSync(join(BIN, '../../dist', `undici.cjs.${process.versions.v8}.cache`));
    if (builtHere) {
      // The build's cache fitted: nothing is written.
      expect(undiciCaches()).toEqual([]);
      return;
    }
    expect(undiciCaches()).toHaveLength(1);
    const file = join(dir, undiciCaches()[0]!);
    const written = statSync(file).mtimeMs;
    expect((await h.run(['api', 'GET', '/agents'], { env })).exitCode).toBe(0);
    expect(undiciCaches()).toHaveLength(1);
    expect(statSync(file).mtimeMs).toBe(written);
  });

  it('writes to standard error as a pipe without loading node:net, and loses none of it', async () => {
    // `voicectl contacts validate list.csv --json > report.json` in CI: stdout a file,
    // stderr a pipe to the job's log (a pipe on stdout makes process.stdout, which needs net).
    const csv = join(h.configDir, 'short-rows.csv');
    writeFileSync(csv, `name,phone\n${Array.from({ length: 300 }, (_, i) => `Row ${i},${i % 3 === 0 ? '12345' : `98765 ${String(i).padStart(5, '0')}`}`).join('\n')}\n`);
    const preload = join(h.configDir, 'modules-err.cjs');
    const list = join(h.configDir, 'modules-err.json');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));`);
    const report = openSync(join(h.configDir, 'report.json'), 'w');
    const r = spawnSync(process.execPath, [BIN, 'contacts', 'validate', csv, '--default-country', 'IN', '--json'], { env: { ...h.env, NODE_OPTIONS: `--require ${preload}` }, stdio: ['ignore', report, 'pipe'], encoding: 'utf8' });
    closeSync(report);
    expect(r.status).toBe(2);
    expect(JSON.parse(readFileSync(list, 'utf8'))).not.toContain('NativeModule net');
    const error = JSON.parse(r.stderr) as { details: { invalid: number; errors: Array<{ row: number }> } };
    expect(error.details.invalid).toBe(100);
    expect(error.details.errors.map((e) => e.row)).toEqual(Array.from({ length: 100 }, (_, i) => 2 + i * 3));
  });

  it('builds the files the start path compiles inside the function it calls them with, as one expression', () => {
    for (const file of ['main.cjs', 'help.cjs', 'mcp-sdk.cjs', 'chrono.cjs', 'undici.cjs']) {
      const text = readFileSync(join(BIN, '../../dist', file), 'latin1');
      expect(text.startsWith(WRAPPER_HEAD), file).toBe(true);
      expect(text.endsWith(WRAPPER_TAIL), file).toBe(true);
      // One function expression: V8 compiles it to the function the start path calls.
      expect(typeof new Script(text).runInNewContext({}), file).toBe('function');
    }
  });

  it('builds the files the start path compiles as ASCII', () => {
    for (const file of ['main.cjs', 'help.cjs', 'start.cjs', 'undici.cjs']) {
      const bytes = readFileSync(join(BIN, '../../dist', file));
      expect(bytes.findIndex((b) => b > 0x7f), file).toBe(-1);
    }
  });
});

describe('nodeMaxHeaderSize', () => {
  it('is Node\'s default unless Node was started with its own limit', () => {
    expect(nodeMaxHeaderSize([], undefined)).toBe(16 * 1024);
    expect(nodeMaxHeaderSize(['--max-http-header-size=65536'], undefined)).toBeUndefined();
    expect(nodeMaxHeaderSize([], '--max-http-header-size=8192 --enable-source-maps')).toBeUndefined();
  });
});
