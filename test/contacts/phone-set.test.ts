/**
 * PhoneSet, the duplicate finder of `contacts validate`: the first row of each number,
 * exactly as a Map of the numbers' text would give it, through the table's growth.
 */
import { describe, expect, it } from 'vitest';
import { PhoneSet } from '../../src/contacts/phone-set.js';

/** A number of `digits` digits, the first not 0, from a seeded generator. */
function numbers(count: number, seed: number): string[] {
  let s = seed;
  const rand = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const digits = 2 + Math.floor(rand() * 19); // 2 to 20
    let n = String(1 + Math.floor(rand() * 9));
    while (n.length < digits) n += String(Math.floor(rand() * 10));
    out.push(`+${n}`);
  }
  return out;
}

describe('PhoneSet', () => {
  it('gives each number its first row, as a Map of the text does, through growth and with numbers of 2 to 20 digits', () => {
    const fresh = numbers(20_000, 11);
    // Each number again, some several times, in another order: duplicates far from their first row.
    const rows = [...fresh, ...fresh.filter((_, i) => i % 3 === 0).reverse(), ...fresh.slice(0, 500)];
    const set = new PhoneSet(16);
    const map = new Map<string, number>();
    rows.forEach((n, i) => {
      const row = i + 2;
      const expected = map.get(n);
      if (expected === undefined) map.set(n, row);
      expect(set.firstRowOrAdd(n, row), n).toBe(expected);
    });
    expect(set.size).toBe(map.size);
  });

  it('tells apart numbers a double cannot (17 digits), and numbers whose halves look alike', () => {
    // A double holds 17 digits inexactly: these two are one double, and were one number to a table of doubles.
    const a = '+49123456789012345';
    const b = '+49123456789012344';
    expect(Number(a.slice(1))).toBe(Number(b.slice(1)));
    // Same last eight digits, high halves of different lengths; eight digits against nine.
    const cells = [a, b, '+1200000001', '+12200000001', '+112200000001', '+12345678', '+123456789', '+1234567890123456'];
    const set = new PhoneSet();
    cells.forEach((n, i) => expect(set.firstRowOrAdd(n, i + 2), n).toBeUndefined());
    cells.forEach((n, i) => expect(set.firstRowOrAdd(n, 100 + i), n).toBe(i + 2));
    expect(set.size).toBe(cells.length);
  });
});
