/**
 * No dead code under src/: a declaration nothing reads (an import, a function, a
 * variable) fails here, as the compiler's own unused-locals check finds it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('src/', () => {
  it('declares nothing it never reads', () => {
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--noEmit', '--noUnusedLocals'], { cwd: ROOT, encoding: 'utf8' });
    const unused = `${tsc.stdout}${tsc.stderr}`.split('\n').filter((line) => /^src\/.*error TS(6133|6192|6196|6198)/.test(line));
    expect(unused).toEqual([]);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  }, 120_000);
});
