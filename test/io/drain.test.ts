/**
 * The exit waits for stdout and stderr to hand over what they hold (src/io/drain.ts): a
 * stream here takes its writes only when the test lets it, as a pipe to a slow reader does.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushed, exitWhenIdle, pending } from '../../src/io/drain.js';

/** A stream whose writes finish only when `release()` is called. */
function slowStream(): { stream: Writable; release(): void; taken: string[] } {
  const waiting: Array<() => void> = [];
  const taken: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      waiting.push(() => {
        taken.push(chunk.toString());
        done();
      });
    },
  });
  return { stream, taken, release: () => { while (waiting.length) waiting.shift()!(); } };
}

const tick = () => new Promise((r) => setImmediate(r));

afterEach(() => vi.useRealTimers());

describe('flushed', () => {
  it('resolves at once when nothing is held', async () => {
    const { stream } = slowStream();
    expect(pending(stream)).toBe(0);
    await flushed(stream);
  });

  it('resolves only once every earlier write has left, and adds nothing to the output', async () => {
    const s = slowStream();
    s.stream.write('a'.repeat(100_000));
    s.stream.write('b');
    let done = false;
    void flushed(s.stream).then(() => (done = true));
    for (let i = 0; i < 5; i++) {
      await tick();
      s.release();
    }
    await tick();
    expect(done).toBe(true);
    expect(s.taken.join('')).toBe(`${'a'.repeat(100_000)}b`);
  });

  it('resolves when the stream fails instead of delivering', async () => {
    const stream = new Writable({ write: (_c, _e, done) => setImmediate(() => done(new Error('EIO'))) });
    stream.on('error', () => {});
    stream.write('x');
    await flushed(stream);
  });
});

describe('exitWhenIdle (the safety net)', () => {
  it('exits after the delay when stdout and stderr hold nothing', () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    exitWhenIdle([slowStream().stream, slowStream().stream], 0, 3000, exit);
    vi.advanceTimersByTime(2999);
    expect(exit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('never exits while stderr (or stdout) still holds data; waits for it, then gives the delay again', async () => {
    vi.useFakeTimers();
    const out = slowStream();
    const err = slowStream();
    err.stream.write('warning: something\n');
    const exit = vi.fn();
    exitWhenIdle([out.stream, err.stream], 1, 3000, exit);
    vi.advanceTimersByTime(60_000);
    expect(exit).not.toHaveBeenCalled();
    err.release();
    await vi.advanceTimersByTimeAsync(0);
    err.release();
    await vi.advanceTimersByTimeAsync(2999);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledWith(1);
    expect(err.taken.join('')).toBe('warning: something\n');
  });
});
