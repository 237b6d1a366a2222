/**
 * Numbers seen so far, each with the row it was first seen in. An E.164 number has at
 * most 15 digits, so it fits exactly in a double; an open-addressing table over typed
 * arrays holds a million numbers in ~24 MB, where a Map of strings takes ~100 MB.
 */
export class PhoneSet {
    keys;
    rows;
    mask;
    count = 0;
    constructor(capacity = 1 << 14) {
        const size = 1 << Math.ceil(Math.log2(Math.max(16, capacity)));
        this.keys = new Float64Array(size);
        this.rows = new Int32Array(size);
        this.mask = size - 1;
    }
    get size() {
        return this.count;
    }
    /** The row where `e164` was first added, or undefined (and then it is added with `row`). */
    firstRowOrAdd(e164, row) {
        const key = Number(e164.slice(1));
        let i = hash(key) & this.mask;
        for (;;) {
            const k = this.keys[i];
            if (k === 0)
                break;
            if (k === key)
                return this.rows[i];
            i = (i + 1) & this.mask;
        }
        this.keys[i] = key;
        this.rows[i] = row;
        if (++this.count * 2 > this.keys.length)
            this.grow();
        return undefined;
    }
    grow() {
        const oldKeys = this.keys;
        const oldRows = this.rows;
        this.keys = new Float64Array(oldKeys.length * 2);
        this.rows = new Int32Array(oldKeys.length * 2);
        this.mask = this.keys.length - 1;
        for (let j = 0; j < oldKeys.length; j++) {
            const key = oldKeys[j];
            if (key === 0)
                continue;
            let i = hash(key) & this.mask;
            while (this.keys[i] !== 0)
                i = (i + 1) & this.mask;
            this.keys[i] = key;
            this.rows[i] = oldRows[j];
        }
    }
}
function hash(key) {
    const lo = key >>> 0;
    const hi = Math.floor(key / 4294967296) >>> 0;
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
}
