/**
 * GroupStates: the aggregate states of a hash aggregate's groups, by group id (group-table.ts). count and
 * sum/avg over numeric accumulate in typed arrays per group — a counter, or an exact running unscaled sum in
 * a double with its scale — so a group costs no objects while rows stream in; every other aggregate (and a
 * row the typed sum cannot take exactly: another scale, a value or sum beyond 2^52) steps an AggregateState
 * created the first time the group needs one. At the end the typed part is folded into the group's state
 * (CountState.n, NumericSum.merge) and the state finishes as always, so results are the states' own:
 * exact numeric digits and display scale as PostgreSQL's numeric_sum / numeric_avg.
 */
import { CountState, NumericSumState } from '../../functions/aggregates.ts';
import { NumericSum } from '../../functions/numeric-sum.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState, EvalContext } from '../../functions/registry-types.ts';

export interface GroupStateSpec {
  readonly def: AggregateDef;
  readonly argTypes: readonly SqlType[];
  readonly type: SqlType;
}

/** sum / avg over numeric: states whose running NumericSum takes scaled numerics (aggregates.ts, aggregates-stats.ts) */
interface ScaledSumOwner { scaledSum(): NumericSum | null }
export const scaledSumOf = (s: AggregateState): NumericSum | null =>
  typeof (s as Partial<ScaledSumOwner>).scaledSum === 'function' ? (s as unknown as ScaledSumOwner).scaledSum() : null;

/** unscaled inputs below this (in magnitude) go into the typed sum; the sum stays below SUM_LIMIT (exact in a double) */
const INPUT_LIMIT = 2 ** 40;
const SUM_LIMIT = 2 ** 52;

export type TypedKind = 'count' | 'sum' | null;

export class GroupStates {
  readonly #specs: readonly GroupStateSpec[];
  readonly #ctx: EvalContext;
  /** per aggregate: the state objects, created on demand */
  readonly #states: (AggregateState | undefined)[][];
  /** per aggregate: what its typed arrays hold */
  readonly kinds: readonly TypedKind[];
  /** count: rows per group; sum: values added per group */
  readonly counts: Float64Array[];
  /** sum: the unscaled sum per group, at sumScales[g] (-1: nothing added yet) */
  readonly sums: Float64Array[];
  readonly sumScales: Int32Array[];
  #cap = 0;
  /** the tmp NumericSum is only ever set to a typed sum (big 0, no NaN / infinities) */
  readonly #tmp = new NumericSum();
  /** sum(numeric/int8): NumericSumState, whose final() is its NumericSum's result() */
  readonly #plainSum: readonly boolean[];

  constructor(specs: readonly GroupStateSpec[], ctx: EvalContext) {
    this.#specs = specs;
    this.#ctx = ctx;
    this.#states = specs.map(() => []);
    const probes = specs.map((s) => s.def.create(ctx, s.argTypes, s.type));
    this.kinds = probes.map((p) => (p instanceof CountState ? 'count' : scaledSumOf(p) !== null ? 'sum' : null));
    this.#plainSum = probes.map((p) => p instanceof NumericSumState);
    this.counts = specs.map(() => new Float64Array(0));
    this.sums = specs.map(() => new Float64Array(0));
    this.sumScales = specs.map(() => new Int32Array(0));
  }

  /** makes room for group ids below `groups` */
  ensure(groups: number): void {
    if (groups <= this.#cap) return;
    let cap = Math.max(1024, this.#cap);
    while (cap < groups) cap *= 2;
    for (let k = 0; k < this.kinds.length; k++) {
      const kind = this.kinds[k];
      if (kind === null) continue;
      this.counts[k] = grow(this.counts[k]!, cap);
      if (kind === 'sum') {
        this.sums[k] = grow(this.sums[k]!, cap);
        const sc = new Int32Array(cap).fill(-1);
        sc.set(this.sumScales[k]!);
        this.sumScales[k] = sc;
      }
    }
    this.#cap = cap;
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

  /** adds unscaled × 10^-scale to group g's sum of aggregate k (kind 'sum') */
  addScaled(k: number, g: number, unscaled: number, scale: number): void {
    const sc = this.sumScales[k]!;
    const cur = sc[g]!;
    if ((cur === scale || cur === -1) && unscaled < INPUT_LIMIT && unscaled > -INPUT_LIMIT) {
      const sums = this.sums[k]!;
      const t = sums[g]! + unscaled;
      if (t < SUM_LIMIT && t > -SUM_LIMIT) {
        sums[g] = t;
        sc[g] = scale;
        const cnt = this.counts[k]!;
        cnt[g] = cnt[g]! + 1;
        return;
      }
    }
    scaledSumOf(this.state(k, g))!.addScaled(unscaled, scale);
  }

  /** the result of aggregate k for group g: its typed part folded into its state, then final() */
  final(k: number, g: number): unknown {
    const kind = this.kinds[k];
    const typedOnly = g < this.#cap && this.#states[k]![g] === undefined;
    // no state object was needed: count(*)'s and sum(numeric)'s final() over the typed part alone (CountState, NumericSumState)
    if (typedOnly && kind === 'count') return BigInt(this.counts[k]![g]!);
    if (typedOnly && kind === 'sum' && this.#plainSum[k]) {
      const t = this.#tmp;
      t.small = this.sums[k]![g]!;
      t.scale = Math.max(0, this.sumScales[k]![g]!);
      t.count = this.counts[k]![g]!;
      return t.result();
    }
    const s = this.state(k, g);
    if (kind === 'count' && g < this.#cap) (s as CountState).n += this.counts[k]![g]!;
    else if (kind === 'sum' && g < this.#cap && this.counts[k]![g]! > 0) {
      const t = this.#tmp;
      t.small = this.sums[k]![g]!;
      t.scale = this.sumScales[k]![g]!;
      t.count = this.counts[k]![g]!;
      scaledSumOf(s)!.merge(t);
    }
    return s.final() ?? null;
  }
}

function grow(a: Float64Array, cap: number): Float64Array {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}
