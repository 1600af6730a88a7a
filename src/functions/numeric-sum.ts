/**
 * NumericSum: an exact running sum of numeric / integer values for sum() and avg() that allocates nothing per
 * row in the common case. The sum is `big + small` unscaled at `scale` (the largest display scale seen, as
 * numeric add_var keeps it); `small` is a double holding an integer below 2^53, so adding an unscaled value
 * below 2^40 stays exact, and it spills into the bigint before it could lose a digit. NaN and ±Infinity are
 * counted as numeric_sum counts them (NaN wins; +Infinity and -Infinity together give NaN).
 */
import { Numeric, pow10 } from '../common/pgtypes/numeric.ts';

/** inputs whose unscaled magnitude is below this go through the double */
const SMALL_INPUT = 2n ** 40n;
const SMALL_INPUT_NUM = 2 ** 40;
/** spill the double into the bigint above this (2^52 + 2^40 < 2^53: the next add is still exact) */
const SMALL_LIMIT = 2 ** 52;

export class NumericSum {
  big = 0n;
  small = 0;
  scale = 0;
  /** values added (finite or not) */
  count = 0;
  nan = 0;
  pinf = 0;
  ninf = 0;

  /** adds a Numeric */
  add(x: Numeric): void {
    this.count++;
    if (!x.isFinite()) {
      if (x.isNaN()) this.nan++;
      else if (x.signum() > 0) this.pinf++;
      else this.ninf++;
      return;
    }
    const s = x.scale;
    if (s === this.scale) this.addUnscaled(x.unscaled);
    else if (s > this.scale) {
      this.rescale(s);
      this.addUnscaled(x.unscaled);
    } else this.addUnscaled(x.unscaled * pow10(this.scale - s));
  }

  /** adds an integer (int2/int4 as number, int8 as bigint) */
  addInteger(v: number | bigint): void {
    this.count++;
    if (typeof v === 'number' && this.scale === 0 && v < SMALL_INPUT_NUM && v > -SMALL_INPUT_NUM) {
      this.addSmall(v);
      return;
    }
    const u = typeof v === 'bigint' ? v : BigInt(v);
    this.addUnscaled(this.scale === 0 ? u : u * pow10(this.scale));
  }

  /**
   * adds the numeric unscaled × 10^-scale given as an exact integer in a double (|unscaled| < 2^53): the
   * vector kernels' numerics (exec/expr/vector-numeric.ts), without a Numeric or bigint per value
   */
  addScaled(unscaled: number, scale: number): void {
    this.count++;
    if (scale > this.scale) this.rescale(scale);
    if (scale === this.scale) {
      if (unscaled < SMALL_INPUT_NUM && unscaled > -SMALL_INPUT_NUM) this.addSmall(unscaled);
      else this.big += BigInt(unscaled);
    } else this.addUnscaled(BigInt(unscaled) * pow10(this.scale - scale));
  }

  /** folds in another partial sum */
  merge(o: NumericSum): void {
    this.count += o.count;
    this.nan += o.nan;
    this.pinf += o.pinf;
    this.ninf += o.ninf;
    if (o.scale > this.scale) this.rescale(o.scale);
    const ou = o.big + BigInt(o.small);
    this.big += o.scale === this.scale ? ou : ou * pow10(this.scale - o.scale);
  }

  /** the sum as a Numeric (NaN / ±Infinity as numeric_sum gives them); null when nothing was added */
  result(): Numeric | null {
    if (this.count === 0) return null;
    if (this.nan > 0 || (this.pinf > 0 && this.ninf > 0)) return Numeric.NaN;
    if (this.pinf > 0) return Numeric.POSITIVE_INFINITY;
    if (this.ninf > 0) return Numeric.NEGATIVE_INFINITY;
    return Numeric.of(this.big + BigInt(this.small), this.scale);
  }

  private addUnscaled(u: bigint): void {
    if (u < SMALL_INPUT && u > -SMALL_INPUT) this.addSmall(Number(u));
    else this.big += u;
  }

  private addSmall(n: number): void {
    const t = this.small + n;
    if (t > SMALL_LIMIT || t < -SMALL_LIMIT) {
      this.big += BigInt(t);
      this.small = 0;
    } else this.small = t;
  }

  private rescale(s: number): void {
    const f = pow10(s - this.scale);
    this.big = (this.big + BigInt(this.small)) * f;
    this.small = 0;
    this.scale = s;
  }
}
