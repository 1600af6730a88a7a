/**
 * GroupMinMax: min() / max() of a hash aggregate's groups by group id (group-states.ts), kept in typed arrays
 * instead of one state object per group: int2/int4/float4/float8/date as doubles, int8/timestamp(tz) as the
 * bigint values themselves, numeric as an exact unscaled double with its display scale (vector-numeric.ts).
 *
 * Same answers as the FoldState (functions/fold-state.ts) of functions/aggregates.ts stepped row by row: float order is
 * float8_cmp_internal's (NaN above everything, -0 = +0), and on a tie the newer value wins, as int4larger /
 * float8_larger / numeric_larger return their second argument then — so max(0, -0) is -0 and max(1.0, 1.00)
 * is 1.00. A value the typed arrays cannot hold (numeric NaN / ±Infinity or an unscaled value past 2^53,
 * scales too far apart to compare exactly) moves that group to its AggregateState for good: the typed best
 * is stepped into it first, so the state sees the group's values in their order.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState } from '../../functions/registry-types.ts';
import { selCount, type Sel } from './vector-types.ts';

/** pg_proc OIDs of max / min per argument type (functions/aggregates.ts MINMAX_TYPES) */
const MAX_OIDS: Record<number, number> = {
  [Oid.int2]: 2117, [Oid.int4]: 2116, [Oid.float4]: 2119, [Oid.float8]: 2120, [Oid.date]: 2122,
  [Oid.int8]: 2115, [Oid.timestamp]: 2126, [Oid.timestamptz]: 2127, [Oid.numeric]: 2130,
};
const MIN_OIDS: Record<number, number> = {
  [Oid.int2]: 2133, [Oid.int4]: 2132, [Oid.float4]: 2135, [Oid.float8]: 2136, [Oid.date]: 2138,
  [Oid.int8]: 2131, [Oid.timestamp]: 2142, [Oid.timestamptz]: 2143, [Oid.numeric]: 2146,
};

/** how the best value of a group is held */
export type MinMaxClass = 'f64' | 'big' | 'num';

const CLASS: Record<number, MinMaxClass> = {
  [Oid.int2]: 'f64', [Oid.int4]: 'f64', [Oid.float4]: 'f64', [Oid.float8]: 'f64', [Oid.date]: 'f64',
  [Oid.int8]: 'big', [Oid.timestamp]: 'big', [Oid.timestamptz]: 'big', [Oid.numeric]: 'num',
};

const EXACT = 2 ** 53;
const POW10 = Array.from({ length: 16 }, (_v, k) => 10 ** k);

const EMPTY = 0, TYPED = 1, STATE = 2;

/** the typed min/max of `def` over `argOid`, or null when it is another aggregate (or type) */
export function minMaxOf(def: AggregateDef, argOid: number | undefined): { max: boolean; cls: MinMaxClass } | null {
  if (argOid === undefined || def.oid === undefined) return null;
  const cls = CLASS[argOid];
  if (cls === undefined) return null;
  if (MAX_OIDS[argOid] === def.oid) return { max: true, cls };
  if (MIN_OIDS[argOid] === def.oid) return { max: false, cls };
  return null;
}

/** scaled numerics a × 10^-sa vs b × 10^-sb: -1 / 0 / 1, or NaN when one side cannot be rescaled exactly */
function cmpScaled(a: number, sa: number, b: number, sb: number): number {
  if (sa !== sb) {
    const s = Math.max(sa, sb);
    const pa = POW10[s - sa], pb = POW10[s - sb];
    if (pa === undefined || pb === undefined) return NaN;
    a *= pa;
    b *= pb;
    if (a >= EXACT || a <= -EXACT || b >= EXACT || b <= -EXACT) return NaN;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export class GroupMinMax {
  /** per group: EMPTY, TYPED (the arrays hold the best value) or STATE (the group's AggregateState does) */
  mode = new Uint8Array(0);
  /** f64: the value; num: the unscaled value */
  best = new Float64Array(0);
  /** num: the display scale of `best` */
  scales = new Int32Array(0);
  /** big: the bigint value */
  bigs: unknown[] = [];

  constructor(readonly max: boolean, readonly cls: MinMaxClass, private readonly stateOf: (g: number) => AggregateState) {}

  ensure(cap: number): void {
    const mode = new Uint8Array(cap);
    mode.set(this.mode);
    this.mode = mode;
    if (this.cls === 'big') return;
    const best = new Float64Array(cap);
    best.set(this.best);
    this.best = best;
    if (this.cls === 'num') {
      const sc = new Int32Array(cap);
      sc.set(this.scales);
      this.scales = sc;
    }
  }

  /** steps the selected rows' values (JS values of the argument type; NULLs skipped: min/max are strict) */
  addValues(vals: readonly unknown[], sel: Sel, n: number, gids: Int32Array): void {
    const m = selCount(sel, n);
    const mode = this.mode;
    if (this.cls === 'f64') {
      const best = this.best, max = this.max;
      for (let j = 0; j < m; j++) {
        const i = sel === null ? j : sel[j]!;
        const x = vals[i];
        if (x === null || x === undefined) continue;
        const g = gids[i]!;
        const md = mode[g]!;
        if (md === TYPED && typeof x === 'number') {
          const b = best[g]!;
          // keep b only when it is strictly beyond x in float8_cmp_internal's order (NaN largest)
          const keep = max ? (b !== b ? x === x : b > x) : b === b && (x !== x || b < x);
          if (!keep) best[g] = x;
        } else if (md === EMPTY && typeof x === 'number') { best[g] = x; mode[g] = TYPED; }
        else this.#toState(g, x);
      }
      return;
    }
    if (this.cls === 'big') {
      const bigs = this.bigs, max = this.max;
      for (let j = 0; j < m; j++) {
        const i = sel === null ? j : sel[j]!;
        const x = vals[i];
        if (x === null || x === undefined) continue;
        const g = gids[i]!;
        const md = mode[g]!;
        if (md === TYPED && typeof x === 'bigint') {
          const b = bigs[g] as bigint;
          if (max ? !(b > x) : !(b < x)) bigs[g] = x;
        } else if (md === EMPTY && typeof x === 'bigint') { bigs[g] = x; mode[g] = TYPED; }
        else this.#toState(g, x);
      }
      return;
    }
    // numeric values (a batch the scaled kernels could not take): each finite one that fits, as a scaled double
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      const x = vals[i];
      if (x === null || x === undefined) continue;
      const g = gids[i]!;
      if (mode[g] !== STATE && Numeric.isNumeric(x) && x.isFinite()) {
        const u = Number(x.unscaled);
        if (u < EXACT && u > -EXACT) { this.#addNum(g, u, x.scale, x); continue; }
      }
      this.#toState(g, x);
    }
  }

  /** steps the selected rows of a scaled numeric vector (unscaled doubles at one scale; `nul` marks NULLs) */
  addScaled(f: Float64Array, scale: number, nul: Uint8Array | null, sel: Sel, n: number, gids: Int32Array): void {
    const m = selCount(sel, n);
    const mode = this.mode, best = this.best, scales = this.scales, max = this.max;
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      if (nul !== null && nul[i] === 1) continue;
      const g = gids[i]!;
      const u = f[i]!;
      if (mode[g] === TYPED && scales[g] === scale) {
        const b = best[g]!;
        if (max ? !(b > u) : !(b < u)) best[g] = u;
      } else this.#addNum(g, u, scale, null);
    }
  }

  /** the result of group g: null when it saw no value */
  final(g: number): unknown {
    const md = this.mode[g];
    if (md === TYPED) {
      if (this.cls === 'f64') return this.best[g]!;
      if (this.cls === 'big') return this.bigs[g]!;
      return Numeric.of(BigInt(this.best[g]!), this.scales[g]!);
    }
    if (md === STATE) return this.stateOf(g).final() ?? null;
    return null;
  }

  /** a numeric u × 10^-scale (`x`: the same value as a Numeric, when the caller has it) */
  #addNum(g: number, u: number, scale: number, x: Numeric | null): void {
    const md = this.mode[g];
    if (md === EMPTY) { this.best[g] = u; this.scales[g] = scale; this.mode[g] = TYPED; return; }
    if (md === TYPED) {
      const c = cmpScaled(this.best[g]!, this.scales[g]!, u, scale);
      if (c === c) {
        if (this.max ? c <= 0 : c >= 0) { this.best[g] = u; this.scales[g] = scale; }
        return;
      }
    }
    this.#toState(g, x ?? Numeric.of(BigInt(u), scale));
  }

  /** steps x into group g's AggregateState, moving the typed best there first */
  #toState(g: number, x: unknown): void {
    const s = this.stateOf(g);
    if (this.mode[g] === TYPED) s.step([this.final(g)]);
    this.mode[g] = STATE;
    s.step([x]);
  }
}
