import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/sandbox/clock.js';
import { waitFor } from './helpers.js';

describe('SimClock', () => {
  it('starts at the given simulated time and runs scale times faster', async () => {
    const clock = new SimClock(1_000_000, Date.parse('2025-01-01T00:00:00Z'));
    expect(clock.now()).toBeGreaterThanOrEqual(Date.parse('2025-01-01T00:00:00Z'));
    await new Promise((r) => setTimeout(r, 20));
    // At least 20 real ms passed, so at least 20,000 simulated seconds.
    expect(clock.now() - Date.parse('2025-01-01T00:00:00Z')).toBeGreaterThanOrEqual(20_000_000);
    clock.close();
  });

  it('runs timers in due order, and equal due times in the order they were set', async () => {
    const clock = new SimClock(100_000, 0);
    const seen: string[] = [];
    const at = clock.now() + 60_000;
    clock.at(at + 1000, () => seen.push('later'));
    for (const name of ['a', 'b', 'c', 'd']) clock.at(at, () => seen.push(name));
    clock.at(at - 1000, () => seen.push('first'));
    await waitFor(() => (seen.length === 6 ? true : undefined), 5000, 'timers');
    expect(seen).toEqual(['first', 'a', 'b', 'c', 'd', 'later']);
    clock.close();
  });

  it('cancels a timer, keeps running when one throws, and clears everything on close', async () => {
    const errors: unknown[] = [];
    const clock = new SimClock(100_000, 0, (err) => errors.push(err));
    const seen: string[] = [];
    const cancel = clock.after(10_000, () => seen.push('cancelled'));
    clock.after(10_000, () => { throw new Error('boom'); });
    clock.after(20_000, () => seen.push('ran'));
    const far = clock.after(86_400_000 * 365, () => seen.push('never'));
    cancel();
    expect(clock.pending).toBe(3);
    await waitFor(() => (seen.includes('ran') ? true : undefined), 5000, 'the timer');
    expect(seen).toEqual(['ran']);
    expect(errors).toHaveLength(1);
    expect(clock.pending).toBe(1);
    clock.close();
    expect(clock.pending).toBe(0);
    far();
    clock.after(0, () => seen.push('after close'));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['ran']);
  });
  it('stands still while paused (timers wait), then runs on from where it stopped, at a new scale without a jump', async () => {
    const clock = new SimClock(1_000, 0);
    clock.pause();
    const frozen = clock.now();
    const seen: string[] = [];
    clock.after(0, () => seen.push('due'));
    await new Promise((r) => setTimeout(r, 30));
    expect(clock.paused).toBe(true);
    expect(clock.now()).toBe(frozen);
    expect(seen).toEqual([]);
    clock.rescale(100_000);
    expect(clock.now()).toBe(frozen);
    clock.resume();
    await waitFor(() => (seen.length ? true : undefined), 5000, 'the timer');
    expect(clock.now()).toBeGreaterThanOrEqual(frozen);
    expect(clock.scale).toBe(100_000);
    const before = clock.now();
    clock.rescale(10);
    expect(clock.now() - before).toBeLessThan(100_000);
    clock.close();
  });
});
