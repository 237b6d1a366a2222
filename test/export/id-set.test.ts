import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/export/id-set.js';

describe('IdSet', () => {
  it('says whether an id is new, across growth, without false matches', () => {
    const s = new IdSet();
    const n = 200_000;
    let added = 0;
    for (let i = 0; i < n; i++) if (s.add(`call_${i.toString(16).padStart(24, '0')}`)) added++;
    expect(added).toBe(n);
    expect(s.size).toBe(n);
    for (let i = 0; i < n; i += 997) expect(s.add(`call_${i.toString(16).padStart(24, '0')}`)).toBe(false);
    expect(s.size).toBe(n);
  });

  it('tells apart ids that differ only in order, length or case', () => {
    const s = new IdSet();
    for (const id of ['ab', 'ba', 'a', 'aa', 'AB', '', 'ab\u0000', '12', '21']) expect(s.add(id)).toBe(true);
    expect(s.add('ab')).toBe(false);
    expect(s.add('')).toBe(false);
  });
});
