/**
 * The call ids an export has written, kept as 64-bit hashes in a typed-array hash table
 * (at most half full): 16 to 32 bytes a call instead of a string and a Set entry (about
 * 120), so exactly-once costs about 2 MB per 100,000 calls and keeps no strings alive.
 * Two different ids share a hash with odds of about n²/2⁶⁵ (5·10⁻¹⁰ for 100,000 calls).
 */
export class IdSet {
  private table = new Uint32Array(2 * 4096);
  private mask = 4096 - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds the id; false when it was already there. */
  add(id: string): boolean {
    let a = 0x811c9dc5;
    let b = 0x9e3779b9;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = fmix(a ^ id.length);
    b = fmix(b + id.length) || 1; // (0, 0) marks an empty slot
    if (this.count * 2 >= this.mask) this.grow();
    return this.insert(a, b);
  }

  private insert(a: number, b: number): boolean {
    const t = this.table;
    for (let slot = a & this.mask; ; slot = (slot + 1) & this.mask) {
      const x = t[slot * 2]!;
      const y = t[slot * 2 + 1]!;
      if (x === 0 && y === 0) {
        t[slot * 2] = a;
        t[slot * 2 + 1] = b;
        this.count++;
        return true;
      }
      if (x === a && y === b) return false;
    }
  }

  private grow(): void {
    const old = this.table;
    const size = (this.mask + 1) * 2;
    this.table = new Uint32Array(size * 2);
    this.mask = size - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] !== 0 || old[i + 1] !== 0) this.insert(old[i]!, old[i + 1]!);
    }
  }
}

/** murmur3's finalizer: every input bit moves every output bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
