/**
 * Numbers seen so far, each with the row it was first seen in. An E.164 number has at
 * most 15 digits, so it fits exactly in a double; an open-addressing table over typed
 * arrays holds a million numbers in ~17 MB, where a Map of strings takes ~100 MB.
 */
const MAX_LOAD = 0.75;

export class PhoneSet {
  private keys: Float64Array;
  private rows: Int32Array;
  private count = 0;

  constructor(capacity = 1 << 14) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.rows = new Int32Array(this.keys.length);
  }

  get size(): number {
    return this.count;
  }

  /** The row where `e164` was first added, or undefined (and then it is added with `row`). */
  firstRowOrAdd(e164: string, row: number): number | undefined {
    const key = Number(e164.slice(1));
    const keys = this.keys;
    const cap = keys.length;
    let i = slot(key, cap);
    for (;;) {
      const k = keys[i]!;
      if (k === 0) break;
      if (k === key) return this.rows[i];
      i = i + 1 === cap ? 0 : i + 1;
    }
    keys[i] = key;
    this.rows[i] = row;
    if (++this.count > cap * MAX_LOAD) this.grow();
    return undefined;
  }

  /** By half, not double: at a million numbers, doubling would briefly hold 36 MB. */
  private grow(): void {
    const oldKeys = this.keys;
    const oldRows = this.rows;
    const cap = Math.ceil(oldKeys.length * 1.5);
    this.keys = new Float64Array(cap);
    this.rows = new Int32Array(cap);
    for (let j = 0; j < oldKeys.length; j++) {
      const key = oldKeys[j]!;
      if (key === 0) continue;
      let i = slot(key, cap);
      while (this.keys[i] !== 0) i = i + 1 === cap ? 0 : i + 1;
      this.keys[i] = key;
      this.rows[i] = oldRows[j]!;
    }
  }
}

/** A well-mixed 32-bit hash of the number, scaled to [0, cap) without a division. */
function slot(key: number, cap: number): number {
  const lo = key >>> 0;
  const hi = Math.floor(key / 4294967296) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return Math.floor((h * cap) / 4294967296);
}
