/**
 * The structure the code keeps (issue "one owner for output"): a verb parses its flags,
 * calls a domain module and hands what it has to src/io, which alone decides between a
 * table, JSON, JSON lines and CSV; a verb never reaches into another group's folder; and
 * no module imports itself through others (type-only imports included, since they tie
 * the modules together for a reader all the same). Imports are read from the source with
 * comments removed: import and export declarations with a `from`, and import() calls.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loops } from './loops.js';
import { IMPORT, tsFilesUnder } from './source-files.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const files = tsFilesUnder(SRC);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

const withoutComments = (code: string) => code.replace(/\/\*[^]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const importsOf = (file: string, which: (m: RegExpMatchArray) => string | undefined) =>
  [...withoutComments(text.get(file)!).matchAll(IMPORT)]
    .map(which)
    .filter((spec): spec is string => spec !== undefined && spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'))
    .filter((target) => text.has(target));

const imports = new Map(files.map((file) => [file, importsOf(file, (m) => m[1] ?? m[2])] as const));

const rel = (f: string) => relative(SRC, f);
const group = (f: string) => /^commands\/([^/]+)\//.exec(rel(f))?.[1];

/** Import circles: the strongly connected components of more than one file, or a file importing itself. */
export const circles = (graph: Map<string, readonly string[]>): string[][] => loops(graph);

describe('structure of src/', () => {
  it('finds circles (the checker itself)', () => {
    const g = new Map<string, string[]>([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
    expect(circles(g)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(circles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no import circles', () => {
    // A verb's spec (its group's definition.ts) loads the verb's action with import() when
    // it runs, and the action takes its flags type from the spec: that pair is the one
    // way round a circle, since the action loads only after every declaration has.
    const spec = (f: string) => /^commands\/[^/]+\/definition\.ts$/.test(rel(f));
    const graph = new Map(files.map((file) => [file, spec(file)
      ? [...importsOf(file, (m) => m[1]), ...importsOf(file, (m) => m[2]).filter((t) => group(t) !== group(file))]
      : imports.get(file)!] as const));
    expect(circles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('has no verb importing from another group\'s folder', () => {
    const crossing = files.flatMap((file) => {
      const from = group(file);
      if (!from) return [];
      return imports.get(file)!.filter((t) => group(t) !== undefined && group(t) !== from).map((t) => `${rel(file)} -> ${rel(t)}`);
    });
    expect(crossing).toEqual([]);
  });

  it('has no file under src/commands deciding the output format (src/io does)', () => {
    const deciding = files.filter((f) => rel(f).startsWith('commands/') && /\bctx\.format\b|\bmachineOutput\b/.test(text.get(f)!));
    expect(deciding.map(rel)).toEqual([]);
  });
});
