/**
 * GroupStates: the aggregate states of a hash aggregate's groups, by group id (group-table.ts). The common
 * aggregates accumulate in typed arrays per group, so a group costs no objects while rows stream in:
 *  - count(*), count(x): a counter;
 *  - sum / avg over numeric, int8 (and avg over int2 / int4): an exact running unscaled sum in a double with its
 *    scale, spilling into a bigint per group before it could lose a digit;
 *  - sum(int2 / int4) → int8: the same in a double and a bigint, with int8's range checked at the end;
 *  - sum(float4 / float8): the running float sum, added in row order with float8pl's overflow check;
 *  - min / max over int, float, date, timestamp and numeric: group-minmax.ts.
 * Every other aggregate (and a row the typed sum cannot take exactly: another scale, a value beyond 2^40)
 * steps an AggregateState created the first time the group needs one. At the end the typed part is folded
 * into the group's state (CountState.n, NumericSum.merge) and the state finishes as always, so results are the
 * states' own: exact numeric digits and display scale as PostgreSQL's numeric_sum / numeric_avg.
 */
import { CountState, NumericSumState } from '../../functions/aggregates.ts';
import { checkInt8, floatArith } from '../../functions/int-arith.ts';
import { NumericSum } from '../../functions/numeric-sum.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState, EvalContext } from '../../functions/registry-types.ts';
import { GroupMinMax, minMaxOf } from './group-minmax.ts';
import { giveBack, takeFloat64, takeInt32 } from './spare-arrays.ts';

export interface GroupStateSpec {
  readonly def: AggregateDef;
  readonly argTypes: readonly SqlType[];
  readonly type: SqlType;
}

/** sum / avg over numeric: states whose running NumericSum takes scaled numerics (aggregates.ts, aggregates-stats.ts) */
interface ScaledSumOwner { scaledSum(): NumericSum | null }
export const scaledSumOf = (s: AggregateState): NumericSum | null =>
  typeof (s as Partial<ScaledSumOwner>).scaledSum === 'function' ? (s as unknown as ScaledSumOwner).scaledSum() : null;

/** unscaled inputs below this (in magnitude) go into the typed sum */
export const INPUT_LIMIT = 2 ** 40;
/** the double part of a typed sum stays below this (exact); beyond, it moves into the group's bigint */
const SUM_LIMIT = 2 ** 52;
/** sum(int2/int4): int4 inputs below 2^31, so the double stays exact below 2^53 */
const INT_SUM_LIMIT = 2 ** 53 - 2 ** 31;
const BIG_INPUT = 2n ** 40n;

/** pg_proc OIDs of sum(int2), sum(int4), sum(float4), sum(float8) (functions/aggregates.ts) */
const INT_SUMS = new Set([2109, 2108]);
const FLOAT_SUMS = new Set([2110, 2111]);

/**
 * The typed part of one aggregate's partial states, column-wise by group (kinds 'count' and 'sum' with no state
 * object): what a scan worker's partial aggregate sends instead of a state object per group (exec/partial/).
 */
export interface TypedPartialStates {
  /** count: rows per group; sum: values added per group */
  readonly counts: Float64Array;
  /** sum: the unscaled sum in a double (below 2^52), at `scales` (-1: nothing added); null for count */
  readonly sums: Float64Array | null;
  readonly scales: Int32Array | null;
  /** sum: the part moved out of the double (sparse), or null when none was */
  readonly bigs: readonly (bigint | undefined)[] | null;
}

export type TypedKind = 'count' | 'sum' | 'isum' | 'fsum' | 'minmax' | null;

export class GroupStates {
  readonly #specs: readonly GroupStateSpec[];
  readonly #ctx: EvalContext;
  /** per aggregate: the state objects, created on demand */
  readonly #states: (AggregateState | undefined)[][];
  /** per aggregate: what its typed arrays hold */
  readonly kinds: readonly TypedKind[];
  /** count: rows per group; sum / isum / fsum: values added per group */
  readonly counts: Float64Array[];
  /** sum: the unscaled sum per group, at sumScales[g] (-1: nothing added yet); isum: the integer sum; fsum: the float sum */
  readonly sums: Float64Array[];
  readonly sumScales: Int32Array[];
  /** sum / isum: the part of a group's sum moved out of the double (sparse) */
  readonly bigs: (bigint | undefined)[][];
  /** minmax: the typed min / max */
  readonly minmax: readonly (GroupMinMax | null)[];
  #cap = 0;
  /** scratch for folding a typed sum into a state or finishing it */
  readonly #tmp = new NumericSum();
  /** sum(numeric/int8): NumericSumState, whose final() is its NumericSum's result() */
  readonly #plainSum: readonly boolean[];

  constructor(specs: readonly GroupStateSpec[], ctx: EvalContext) {
    this.#specs = specs;
    this.#ctx = ctx;
    this.#states = specs.map(() => []);
    const probes = specs.map((s) => s.def.create(ctx, s.argTypes, s.type));
    this.minmax = specs.map((s, k) => {
      const mm = minMaxOf(s.def, s.argTypes[0]?.oid);
      return mm === null ? null : new GroupMinMax(mm.max, mm.cls, (g) => this.state(k, g));
    });
    this.kinds = probes.map((p, k) => {
      const def = specs[k]!.def;
      if (p instanceof CountState) return 'count';
      if (scaledSumOf(p) !== null) return 'sum';
      if (def.oid !== undefined && INT_SUMS.has(def.oid)) return 'isum';
      if (def.oid !== undefined && FLOAT_SUMS.has(def.oid)) return 'fsum';
      return this.minmax[k] !== null ? 'minmax' : null;
    });
    this.#plainSum = probes.map((p) => p instanceof NumericSumState);
    this.counts = specs.map(() => new Float64Array(0));
    this.sums = specs.map(() => new Float64Array(0));
    this.sumScales = specs.map(() => new Int32Array(0));
    this.bigs = specs.map(() => []);
  }

  /** the return type of aggregate k (fsum: float4 or float8) */
  typeOf(k: number): SqlType {
    return this.#specs[k]!.type;
  }

  /** makes room for group ids below `groups` */
  ensure(groups: number): void {
    if (groups <= this.#cap) return;
    let cap = Math.max(1024, this.#cap);
    while (cap < groups) cap *= 2;
    for (let k = 0; k < this.kinds.length; k++) {
      const kind = this.kinds[k];
      if (kind === null) continue;
      if (kind === 'minmax') { this.minmax[k]!.ensure(cap); continue; }
      this.counts[k] = grow(this.counts[k]!, cap);
      if (kind === 'count') continue;
      this.sums[k] = grow(this.sums[k]!, cap);
      if (kind === 'sum') {
        const sc = takeInt32(cap, -1);
        sc.set(this.sumScales[k]!);
        giveBack(this.sumScales[k]!);
        this.sumScales[k] = sc;
      }
    }
    this.#cap = cap;
  }

  /**
   * hands the typed arrays back for the next aggregate's groups (spare-arrays.ts): the caller is done with every
   * group (final() read) and keeps no array of this object; the object is empty afterwards
   */
  release(): void {
    for (let k = 0; k < this.kinds.length; k++) {
      for (const arrays of [this.counts, this.sums] as Float64Array[][]) {
        giveBack(arrays[k]!);
        arrays[k] = new Float64Array(0);
      }
      giveBack(this.sumScales[k]!);
      this.sumScales[k] = new Int32Array(0);
    }
    this.#cap = 0;
  }

  /** the state object of aggregate k for group g (created on first use) */
  state(k: number, g: number): AggregateState {
    const states = this.#states[k]!;
    let s = states[g];
    if (s === undefined) {
      const spec = this.#specs[k]!;
      s = spec.def.create(this.#ctx, spec.argTypes, spec.type);
      states[g] = s;
    }
    return s;
  }

  /** whether aggregate k has a state object for any group (else its typed arrays hold everything) */
  hasStates(k: number): boolean {
    return this.#states[k]!.length > 0;
  }

  /**
   * folds typed partial states of aggregate k (kind 'count' or 'sum'), as TypedPartialStates ships them, into
   * groups gids[0 … n-1]: counts added; a sum at the group's scale added in the double, another scale merged
   * into the group's state object (exact either way)
   */
  mergeTyped(k: number, gids: Int32Array, n: number, part: TypedPartialStates): void {
    const cnt = this.counts[k]!, pc = part.counts;
    if (this.kinds[k] === 'count') {
      for (let j = 0; j < n; j++) { const g = gids[j]!; cnt[g] = cnt[g]! + pc[j]!; }
      return;
    }
    const sums = this.sums[k]!, sc = this.sumScales[k]!, bigs = this.bigs[k]!;
    const ps = part.sums!, pscale = part.scales!, pbig = part.bigs;
    for (let j = 0; j < n; j++) {
      const c = pc[j]!;
      if (c === 0) continue;
      const g = gids[j]!, scale = pscale[j]!, big = pbig === null ? undefined : pbig[j];
      const cur = sc[g]!;
      if (cur === scale || cur === -1) {
        // both parts below 2^52: their sum is exact
        const t = sums[g]! + ps[j]!;
        if (t < SUM_LIMIT && t > -SUM_LIMIT) sums[g] = t;
        else { bigs[g] = (bigs[g] ?? 0n) + BigInt(t); sums[g] = 0; }
        if (big !== undefined) bigs[g] = (bigs[g] ?? 0n) + big;
        sc[g] = scale;
        cnt[g] = cnt[g]! + c;
      } else {
        const o = new NumericSum();
        o.big = big ?? 0n;
        o.small = ps[j]!;
        o.scale = scale;
        o.count = c;
        scaledSumOf(this.state(k, g))!.merge(o);
      }
    }
  }

  /** groups 0 … n-1 of aggregate k (kind 'count' or 'sum') as TypedPartialStates (copies) */
  typedPart(k: number, n: number): TypedPartialStates {
    const counts = this.counts[k]!.slice(0, n);
    if (this.kinds[k] === 'count') return { counts, sums: null, scales: null, bigs: null };
    const bigs = this.bigs[k]!;
    return { counts, sums: this.sums[k]!.slice(0, n), scales: this.sumScales[k]!.slice(0, n), bigs: bigs.length === 0 ? null : bigs.slice(0, n) };
  }

  /** adds unscaled × 10^-scale to group g's sum of aggregate k (kind 'sum') */
  addScaled(k: number, g: number, unscaled: number, scale: number): void {
    const sc = this.sumScales[k]!;
    const cur = sc[g]!;
    if ((cur === scale || cur === -1) && unscaled < INPUT_LIMIT && unscaled > -INPUT_LIMIT) {
      const sums = this.sums[k]!;
      const t = sums[g]! + unscaled;
      if (t < SUM_LIMIT && t > -SUM_LIMIT) sums[g] = t;
      else {
        // t is exact (below 2^52 + 2^40): it moves into the bigint, the double restarts at 0
        const bigs = this.bigs[k]!;
        bigs[g] = (bigs[g] ?? 0n) + BigInt(t);
        sums[g] = 0;
      }
      sc[g] = scale;
      const cnt = this.counts[k]!;
      cnt[g] = cnt[g]! + 1;
      return;
    }
    scaledSumOf(this.state(k, g))!.addScaled(unscaled, scale);
  }

  /** addScaled for the selected rows of a scaled vector (NULL rows skipped: sum and avg are strict), the arrays read once */
  addScaledRows(k: number, f: Float64Array, scale: number, nul: Uint8Array | null, sel: Int32Array | null, n: number, gids: Int32Array): void {
    const sc = this.sumScales[k]!, sums = this.sums[k]!, cnt = this.counts[k]!;
    const m = sel === null ? n : sel.length;
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      if (nul !== null && nul[i] === 1) continue;
      const g = gids[i]!, u = f[i]!;
      const t = sums[g]! + u;
      // the common row: same scale as the group's, small input, the double stays exact
      if (sc[g] === scale && u < INPUT_LIMIT && u > -INPUT_LIMIT && t < SUM_LIMIT && t > -SUM_LIMIT) {
        sums[g] = t;
        cnt[g] = cnt[g]! + 1;
      } else this.addScaled(k, g, u, scale);
    }
  }

  /** adds an integer (int2/int4 number, int8 bigint) to group g's sum of aggregate k (kind 'sum'), as addInteger */
  addInteger(k: number, g: number, v: number | bigint): void {
    if (typeof v === 'number') { if (v < INPUT_LIMIT && v > -INPUT_LIMIT) { this.addScaled(k, g, v, 0); return; } }
    else if (v < BIG_INPUT && v > -BIG_INPUT) { this.addScaled(k, g, Number(v), 0); return; }
    this.state(k, g).step([v]);
  }

  /** adds an int2/int4 value to group g's sum(int) of aggregate k (kind 'isum') */
  addInt(k: number, g: number, v: number): void {
    const sums = this.sums[k]!;
    const t = sums[g]! + v;
    if (t <= INT_SUM_LIMIT && t >= -INT_SUM_LIMIT) sums[g] = t;
    else {
      const bigs = this.bigs[k]!;
      bigs[g] = (bigs[g] ?? 0n) + BigInt(t);
      sums[g] = 0;
    }
    const cnt = this.counts[k]!;
    cnt[g] = cnt[g]! + 1;
  }

  /** adds a float to group g's sum(float) of aggregate k (kind 'fsum'): float8pl / float4pl in row order */
  addFloat(k: number, g: number, v: number, type: number): void {
    const sums = this.sums[k]!, cnt = this.counts[k]!;
    sums[g] = cnt[g] === 0 ? v : floatArith('+', type, sums[g]!, v);
    cnt[g] = cnt[g]! + 1;
  }

  /** the result of aggregate k for group g: its typed part folded into its state, then final() */
  final(k: number, g: number): unknown {
    const kind = this.kinds[k];
    if (kind === 'minmax') return this.minmax[k]!.final(g);
    const inCap = g < this.#cap;
    if (kind === 'isum' || kind === 'fsum') {
      if (!inCap || this.counts[k]![g] === 0) return null;
      if (kind === 'fsum') return this.sums[k]![g]!;
      return checkInt8((this.bigs[k]![g] ?? 0n) + BigInt(this.sums[k]![g]!));
    }
    const typedOnly = inCap && this.#states[k]![g] === undefined;
    // no state object was needed: count(*)'s and sum(numeric)'s final() over the typed part alone (CountState, NumericSumState)
    if (typedOnly && kind === 'count') return BigInt(this.counts[k]![g]!);
    if (typedOnly && kind === 'sum' && this.#plainSum[k]) return this.#typedSum(k, g, 0).result();
    const s = this.state(k, g);
    if (kind === 'count' && inCap) (s as CountState).n += this.counts[k]![g]!;
    else if (kind === 'sum' && inCap && this.counts[k]![g]! > 0) scaledSumOf(s)!.merge(this.#typedSum(k, g, -1));
    return s.final() ?? null;
  }

  /**
   * aggregate k's result for group g when its typed part alone gives it exactly, without making it — count, and
   * sum over numeric / integers with no state object and no bigint part: 1 with the value out[0] × 10^-out[1];
   * 0 when the result is NULL (a sum of no rows); -1 when it is not known this way. What final() would return,
   * for judging a filter over the groups (HAVING) before their rows are made (operators/group-filter.ts).
   */
  typedResult(k: number, g: number, out: Float64Array): -1 | 0 | 1 {
    if (g >= this.#cap || this.#states[k]![g] !== undefined) return -1;
    const kind = this.kinds[k];
    if (kind === 'count') { out[0] = this.counts[k]![g]!; out[1] = 0; return 1; }
    if (kind !== 'isum' && !(kind === 'sum' && this.#plainSum[k])) return -1;
    if (this.counts[k]![g] === 0) return 0;
    if (this.bigs[k]![g] !== undefined) return -1;
    out[0] = this.sums[k]![g]!;
    out[1] = kind === 'sum' ? this.sumScales[k]![g]! : 0;
    return 1;
  }

  /** group g's typed sum of aggregate k as the scratch NumericSum (its scale at least `minScale`) */
  #typedSum(k: number, g: number, minScale: number): NumericSum {
    const t = this.#tmp;
    t.big = this.bigs[k]![g] ?? 0n;
    t.small = this.sums[k]![g]!;
    t.scale = Math.max(minScale, this.sumScales[k]![g]!);
    t.count = this.counts[k]![g]!;
    return t;
  }
}

/** `a` copied into an array of `cap` entries (zeros after it); `a` goes back to the spares (ensure's callers hold none) */
function grow(a: Float64Array, cap: number): Float64Array {
  const b = takeFloat64(cap);
  b.set(a);
  giveBack(a);
  return b;
}

