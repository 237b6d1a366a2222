/**
 * Seeded randomness (sfc32 over a 128-bit cyrb128 hash of a string), so --seed makes
 * ids, outcomes and transcripts repeat exactly. Not for anything secret.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    [this.a, this.b, this.c, this.d] = cyrb128(String(seed));
    for (let i = 0; i < 12; i++) this.next();
  }

  /** The generator's position, to continue the same sequence after a restart. */
  get state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  set state(s: [number, number, number, number]) {
    [this.a, this.b, this.c, this.d] = s;
  }

  /** A float in [0, 1). */
  next(): number {
    let { a, b, c, d } = this;
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    this.a = a; this.b = b; this.c = c; this.d = d;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  hex(chars: number): string {
    let s = '';
    while (s.length < chars) s += ((this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    return s.slice(0, chars);
  }

  /** A version-4 shaped UUID. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

export function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1; h3 ^= h1; h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * Returns s flattened: V8 builds concatenations and JSON.stringify results as ropes of
 * pieces, which cost a third more memory when kept. Converting to a number flattens the
 * string in place (an engine detail; harmless elsewhere). Used for strings stored by the
 * 100,000 (call ids, summaries, cached JSON).
 */
export function flat(s: string): string {
  Number(s);
  return s;
}
