/**
 * Holds src/ to the layer map in layers.ts: the layers are a strict order with no loop,
 * every import (type-only included) is one the map allows or a named exception, and every
 * grant is used; only src/io decides the terminal (terminal, colour, format, prompts,
 * progress) and verbs and domain modules write through it; tests seed the sandbox through
 * the one factory module. An exception that no longer happens fails too, so the list only
 * shrinks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loops } from './loops.js';
import { IMPORT, withoutComments } from './source-files.js';
import { DECISIONS, DOMAINS, FACTORY, FETCH_EXCEPTIONS, IMPORT_EXCEPTIONS, LAYERS, OUTPUT_PATTERNS, PATTERN_EXCEPTIONS, REPEATS, VIEWS } from './layers.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const TEST = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}


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

/** The loops of a graph of names, each group's names joined by " <-> ", the groups sorted. */
export function loopsIn(graph: Map<string, string[]>): string[] {
  return loops(graph).map((group) => group.join(' <-> ')).sort();
}

/** The layers each layer's files import, as the code has it. */
const used = new Map<string, Set<string>>(LAYERS.map((l) => [l.name, new Set()]));
for (const from of srcFiles) {
  for (const to of importsOf(from)) {
    const a = layerOf(from);
    const b = layerOf(to);
    if (a && b && a !== b) used.get(a)!.add(b);
  }
}

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

  it('is a strict order: each layer may import only layers listed below it', () => {
    const names = LAYERS.map((l) => l.name);
    const upward = LAYERS.flatMap((l, i) => l.may.filter((m) => names.indexOf(m) <= i).map((m) => `${l.name} may import ${m}, which is not below it`));
    expect(upward).toEqual([]);
  });

  it('has no loop: no layer reaches itself through what the layers may import', () => {
    expect(loopsIn(new Map(LAYERS.map((l) => [l.name, l.may])))).toEqual([]);
  });

  it('grants each layer exactly what its files import: no grant that no import uses', () => {
    const unused = LAYERS.flatMap((l) => l.may.filter((m) => !used.get(l.name)!.has(m)).map((m) => `${l.name} may import ${m}, and nothing does`));
    expect(unused).toEqual([]);
  });

  it('finds every loop (the checker itself)', () => {
    const graph = new Map([['a', ['b']], ['b', ['c', 'd']], ['c', ['a', 'b']], ['d', ['d']], ['e', ['a']], ['f', ['g']], ['g', ['f', 'e']]]);
    expect(loopsIn(graph)).toEqual(['a <-> b <-> c', 'd', 'f <-> g']);
    expect(loopsIn(new Map([['x', ['y']], ['y', []]]))).toEqual([]);
  });

  it('keeps src/io below Context: it takes an IoContext, and names no layer above it', () => {
    const io = srcFiles.filter((f) => layerOf(f) === 'io');
    expect(io.filter((f) => importsOf(f).some((to) => !['io', 'text', 'util', 'errors'].includes(layerOf(to)!)))).toEqual([]);
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

describe('only src/io decides the terminal', () => {
  // Every file outside src/io, Context and the entry included: what the decisions are made from is read in src/io alone.
  const deciding = srcFiles.filter((f) => layerOf(f) !== 'io');
  const decisions = deciding.flatMap((file) => DECISIONS.filter((p) => new RegExp(p.source).test(code.get(file)!)).map((p) => `${file}: ${p.name}`));
  // Writing: under src/commands/ and in the domain modules, the views excepted.
  const writing = srcFiles.filter((f) => {
    const layer = layerOf(f)!;
    return (layer === 'commands' || layer === 'commands-shared' || DOMAINS.includes(layer)) && !VIEWS.some((v) => v.file === f);
  });
  const writes = writing.flatMap((file) => OUTPUT_PATTERNS.filter((p) => new RegExp(p.source).test(code.get(file)!)).map((p) => `${file}: ${p.name}`));
  const found = [...decisions, ...writes];
  const exceptions = PATTERN_EXCEPTIONS.map((e) => `${e.file}: ${e.pattern}`);

  it('reads isTTY, widths, NO_COLOR, FORCE_COLOR, TERM, CI and the format, prompt and progress flags nowhere else', () => {
    expect(decisions.filter((f) => !exceptions.includes(f))).toEqual([]);
  });

  it('leaves escape sequences and writes to the streams to src/io under src/commands/ and in the domain modules', () => {
    expect(writes.filter((f) => !exceptions.includes(f))).toEqual([]);
  });

  it('has no exception or view that no longer applies', () => {
    expect(exceptions.filter((e) => !found.includes(e))).toEqual([]);
    expect(VIEWS.filter((v) => !code.has(v.file)).map((v) => v.file)).toEqual([]);
  });

  it('finds each decision and each write, and not what only looks like one (the checker itself)', () => {
    const yes: Record<string, string[]> = {
      terminal: ['if (ctx.io.stdout.isTTY) x();', 'const w = process.stdout.columns;', 'const h = out.rows ?? 24;', "if (env.TERM === 'dumb') x();"],
      colour: ["if (ctx.env.NO_COLOR) x();", "const f = env['FORCE_COLOR'];", 'if (ctx.opts.color === false) x();'],
      format: ["if (ctx.opts.output === 'csv') x();", 'if (opts.json) x();', 'if (ctx.opts.jq !== undefined) x();'],
      prompt: ['if (ctx.opts.input === false) x();', 'if (env.CI) x();', "if (env['CI']) x();"],
      progress: ['if (ctx.opts.accessible) x();', "if (env.VOICECTL_ACCESSIBLE === '1') x();"],
      'escape sequence': ["write('\\x1b[K'); write('\\u001b[2J')"],
      'direct write': ['process.stderr.write(s);', 'ctx.io.stdout.write(s)'],
    };
    const no: Record<string, string[]> = {
      terminal: ['isTTY = false;', '({ isTTY: false, ...writer })', 'for (const c of this.columns) x(c);', 'sheet.columns = widths;'],
      colour: ["env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }", "new Option('--no-color', 'no colour (also NO_COLOR, TERM=dumb)')"],
      format: ["if (opts.format === 'md') x();", 'ctx.io.format'],
      prompt: ['ctx.io.canPrompt()'],
      progress: ['ctx.io.accessible', "new Option('--accessible', 'no spinners (also VOICECTL_ACCESSIBLE=1)')"],
      'escape sequence': ["'shown as \\\\x1b'"],
      'direct write': ['ctx.out(line)'],
    };
    for (const p of [...DECISIONS, ...OUTPUT_PATTERNS]) {
      for (const sample of yes[p.name]!) expect(new RegExp(p.source).test(sample), `${p.name}: ${sample}`).toBe(true);
      for (const sample of no[p.name]!) expect(new RegExp(p.source).test(sample), `${p.name}: ${sample}`).toBe(false);
    }
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
