import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drained } from '../../src/util/drained.js';
import { firstEvent } from '../../src/util/first-event.js';

describe('firstEvent', () => {
  it('answers the first of the events named, with its arguments, and stops listening to all of them', async () => {
    const e = new EventEmitter();
    const first = firstEvent(e, ['entry', 'end', 'error']);
    e.emit('error', new Error('boom'));
    e.emit('entry', 'late');
    const { name, args } = await first;
    expect(name).toBe('error');
    expect((args[0] as Error).message).toBe('boom');
    expect(['entry', 'end', 'error'].map((n) => e.listenerCount(n))).toEqual([0, 0, 0]);
  });
});

describe('drained', () => {
  it('resolves when the stream can take more, or has closed, and leaves no listener behind', async () => {
    const out = new PassThrough({ highWaterMark: 1 });
    out.write('xx');
    const waiting = drained(out);
    out.read();
    await waiting;
    const closing = drained(out);
    out.destroy();
    await closing;
    expect(['drain', 'close', 'error'].map((n) => out.listenerCount(n))).toEqual([0, 0, 0]);
  });
});
