/**
 * avg / stddev / variance family. Integer and numeric inputs accumulate exactly in Numeric (N, ΣX, ΣX²)
 * and finish with numeric_stddev_internal's scale rules; float inputs use PostgreSQL's Youngs-Cramer
 * float8_accum so results match bit for bit.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/numeric.c (numeric_stddev_internal)
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/float.c (float8_accum)
 */
import { Numeric, pow10 } from '../common/pgtypes/numeric.ts';
import { isqrt } from '../common/pgtypes/numeric-math.ts';
import type { AggregateState } from './registry-types.ts';
import { floatOverflow } from './int-arith.ts';
import { NumericSum } from './numeric-sum.ts';

const isInf = (v: number): boolean => v === Infinity || v === -Infinity;

export type StatKind = 'avg' | 'var_samp' | 'var_pop' | 'stddev_samp' | 'stddev_pop';

/** sqrt(x) rounded to `rscale` decimals (sqrt_var + round_var). */
export function sqrtAtScale(x: Numeric, rscale: number): Numeric {
  if (x.isZero()) return Numeric.of(0n, rscale);
  // floor(sqrt(x) * 10^(rscale+1)), then round the extra digit
  const shift = 2 * (rscale + 1) - x.scale;
  const radicand = shift >= 0 ? x.unscaled * pow10(shift) : x.unscaled / pow10(-shift);
  const t = isqrt(radicand);
  return Numeric.of((t + 5n) / 10n, rscale);
}

/** Exact accumulation for int2/int4/int8/numeric inputs (ΣX in a NumericSum: no allocation per row). */
export class NumericStats implements AggregateState {
  readonly sum = new NumericSum();
  sumX2 = Numeric.ZERO;
  constructor(private readonly kind: StatKind, private readonly needSquares: boolean) {}

  /** avg: the running sum the vector kernels add numerics to directly (NumericSum.addScaled); null when squares are kept */
  scaledSum(): NumericSum | null {
    return this.needSquares ? null : this.sum;
  }

  step(args: readonly unknown[]): void {
    const v = args[0];
    if (typeof v === 'number' || typeof v === 'bigint') {
      this.sum.addInteger(v);
      if (this.needSquares) { const x = Numeric.fromBigInt(BigInt(v)); this.sumX2 = this.sumX2.add(x.mul(x)); }
      return;
    }
    const x = v as Numeric;
    this.sum.add(x);
    if (this.needSquares) this.sumX2 = this.sumX2.add(x.mul(x));
  }

  combine(other: AggregateState): void {
    const o = other as NumericStats;
    this.sum.merge(o.sum);
    this.sumX2 = this.sumX2.add(o.sumX2);
  }

  final(): unknown {
    const count = this.sum.count;
    if (count === 0) return null;
    const n = BigInt(count);
    const sumX = this.sum.result() ?? Numeric.ZERO;
    const vN = Numeric.fromBigInt(n);
    if (this.kind === 'avg') return sumX.div(vN);
    const sample = this.kind === 'var_samp' || this.kind === 'stddev_samp';
    if (sample && n <= 1n) return null;
    if (!sumX.isFinite() || !this.sumX2.isFinite()) return Numeric.NaN;
    const numerator = vN.mul(this.sumX2).sub(sumX.mul(sumX));
    if (numerator.signum() <= 0) return Numeric.ZERO;
    const denom = sample ? vN.mul(Numeric.fromBigInt(n - 1n)) : vN.mul(vN);
    const variance = numerator.div(denom);
    if (this.kind === 'var_samp' || this.kind === 'var_pop') return variance;
    return sqrtAtScale(variance, variance.scale);
  }
}

/** float8_accum: N, Sx, Sxx with the Youngs-Cramer update. */
export class FloatStats implements AggregateState {
  n = 0;
  sx = 0;
  sxx = 0;
  constructor(private readonly kind: StatKind) {}

  step(args: readonly unknown[]): void {
    const x = args[0] as number;
    const n = this.n + 1;
    const sx = this.sx + x;
    if (this.n > 0) {
      const tmp = x * n - sx;
      this.sxx += (tmp * tmp) / (n * this.n);
      // finite inputs reaching an infinite result overflow; otherwise Sxx becomes NaN (never infinite)
      if (isInf(sx) || isInf(this.sxx)) {
        if (!isInf(this.sx) && !isInf(x)) throw floatOverflow();
        this.sxx = NaN;
      }
    } else if (Number.isNaN(x) || !Number.isFinite(x)) {
      this.sxx = NaN;
    }
    this.n = n;
    this.sx = sx;
  }

  /** float8_combine (Chan et al.) */
  combine(other: AggregateState): void {
    const o = other as FloatStats;
    if (o.n === 0) return;
    if (this.n === 0) {
      this.n = o.n;
      this.sx = o.sx;
      this.sxx = o.sxx;
      return;
    }
    const n = this.n + o.n;
    const sx = this.sx + o.sx;
    const tmp = this.sx / this.n - o.sx / o.n;
    this.sxx = this.sxx + o.sxx + (this.n * o.n * tmp * tmp) / n;
    this.n = n;
    this.sx = sx;
  }

  final(): unknown {
    if (this.n === 0) return null;
    switch (this.kind) {
      case 'avg':
        return this.sx / this.n;
      case 'var_pop':
        return this.sxx / this.n;
      case 'stddev_pop':
        return Math.sqrt(this.sxx / this.n);
      case 'var_samp':
        return this.n <= 1 ? null : this.sxx / (this.n - 1);
      case 'stddev_samp':
        return this.n <= 1 ? null : Math.sqrt(this.sxx / (this.n - 1));
    }
  }
}
