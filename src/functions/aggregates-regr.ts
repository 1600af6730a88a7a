/**
 * Two-variable statistics: corr, covar_pop / covar_samp and the regr_* family (SQL:2003 T621), all
 * (Y float8, X float8). PostgreSQL keeps N, Sx, Sxx, Sy, Syy, Sxy with the Youngs-Cramer update of
 * float8_regr_accum; the same arithmetic in the same order gives the same bits.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/float.c (float8_regr_accum, float8_corr …)
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState } from './registry-types.ts';
import { floatOverflow } from './int-arith.ts';

const isInf = (v: number): boolean => v === Infinity || v === -Infinity;

type RegrKind = 'regr_count' | 'regr_sxx' | 'regr_syy' | 'regr_sxy' | 'regr_avgx' | 'regr_avgy' | 'regr_r2' | 'regr_slope'
  | 'regr_intercept' | 'covar_pop' | 'covar_samp' | 'corr';

export class RegrState implements AggregateState {
  n = 0;
  sx = 0;
  sxx = 0;
  sy = 0;
  syy = 0;
  sxy = 0;
  constructor(private readonly kind: RegrKind) {}

  /** float8_regr_accum(state, Y, X) */
  step(args: readonly unknown[]): void {
    const y = args[0] as number;
    const x = args[1] as number;
    const n0 = this.n;
    const sx0 = this.sx;
    const sy0 = this.sy;
    const n = n0 + 1;
    const sx = sx0 + x;
    const sy = sy0 + y;
    if (n0 > 0) {
      const tmpX = x * n - sx;
      const tmpY = y * n - sy;
      const scale = 1.0 / (n * n0);
      this.sxx += tmpX * tmpX * scale;
      this.syy += tmpY * tmpY * scale;
      this.sxy += tmpX * tmpY * scale;
      if (isInf(sx) || isInf(this.sxx) || isInf(sy) || isInf(this.syy) || isInf(this.sxy)) {
        if (((isInf(sx) || isInf(this.sxx)) && !isInf(sx0) && !isInf(x))
          || ((isInf(sy) || isInf(this.syy)) && !isInf(sy0) && !isInf(y))
          || (isInf(this.sxy) && !isInf(sx0) && !isInf(x) && !isInf(sy0) && !isInf(y))) throw floatOverflow();
        if (isInf(this.sxx)) this.sxx = NaN;
        if (isInf(this.syy)) this.syy = NaN;
        if (isInf(this.sxy)) this.sxy = NaN;
      }
    } else {
      if (Number.isNaN(x) || isInf(x)) this.sxx = this.sxy = NaN;
      if (Number.isNaN(y) || isInf(y)) this.syy = this.sxy = NaN;
    }
    this.n = n;
    this.sx = sx;
    this.sy = sy;
  }

  /** float8_regr_combine */
  combine(other: AggregateState): void {
    const o = other as RegrState;
    if (o.n === 0) return;
    if (this.n === 0) {
      Object.assign(this, { n: o.n, sx: o.sx, sxx: o.sxx, sy: o.sy, syy: o.syy, sxy: o.sxy });
      return;
    }
    const n1 = this.n;
    const n2 = o.n;
    const n = n1 + n2;
    const tmp1 = this.sx / n1 - o.sx / n2;
    const tmp2 = this.sy / n1 - o.sy / n2;
    this.sxx = this.sxx + o.sxx + (n1 * n2 * tmp1 * tmp1) / n;
    this.syy = this.syy + o.syy + (n1 * n2 * tmp2 * tmp2) / n;
    this.sxy = this.sxy + o.sxy + (n1 * n2 * tmp1 * tmp2) / n;
    this.sx += o.sx;
    this.sy += o.sy;
    this.n = n;
  }

  final(): unknown {
    const { n, sx, sxx, sy, syy, sxy } = this;
    if (this.kind === 'regr_count') return BigInt(n);
    if (n < 1) return null;
    switch (this.kind) {
      case 'regr_sxx': return sxx;
      case 'regr_syy': return syy;
      case 'regr_sxy': return sxy;
      case 'regr_avgx': return sx / n;
      case 'regr_avgy': return sy / n;
      case 'covar_pop': return sxy / n;
      case 'covar_samp': return n < 2 ? null : sxy / (n - 1);
      // per spec, NULL for horizontal and vertical lines
      case 'corr': return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
      case 'regr_r2':
        if (sxx === 0) return null;
        return syy === 0 ? 1.0 : (sxy * sxy) / (sxx * syy);
      case 'regr_slope': return sxx === 0 ? null : sxy / sxx;
      case 'regr_intercept': return sxx === 0 ? null : (sy - (sx * sxy) / sxx) / n;
    }
  }
}

const DEFS: readonly (readonly [number, RegrKind])[] = [
  [2818, 'regr_count'], [2819, 'regr_sxx'], [2820, 'regr_syy'], [2821, 'regr_sxy'], [2822, 'regr_avgx'], [2823, 'regr_avgy'],
  [2824, 'regr_r2'], [2825, 'regr_slope'], [2826, 'regr_intercept'], [2827, 'covar_pop'], [2828, 'covar_samp'], [2829, 'corr'],
];

/** pg_proc OIDs of PostgreSQL 15; regr_count returns bigint, the rest double precision */
export const regressionAggregates: readonly AggregateDef[] = DEFS.map(([oid, name]) => ({
  kind: 'aggregate', oid, name, args: [Oid.float8, Oid.float8], returns: name === 'regr_count' ? Oid.int8 : Oid.float8,
  volatility: 'i', strict: true, create: () => new RegrState(name),
}));
