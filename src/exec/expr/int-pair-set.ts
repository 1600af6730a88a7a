/**
 * IntPairSet: the set of (group id, integer value) pairs DistinctRows has seen for count / sum / min / max
 * (DISTINCT x) over one integer argument (TPC-H Q16's count(DISTINCT ps_suppkey) per brand, type and size).
 * Open addressing over an Int32Array of group ids and a Float64Array of the values as exact doubles: a pair costs
 * no key array, no BigInt and no hashing of a generic key tuple, as the two-column GroupTable did.
 * Values must be integers below 2^53 in magnitude (the caller falls back to a GroupTable otherwise).
 */

const EMPTY = -1;
const TWO_32 = 4294967296;

export class IntPairSet {
  #gids: Int32Array;
  #values: Float64Array;
  #mask: number;
  #size = 0;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.#gids = new Int32Array(cap).fill(EMPTY);
    this.#values = new Float64Array(cap);
    this.#mask = cap - 1;
  }

  get size(): number { return this.#size; }

  /** adds (g, x), g ≥ 0; true when the pair was not in the set */
  add(g: number, x: number): boolean {
    const gids = this.#gids;
    const values = this.#values;
    const mask = this.#mask;
    let s = pairHash(g, x) & mask;
    for (;;) {
      const at = gids[s]!;
      if (at === EMPTY) break;
      if (at === g && values[s] === x) return false;
      s = (s + 1) & mask;
    }
    gids[s] = g;
    values[s] = x;
    if (++this.#size * 2 > mask) this.#grow();
    return true;
  }

  /** every pair, as parallel arrays (for a caller moving them to a GroupTable) */
  pairs(): { readonly gids: number[]; readonly values: number[] } {
    const gids: number[] = [];
    const values: number[] = [];
    for (let s = 0; s < this.#gids.length; s++) {
      if (this.#gids[s] === EMPTY) continue;
      gids.push(this.#gids[s]!);
      values.push(this.#values[s]!);
    }
    return { gids, values };
  }

  #grow(): void {
    const oldGids = this.#gids;
    const oldValues = this.#values;
    const cap = oldGids.length * 2;
    this.#gids = new Int32Array(cap).fill(EMPTY);
    this.#values = new Float64Array(cap);
    this.#mask = cap - 1;
    this.#size = 0;
    for (let s = 0; s < oldGids.length; s++) if (oldGids[s] !== EMPTY) this.add(oldGids[s]!, oldValues[s]!);
  }
}

/** a 32-bit mix of the group id and both words of the value (-0 and 0 hash alike: `x | 0` maps both to 0) */
function pairHash(g: number, x: number): number {
  const lo = x | 0;
  const hi = Math.floor(x / TWO_32) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(g + 1, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2d);
  return h ^ (h >>> 13);
}
