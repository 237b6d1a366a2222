/**
 * An action file never imports values from its spec (its group's definition.ts), only its
 * flags type: the spec loads the action only when the verb runs, and what both need (a
 * parser, a list of values) lives in a small module of its own.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsFilesUnder } from './source-files.js';

const COMMANDS_DIR = fileURLToPath(new URL('../../src/commands', import.meta.url));

const withoutComments = (code: string) => code.replace(/\/\*[^]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The value imports of a file from its folder's definition.ts (`import type` and `type X` names are types). */
export function valuesFromSpec(code: string): string[] {
  const found: string[] = [];
  const IMPORT = /\bimport\s+(type\s+)?([^'";]*?)\s+from\s+['"]\.\/definition\.js['"]|\bimport\(\s*['"]\.\/definition\.js['"]\s*\)/g;
  for (const m of withoutComments(code).matchAll(IMPORT)) {
    if (m[0].startsWith('import(')) {
      found.push('import()');
      continue;
    }
    if (m[1]) continue;
    const clause = m[2]!;
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    const others = clause.replace(/\{[^}]*\}/, '').split(',').map((s) => s.trim()).filter(Boolean);
    found.push(...others, ...named.split(',').map((s) => s.trim()).filter((s) => s !== '' && !s.startsWith('type ')));
  }
  return found;
}

describe('verb actions', () => {
  it('finds value imports from a spec (the checker itself)', () => {
    expect(valuesFromSpec("import { spanOrUndefined, type RunFlags } from './definition.js';")).toEqual(['spanOrUndefined']);
    expect(valuesFromSpec("import type { RunFlags } from './definition.js';\nimport { type A, type B } from './definition.js';")).toEqual([]);
    expect(valuesFromSpec("import spec, { X } from './definition.js';\nconst d = await import('./definition.js');")).toEqual(['spec', 'X', 'import()']);
  });

  it('take only types from their spec: no action file imports values from definition.ts', () => {
    const offending = tsFilesUnder(COMMANDS_DIR)
      .filter((f) => !f.endsWith('/definition.ts'))
      .flatMap((f) => valuesFromSpec(readFileSync(f, 'utf8')).map((name) => `src/commands/${relative(COMMANDS_DIR, f)}: ${name}`));
    expect(offending).toEqual([]);
  });
});
