import { cachedDataVersionTag } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { asShortJob, choosesCompilers, sizesYoungGeneration } from '../../src/util/short-run.js';

// V8's cache tag hashes its flags: it differs while the optimizing compiler is off, and is
// the one V8 started with once it is back on (on Node 22, with what turning it off implied).
const on = cachedDataVersionTag();

describe('asShortJob', () => {

  it('turns the optimizing compiler off for the job and back on after it', async () => {
    let during: number | undefined;
    const value = await asShortJob(async () => {
      during = cachedDataVersionTag();
      return 42;
    });
    expect(value).toBe(42);
    expect(during).not.toBe(on);
    expect(cachedDataVersionTag()).toBe(on);
  });

  it('keeps it off until the last of overlapping jobs ends', async () => {
    let endFirst!: () => void;
    const first = asShortJob(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const off = cachedDataVersionTag();
    expect(off).not.toBe(on);
    await asShortJob(async () => undefined);
    expect(cachedDataVersionTag()).toBe(off); // the first job still runs
    endFirst();
    await first;
    expect(cachedDataVersionTag()).toBe(on);
  });

  it('turns it back on when the job fails', async () => {
    await expect(asShortJob(async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    expect(cachedDataVersionTag()).toBe(on);
  });

  it("leaves alone a person's own choice of V8's compilers", () => {
    expect(choosesCompilers(['--jitless'], undefined)).toBe(true);
    expect(choosesCompilers([], '--max-old-space-size=4096 --no-opt')).toBe(true);
    expect(choosesCompilers(['--turbofan'], '')).toBe(true);
    expect(choosesCompilers([], '--no-osr-from-maglev')).toBe(true);
    expect(choosesCompilers([], '--no_turbofan')).toBe(true);
    expect(choosesCompilers(['--enable-source-maps'], '--max-old-space-size=4096')).toBe(false);
    expect(choosesCompilers([], undefined)).toBe(false);
  });

  it("leaves alone a person's own sizes of V8's young generation", () => {
    expect(sizesYoungGeneration(['--max-semi-space-size=64'], undefined)).toBe(true);
    expect(sizesYoungGeneration([], '--semi-space-growth-factor=4')).toBe(true);
    expect(sizesYoungGeneration([], '--min_semi_space_size=2')).toBe(true);
    expect(sizesYoungGeneration(['--max-old-space-size=4096'], '--no-opt')).toBe(false);
    expect(sizesYoungGeneration([], undefined)).toBe(false);
  });
});
