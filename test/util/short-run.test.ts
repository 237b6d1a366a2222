import { cachedDataVersionTag } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { choosesCompilers, withoutOptimizingCompiler } from '../../src/util/short-run.js';

// V8's cache tag hashes its flags: it differs while the optimizing compiler is off, and is
// the one V8 started with once it is back on (on Node 22, with what turning it off implied).
const on = cachedDataVersionTag();

describe('withoutOptimizingCompiler', () => {

  it('turns the optimizing compiler off for the job and back on after it', async () => {
    let during: number | undefined;
    const value = await withoutOptimizingCompiler(async () => {
      during = cachedDataVersionTag();
      return 42;
    });
    expect(value).toBe(42);
    expect(during).not.toBe(on);
    expect(cachedDataVersionTag()).toBe(on);
  });

  it('keeps it off until the last of overlapping jobs ends', async () => {
    let endFirst!: () => void;
    const first = withoutOptimizingCompiler(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const off = cachedDataVersionTag();
    expect(off).not.toBe(on);
    await withoutOptimizingCompiler(async () => undefined);
    expect(cachedDataVersionTag()).toBe(off); // the first job still runs
    endFirst();
    await first;
    expect(cachedDataVersionTag()).toBe(on);
  });

  it('turns it back on when the job fails', async () => {
    await expect(withoutOptimizingCompiler(async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(cachedDataVersionTag()).toBe(on);
  });

  it("leaves alone a person's own choice of V8's compilers", () => {
    expect(choosesCompilers(['--jitless'], undefined)).toBe(true);
    expect(choosesCompilers([], '--max-old-space-size=4096 --no-opt')).toBe(true);
    expect(choosesCompilers(['--turbofan'], '')).toBe(true);
    expect(choosesCompilers([], '--no-osr-from-maglev')).toBe(true);
    expect(choosesCompilers(['--enable-source-maps'], '--max-old-space-size=4096')).toBe(false);
    expect(choosesCompilers([], undefined)).toBe(false);
  });
});
