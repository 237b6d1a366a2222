/** The source files the structure tests read, and their code without comments. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file below `dir`, at any depth. */
export function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFilesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The code without its block and line comments, so that prose never counts as code. */
export const withoutComments = (code: string) => code.replace(/\/\*[^]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');

/** An import of another file: static, type-only, a re-export (the path in group 1) or import() (group 2). */
export const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
