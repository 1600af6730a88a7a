/**
 * The lookup set of an integer IN list judged on Arrow buffers (arrow-row-filter.ts), probed once per row: a
 * join's runtime key filter (exec/runtime-key-filter.ts) brings thousands to 100,000 keys — TPC-H's order or
 * part keys of the built side — and the scan probes every row of the big table with them. A JS Set costs
 * 30–55 ns a probe there (a hash and a cache miss per row: 6M lineitem rows ≈ 0.2–0.3 s of worker CPU per
 * scan); keys that lie in a dense range are a bitmap over [min, max] instead, ≈ 5 ns a probe, exact as well.
 * From 64 keys the bitmap is used up to 512 KiB whatever their spread (TPC-H SF 1 q19: 486 part keys over 200,000 part keys
 * are a 25 KB bitmap, not a Set probed 6M times), beyond that while it stays within a few dozen bytes per key
 * (and 16 MB); sparse keys keep the Set.
 */

/** at most this many bits per key (32 bytes: about what a Set entry costs) and this many bits in all */
const MAX_BITS_PER_KEY = 256;
const MIN_BITS = 1 << 16;
const MAX_BITS = 1 << 27;
/** from this many keys (a runtime key filter, a long IN list) a bitmap up to LIST_BITS is taken whatever the spread */
const LIST_KEYS = 64;
/** 512 KiB: no more than a Set of ~10,000 keys costs, and it stays in cache */
const LIST_BITS = 1 << 22;

/** one class for both representations, so the per-row `has` call stays monomorphic */
export class IntKeySet {
  private constructor(
    private readonly lo: number,
    private readonly span: number,
    private readonly bits: Uint32Array | null,
    private readonly set: ReadonlySet<number> | null,
    readonly size: number,
  ) {}

  /** the set of integral numbers `values` (a bitmap when they are dense enough) */
  static of(values: readonly number[] | Float64Array): IntKeySet {
    let lo = Infinity, hi = -Infinity;
    for (const v of values) {
      if (!Number.isSafeInteger(v)) return new IntKeySet(0, 0, null, new Set(values), values.length);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const span = values.length === 0 ? 0 : hi - lo + 1;
    const bound = Math.max(MIN_BITS, values.length * MAX_BITS_PER_KEY, values.length >= LIST_KEYS ? LIST_BITS : 0);
    if (span === 0 || span > MAX_BITS || span > bound) {
      const set = new Set(values);
      return new IntKeySet(0, 0, null, set, set.size);
    }
    const bits = new Uint32Array(Math.ceil(span / 32));
    let size = 0;
    for (const v of values) {
      const o = v - lo;
      const w = o >>> 5, b = 1 << (o & 31);
      if ((bits[w]! & b) === 0) { bits[w] = bits[w]! | b; size++; }
    }
    return new IntKeySet(lo, span, bits, null, size);
  }

  /** whether the integral number `v` (a value read from an integer column's buffer) is one of the keys */
  has(v: number): boolean {
    const bits = this.bits;
    if (bits === null) return this.set!.has(v);
    const o = v - this.lo;
    return o >= 0 && o < this.span && (bits[o >>> 5]! & (1 << (o & 31))) !== 0;
  }

  /**
   * Writes to `rows` (from 0) the indices i < `length` whose `vals[i]` is a key, and returns how many: a whole
   * batch probed at once (arrow-row-filter.ts, a runtime key filter judged first), the representation chosen once
   * per call and the bitmap's fields held in locals — 3.5 → 1.9 ns a row against `has` per row (1.2M int32 rows,
   * 200 keys; TPC-H q17 probes every l_partkey twice).
   */
  selectAll(vals: Int32Array, length: number, rows: Int32Array): number {
    const bits = this.bits;
    let m = 0;
    if (bits === null) {
      const set = this.set!;
      for (let i = 0; i < length; i++) if (set.has(vals[i]!)) rows[m++] = i;
      return m;
    }
    const lo = this.lo, span = this.span;
    for (let i = 0; i < length; i++) {
      const o = vals[i]! - lo;
      if (o >= 0 && o < span && (bits[o >>> 5]! & (1 << (o & 31))) !== 0) rows[m++] = i;
    }
    return m;
  }

  /** true when probing tests a bit (for tests and EXPLAIN-level diagnostics) */
  get dense(): boolean {
    return this.bits !== null;
  }
}
