/**
 * One spelling of each small thing, and the type escapes held under a ceiling: a count's
 * word (plural and noun in src/text/text.ts), a whole number's digits (grouped there, without
 * Intl, whose first call costs a command ~20 ms), a duration (duration there too) and the JSON
 * object guard (isObject in src/util/is-object.ts) are written once; `as unknown as` and
 * `as Record<string, unknown>` may not grow past the counts below (lower them when a
 * change removes some: an escape the typing could have caught is a bug waiting).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsFilesUnder, withoutComments } from './source-files.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const code = new Map(tsFilesUnder(SRC).map((f) => [relative(SRC, f), withoutComments(readFileSync(f, 'utf8'))]));

/** How often `pattern` occurs in src/, per file. */
function occurrences(pattern: RegExp): Map<string, number> {
  const out = new Map<string, number>();
  for (const [file, text] of code) {
    const n = [...text.matchAll(pattern)].length;
    if (n > 0) out.set(file, n);
  }
  return out;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** The ceilings: at most this many of each escape in src/. */
export const ESCAPES = { 'as unknown as': 14, 'as Record<string, unknown>': 34 } as const;

/**
 * Copies that stay for now, each with why. The list only shrinks: a copy gone from a file
 * named here fails too, so the entry is removed with it.
 */
const KEPT: { isObject: Record<string, string>; plural: Record<string, string> } = {
  isObject: {},
  plural: {},
};

describe('one spelling', () => {
  it('of the JSON object guard: isObject in src/util/is-object.ts', () => {
    const copies = [...occurrences(/\b(?:function\s+|const\s+)(?:isObject|isPlainObject|isRecord|plain)\s*=?\s*\(\s*\w+\s*:\s*unknown\s*\)/g).keys()].filter((f) => f !== 'util/is-object.ts');
    expect(copies.sort()).toEqual(Object.keys(KEPT.isObject).sort());
  });

  it('of a count\'s word: plural() and noun() in src/text/text.ts, not `n === 1 ? \'\' : \'s\'`', () => {
    const inline = [...occurrences(/===\s*1\s*\?\s*''\s*:\s*'s'|!==\s*1\s*\?\s*'s'\s*:\s*''/g).keys()];
    expect(inline.sort()).toEqual(Object.keys(KEPT.plural).sort());
  });

  it('of a whole number for people: grouped() in src/text/text.ts ("12,000"), not toLocaleString(\'en-US\')', () => {
    // The sandbox (an emulator, not voicectl's output) and a money amount with its decimals are not whole-number counts.
    const copies = [...occurrences(/\.toLocaleString\('en-US'\)/g).keys()].filter((f) => f !== 'text/text.ts' && !f.startsWith('sandbox/'));
    expect(copies).toEqual([]);
  });

  it('of a duration: duration() in src/text/text.ts', () => {
    const copies = [...occurrences(/\bfunction\s+duration\s*\(/g).keys()];
    expect(copies).toEqual(['text/text.ts']);
  });
});

describe('type escapes', () => {
  for (const [escape, ceiling] of Object.entries(ESCAPES)) {
    it(`"${escape}" stays at ${ceiling} or fewer`, () => {
      const found = occurrences(new RegExp(escape.replace(/[<>]/g, '\\$&'), 'g'));
      const where = [...found].sort((a, b) => b[1] - a[1]).map(([f, n]) => `${f}: ${n}`).join(', ');
      expect(total(found), where).toBeLessThanOrEqual(ceiling);
    });
  }
});
