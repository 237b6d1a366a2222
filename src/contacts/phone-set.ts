/**
 * Numbers seen so far, each with the row it was first seen in. A number of up to 15
 * digits fits exactly in a double; an open-addressing table over typed arrays holds a
 * million numbers in ~17 MB, where a Map of strings takes ~100 MB. A few numbering plans
 * allow longer numbers (Germany's reach 17 digits with +49), which a double would round
 * (two of them could be one): those are kept by their text.
 */
/** "+" and 15 digits: longer numbers do not fit a double exactly. */
const MAX_EXACT_LENGTH = 16;
const MAX_LOAD = 0.75;

export class PhoneSet {
  private keys: Float64Array;
  private rows: Int32Array;
  private count = 0;
  /** Numbers of more than 15 digits, by their text. */
  private long?: Map<string, number>;

  constructor(capacity = 1 << 14) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.rows = new Int32Array(this.keys.length);
  }

  get size(): number {
    return this.count;
  }

  /** The row where `e164` was first added, or undefined (and then it is added with `row`). */
  firstRowOrAdd(e164: string, row: number): number | undefined {
    if (e164.length > MAX_EXACT_LENGTH) return this.firstRowOrAddLong(e164, row);
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

  private firstRowOrAddLong(e164: string, row: number): number | undefined {
    this.long ??= new Map();
    const first = this.long.get(e164);
    if (first !== undefined) return first;
    this.long.set(e164, row);
    this.count++;
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
