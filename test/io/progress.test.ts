/**
 * The one progress indicator: when it draws (one rule for every spinner, counter, bar and
 * countdown) and what it draws.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { Env, GlobalOptions } from '../../src/context.js';
import { testContext } from '../../src/context-test.js';
import { Counter, countdown, drawsProgress, ProgressBar, ProgressLine, withSpinner } from '../../src/io/progress.js';

function context(o: { stderrTty?: boolean; stdoutTty?: boolean; env?: Env; opts?: GlobalOptions; now?: () => Date; sleep?: (ms: number) => Promise<void> } = {}) {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
  Object.assign(io.stderr, { isTTY: o.stderrTty ?? true, columns: 80 });
  Object.assign(io.stdout, { isTTY: o.stdoutTty ?? false, columns: 80 });
  const ctx = testContext({ io, env: o.env ?? {}, now: o.now, sleep: o.sleep, opts: o.opts ?? {} });
  return { ctx, err: () => ctx.stderrText(), out: () => ctx.stdoutText() };
}

describe('drawsProgress: the one terminal rule', () => {
  it('draws on a terminal\'s stderr when a person reads the output', () => {
    expect(drawsProgress(context().ctx)).toBe(true);
  });

  it('never in a pipe, on TERM=dumb, in accessible mode, or under --json / -o', () => {
    expect(drawsProgress(context({ stderrTty: false }).ctx)).toBe(false);
    expect(drawsProgress(context({ env: { TERM: 'dumb' } }).ctx)).toBe(false);
    expect(drawsProgress(context({ opts: { accessible: true } }).ctx)).toBe(false);
    expect(drawsProgress(context({ env: { VOICECTL_ACCESSIBLE: '1' } }).ctx)).toBe(false);
    expect(drawsProgress(context({ opts: { json: true } }).ctx)).toBe(false);
    expect(drawsProgress(context({ opts: { output: 'csv' } }).ctx)).toBe(false);
  });

  it('data written while it draws: to a file it draws whatever the format; to stdout only when stdout is not that terminal', () => {
    expect(drawsProgress(context({ opts: { json: true } }).ctx, { data: 'file' })).toBe(true);
    expect(drawsProgress(context({ stdoutTty: true }).ctx, { data: 'stdout' })).toBe(false);
    expect(drawsProgress(context({ stdoutTty: false, opts: { output: 'jsonl' } }).ctx, { data: 'stdout' })).toBe(true);
    expect(drawsProgress(context({ stderrTty: false }).ctx, { data: 'file' })).toBe(false);
  });
});

describe('ProgressLine', () => {
  it('redraws in place, cuts to the width, keeps printed lines above it and clears', () => {
    const { ctx, err } = context();
    const line = new ProgressLine(ctx);
    line.draw('working');
    line.print('one file done');
    line.draw('x'.repeat(200));
    line.clear();
    expect(err()).toBe(`\r\x1b[Kworking\r\x1b[Kone file done\n\r\x1b[Kworking\r\x1b[K${'x'.repeat(78)}…\r\x1b[K`);
  });

  it('writes nothing off a terminal, but printed lines still appear', () => {
    const { ctx, err } = context({ stderrTty: false });
    const line = new ProgressLine(ctx);
    line.draw('working');
    line.print('done');
    line.clear();
    expect(err()).toBe('done\n');
  });
});

describe('Counter', () => {
  it('is quiet at first, then redraws at most every everyMs; keep() leaves the last count', () => {
    let t = 0;
    const { ctx, err } = context();
    const c = new Counter(ctx, (n) => `Checked ${n} rows…`, { quietMs: 500, everyMs: 100, now: () => t });
    c.update(10);
    t = 600;
    c.update(20);
    t = 650;
    c.update(30);
    t = 700;
    c.update(40);
    c.keep();
    expect(err()).toBe('\r\x1b[KChecked 20 rows…\r\x1b[KChecked 40 rows…\n');
  });

  it('under --json draws nothing', () => {
    const { ctx, err } = context({ opts: { json: true } });
    const c = new Counter(ctx, (n) => `${n}`);
    c.update(1);
    c.clear();
    expect(c.live).toBe(false);
    expect(err()).toBe('');
  });
});

describe('ProgressBar', () => {
  function bar(unit: 'rows' | 'bytes', total?: number, tty = true) {
    let t = 0;
    const { ctx, err } = context({ stderrTty: tty });
    const p = new ProgressBar(ctx, { unit, total, label: 'Exporting', data: 'file', now: () => t });
    return { p, advance: (ms: number) => (t += ms), text: err };
  }

  it('shows rows of total, the rate and the time left', () => {
    const b = bar('rows', 10_000);
    b.advance(2000);
    b.p.add(2500);
    expect(b.p.line()).toBe(`Exporting  [██████${'░'.repeat(18)}]  2,500/10,000 rows  1,250/s  0:06 left`);
    expect(b.text()).toContain('2,500/10,000 rows');
    b.p.clear();
    expect(b.text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('shows bytes without a total', () => {
    const b = bar('bytes');
    b.advance(1000);
    b.p.add(3 * 1024 * 1024);
    expect(b.p.line()).toBe('Exporting  3.0 MB  3.0 MB/s');
  });

  it('writes nothing off a terminal', () => {
    const b = bar('rows', 10, false);
    b.advance(500);
    b.p.add(5);
    b.p.clear();
    expect(b.text()).toBe('');
  });
});

describe('countdown', () => {
  function clockAt(start: number) {
    let t = start;
    return { now: () => new Date(t), sleep: async (ms: number) => { t += ms; } };
  }

  it('on a terminal: a clock redrawn each second, cleared at the end', async () => {
    const c = clockAt(0);
    const { ctx, err } = context(c);
    await countdown(ctx, 3000, { live: (left) => `left ${left}`, plain: () => 'never' });
    expect(err()).toBe('\r\x1b[Kleft 0:03\r\x1b[Kleft 0:02\r\x1b[Kleft 0:01\r\x1b[K');
  });

  it('elsewhere: a plain line each minute', async () => {
    const c = clockAt(0);
    const { ctx, err } = context({ ...c, stderrTty: false });
    await countdown(ctx, 150_000, { live: () => 'never', plain: (ms) => `${Math.ceil(ms / 60_000)} min` });
    expect(err()).toBe('3 min\n2 min\n1 min\n');
  });
});

describe('withSpinner', () => {
  it('returns the work\'s value and draws nothing for quick work or off a terminal', async () => {
    const { ctx, err } = context({ stderrTty: false });
    expect(await withSpinner(ctx, 'Loading', async () => 42)).toBe(42);
    expect(err()).toBe('');
  });

  it('in accessible mode says a long wait once, as a plain line', async () => {
    vi.useFakeTimers();
    try {
      const { ctx, err } = context({ opts: { accessible: true } });
      let finish!: () => void;
      const running = withSpinner(ctx, 'Loading agents', () => new Promise<void>((r) => { finish = r; }));
      await vi.advanceTimersByTimeAsync(1000);
      finish();
      await running;
      expect(err()).toBe('Loading agents…\n');
    } finally {
      vi.useRealTimers();
    }
  });
});
