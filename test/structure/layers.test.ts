/**
 * Holds src/ to the layer map in layers.ts: every import (type-only included) is one the
 * map allows or a named exception; verbs and domain modules leave terminals and output
 * formats to src/io; tests seed the sandbox through the one factory module. An exception
 * that no longer happens fails too, so the list only shrinks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOMAINS, FACTORY, FETCH_EXCEPTIONS, IMPORT_EXCEPTIONS, LAYERS, PATTERN_EXCEPTIONS, PATTERNS, REPEATS, VIEWS } from './layers.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const TEST = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const withoutComments = (code: string) => code.replace(/\/\*[^]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');
const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

const srcFiles = filesUnder(SRC).map((f) => relative(SRC, f));
const code = new Map(srcFiles.map((f) => [f, withoutComments(readFileSync(join(SRC, f), 'utf8'))]));

/** Each src/ file's imports of other src/ files, relative to src/. */
function importsOf(file: string): string[] {
  return [...code.get(file)!.matchAll(IMPORT)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts'))
    .filter((target) => code.has(target));
}

const covers = (pattern: string, file: string) => (pattern.endsWith('/') ? file.startsWith(pattern) : file === pattern);

/** The layer a file belongs to: the first that names it. */
export function layerOf(file: string): string | undefined {
  for (const layer of LAYERS) {
    for (const pattern of layer.files) {
      if (pattern === 'commands/*/' ? /^commands\/[^/]+\//.test(file) : covers(pattern, file)) return layer.name;
    }
  }
  return undefined;
}

const groupOf = (file: string) => /^commands\/([^/]+)\//.exec(file)?.[1];

/** Why an import is allowed, or undefined when it is not. */
function allowed(from: string, to: string): boolean {
  const a = layerOf(from)!;
  const b = layerOf(to)!;
  if (a === 'commands' && b === 'commands') return groupOf(from) === groupOf(to);
  if (a === b) return true;
  return LAYERS.find((l) => l.name === a)!.may.includes(b);
}

const excepted = (from: string, to: string) => IMPORT_EXCEPTIONS.filter((e) => covers(e.from, from) && covers(e.to, to));

describe('the layer map', () => {
  it('names only layers it defines, each once, and every domain', () => {
    const names = LAYERS.map((l) => l.name);
    expect(new Set(names).size).toBe(names.length);
    for (const l of LAYERS) for (const m of l.may) expect(names, `${l.name} may ${m}`).toContain(m);
    for (const d of DOMAINS) expect(names).toContain(d);
  });

  it('places every file under src/ in a layer', () => {
    expect(srcFiles.filter((f) => layerOf(f) === undefined)).toEqual([]);
  });

  it('allows every import in src/ (type-only included), or names it as an exception', () => {
    const outside = srcFiles.flatMap((from) => importsOf(from)
      .filter((to) => !allowed(from, to) && excepted(from, to).length === 0)
      .map((to) => `${from} (${layerOf(from)}) -> ${to} (${layerOf(to)})`));
    expect([...new Set(outside)]).toEqual([]);
  });

  it('has no import exception that no longer happens, or that the map allows anyway', () => {
    const stale = IMPORT_EXCEPTIONS.filter((e) => !srcFiles.some((from) => covers(e.from, from) && importsOf(from).some((to) => covers(e.to, to) && !allowed(from, to))));
    expect(stale).toEqual([]);
  });

  it('lets src/io take the Context as a type only', () => {
    const io = srcFiles.filter((f) => layerOf(f) === 'io' && importsOf(f).includes('context.ts'));
    expect(io.filter((f) => !/\bimport type \{[^}]*\} from '\.\.\/context\.js'/.test(code.get(f)!) || /\bimport \{[^}]*\} from '\.\.\/context\.js'|import\('\.\.\/context\.js'\)/.test(code.get(f)!))).toEqual([]);
  });

  it('lets nothing but program.ts import a command group', () => {
    const importers = srcFiles.filter((from) => layerOf(from) !== 'commands' && importsOf(from).some((to) => layerOf(to) === 'commands'));
    const named = importers.filter((from) => !importsOf(from).filter((to) => layerOf(to) === 'commands').every((to) => excepted(from, to).length > 0));
    expect(named).toEqual(['program.ts']);
  });

  it('keeps the emulator off the client\'s HTTP stack: src/sandbox imports nothing from src/api/, and no rule may let it', () => {
    expect(LAYERS.find((l) => l.name === 'sandbox')!.may).not.toContain('api');
    expect(IMPORT_EXCEPTIONS.filter((e) => e.from.startsWith('sandbox') && e.to.startsWith('api'))).toEqual([]);
    expect(srcFiles.filter((f) => f.startsWith('sandbox/') && importsOf(f).some((to) => to.startsWith('api/')))).toEqual([]);
  });

  it('checks the layer of a file the way the table says (the checker itself)', () => {
    expect(layerOf('commands/call/list.ts')).toBe('commands');
    expect(layerOf('commands/shared.ts')).toBe('commands-shared');
    expect(layerOf('campaigns/run/loop.ts')).toBe('campaigns');
    expect(allowed('commands/call/list.ts', 'commands/call/fields.ts')).toBe(true);
    expect(allowed('commands/call/list.ts', 'commands/campaign/fields.ts')).toBe(false);
    expect(allowed('api/client.ts', 'io/output.ts')).toBe(false);
    expect(allowed('sandbox/server.ts', 'api/client.ts')).toBe(false);
    expect(allowed('util/time.ts', 'errors.ts')).toBe(false);
    expect(allowed('campaigns/create-run.ts', 'commands/campaign/create.ts')).toBe(false);
  });
});

describe('verbs and domain modules leave terminals and formats to src/io', () => {
  const checked = srcFiles.filter((f) => {
    const layer = layerOf(f)!;
    return (layer === 'commands' || layer === 'commands-shared' || DOMAINS.includes(layer)) && !VIEWS.some((v) => v.file === f);
  });
  const found = checked.flatMap((file) => PATTERNS.filter((p) => new RegExp(p.source).test(code.get(file)!)).map((p) => `${file}: ${p.name}`));
  const exceptions = PATTERN_EXCEPTIONS.map((e) => `${e.file}: ${e.pattern}`);

  it('has none of the forbidden patterns outside the named exceptions', () => {
    expect(found.filter((f) => !exceptions.includes(f))).toEqual([]);
  });

  it('has no pattern exception or view that no longer applies', () => {
    expect(exceptions.filter((e) => !found.includes(e))).toEqual([]);
    expect(VIEWS.filter((v) => !code.has(v.file)).map((v) => v.file)).toEqual([]);
  });

  it('finds each pattern (the checker itself)', () => {
    const sample: Record<string, string> = {
      isTTY: 'if (ctx.io.stdout.isTTY) x();',
      'ctx.opts.output': "if (ctx.opts.output === 'csv') x();",
      'escape sequence': "write('\\x1b[K'); write('\\u001b[2J')",
      'direct write': 'process.stderr.write(s); ctx.io.stdout.write(s)',
    };
    for (const p of PATTERNS) expect(new RegExp(p.source).test(sample[p.name]!), p.name).toBe(true);
    // shown escaped for a person ("\\x1b" in the source) is not an escape sequence
    expect(new RegExp(PATTERNS.find((p) => p.name === 'escape sequence')!.source).test("'shown as \\\\x1b'")).toBe(false);
  });
});

describe('tests seed the sandbox through the factory module', () => {
  // fetch() to the sandbox: any fetch call other than to a receiver the test started on loopback
  const SANDBOX_FETCH = /(?<![.\w])fetch\(\s*(?!`http:\/\/127\.0\.0\.1:)/;
  const testFiles = filesUnder(TEST).map((f) => relative(TEST, f));
  const seeding = testFiles.filter((f) => f !== FACTORY && /sandbox|harness\(/i.test(readFileSync(join(TEST, f), 'utf8'))
    && SANDBOX_FETCH.test(withoutComments(readFileSync(join(TEST, f), 'utf8'))));
  const isExcepted = (f: string) => FETCH_EXCEPTIONS.some((e) => covers(e.file, f));

  it('has no test calling the sandbox with its own fetch outside the named exceptions', () => {
    expect(seeding.filter((f) => !isExcepted(f))).toEqual([]);
  });

  it('has no fetch exception that no longer applies', () => {
    expect(FETCH_EXCEPTIONS.filter((e) => !seeding.some((f) => covers(e.file, f))).map((e) => e.file)).toEqual([]);
  });
});

describe('repeats kept on purpose', () => {
  it('names only files that exist, each pair once, each with a reason', () => {
    const root = join(fileURLToPath(new URL('../..', import.meta.url)));
    expect(REPEATS.filter((r) => r.files.some((f) => !existsSync(join(root, r.folder, f))))).toEqual([]);
    const keys = REPEATS.map((r) => `${r.folder}:${[...r.files].sort().join('~')}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of REPEATS) expect(r.reason.length).toBeGreaterThan(20);
  });
});
