/**
 * Aggregate accumulation a batch at a time (hash aggregate and the workers' partial aggregate): the
 * aggregates' FILTERs and arguments are computed as vectors (vector-expr.ts), then each aggregate walks the
 * batch once, stepping the state of each row's group: count(*) adds to its counter, sum/avg over numeric
 * take a scaled numeric column straight into their NumericSum (no Numeric or bigint per row), the others
 * step with the row's argument values as before. `accumulateGroups` does the same by group id into GroupStates
 * (group-states.ts: count and numeric sum / avg in typed arrays per group) for HashAggregateExec; when a
 * batch's rows fall into few groups, numeric sums / avgs are first summed per group for the batch, once per
 * argument vector (batch-group-sums.ts), and a numeric CASE of mixed display scales is summed a scale at a time.
 *
 * Errors: when computing the filters and arguments of a batch raises, the batch's expressions are evaluated
 * again row by row (nothing is stepped) so the error is the one of the first failing row, as PostgreSQL's
 * per-row evaluation reports it.
 */
import { materializeAllNumerics } from '../../common/pgtypes/numeric-column.ts';
import { CountState } from '../../functions/aggregates.ts';
import type { NumericSum } from '../../functions/numeric-sum.ts';
import type { AggregateDef, AggregateState } from '../../functions/registry-types.ts';
import type { Expr } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { BatchGroupSums } from './batch-group-sums.ts';
import { CodedProductSums, maxGroup, type KeyCodes } from './coded-product-sums.ts';
import { compileExpr, type Cols, type RowFn } from './compile-expr.ts';
import { DistinctRows } from './distinct-rows.ts';
import { scaledSumOf, type GroupStates, type TypedKind } from './group-states.ts';
import { valuesOf, VectorCompiler, type VecFn } from './vector-expr.ts';
import { selCount, type MixedScaledVec, type ScaledVec, type Sel, type Vec } from './vector-types.ts';

export interface VectorAggregateSpec {
  readonly def: AggregateDef;
  readonly args: readonly Expr[];
  readonly filter: Expr | null;
  /** DISTINCT inside the call: only where distinctTypable (distinct-rows.ts), and only for accumulateGroups */
  readonly distinct?: boolean;
}

interface Compiled {
  readonly strict: boolean;
  readonly filter: VecFn | null;
  readonly args: readonly VecFn[];
  readonly rowFilter: RowFn | null;
  readonly rowArgs: readonly RowFn[];
  /** DISTINCT: the (group, arguments) pairs seen */
  readonly distinct: DistinctRows | null;
}

export class VectorAggregation {
  readonly #aggs: readonly Compiled[];
  readonly #compiler: VectorCompiler;
  /** numeric sums / avgs pre-aggregated per group for the batch, shared by aggregates of one argument */
  readonly #batchSums = new BatchGroupSums();
  /** numeric sums / avgs of column products summed per (group, dictionary code) for the batch, or null */
  readonly #coded: CodedProductSums | null;

  private constructor(aggs: readonly Compiled[], compiler: VectorCompiler, coded: CodedProductSums | null) {
    this.#aggs = aggs;
    this.#compiler = compiler;
    this.#coded = coded;
  }

  /** null when an argument or FILTER cannot be vectorized (subqueries, volatile functions) */
  static tryCreate(specs: readonly VectorAggregateSpec[], env: Env): VectorAggregation | null {
    const compiler = new VectorCompiler(env);
    const aggs: Compiled[] = [];
    for (const s of specs) {
      const filter = s.filter === null ? null : compiler.tryCompile(s.filter);
      if (s.filter !== null && filter === null) return null;
      const args: VecFn[] = [];
      for (const a of s.args) {
        const f = compiler.tryCompile(a);
        if (f === null) return null;
        args.push(f);
      }
      aggs.push({
        strict: s.def.strict !== false, filter, args,
        rowFilter: s.filter === null ? null : compileExpr(s.filter, env).fn,
        rowArgs: s.args.map((a) => compileExpr(a, env).fn),
        distinct: s.distinct === true ? new DistinctRows(s.args.map((a) => a.type.oid)) : null,
      });
    }
    return new VectorAggregation(aggs, compiler, CodedProductSums.tryCreate(specs));
  }

  /**
   * steps, for every row i of the batch, the states of its group (`groupOf(i)`: one per aggregate) with the
   * row's arguments; `rowStates` is scratch space the caller keeps between batches
   */
  accumulate(cols: Cols, n: number, rowStates: (readonly AggregateState[])[], groupOf: (row: number) => readonly AggregateState[]): void {
    if (this.#aggs.some((a) => a.distinct !== null)) throw new Error('internal error: DISTINCT aggregates need accumulateGroups');
    try {
      for (let i = 0; i < n; i++) rowStates[i] = groupOf(i);
    } catch (err) {
      this.#rowByRow(cols, n, groupOf);
      throw err;
    }
    const vecs = this.#vectors(cols, n, groupOf);
    for (let k = 0; k < this.#aggs.length; k++) stepAll(k, this.#aggs[k]!, vecs.sels[k]!, vecs.args[k]!, n, rowStates);
  }

  /** steps, for every row i of the batch, the aggregates of group gids[i] (group-states.ts: typed counts and sums) */
  accumulateGroups(cols: Cols, n: number, gids: Int32Array, states: GroupStates): void {
    // one look for the batch's largest group id, shared by the two per-batch partials below
    const groups = n === 0 ? 0 : maxGroup(gids, n) + 1;
    // the aggregates summed through dictionary codes need no argument vector (coded-product-sums.ts)
    const done = this.#coded === null ? null : this.#coded.run(cols, n, gids, states, groups);
    // all of them (TPC-H Q1): nothing left to evaluate or sum
    if (allDone(done, this.#aggs.length)) return;
    this.#stepRest(cols, n, gids, states, groups, done);
  }

  /**
   * accumulateGroups for rows whose groups the string keys' dictionary codes give (coded-product-sums.ts
   * KeyCodes): the aggregates summed through codes read the key codes themselves, and `gidsOf` — the batch's
   * group ids, assigned and `states` sized for them (TypedPartialGroups) — is called only when they are needed:
   * a key the group table was not asked for yet, or an aggregate left to the vector kernels. TPC-H Q1 takes
   * every aggregate so: no group id per row.
   */
  accumulateByKeys(cols: Cols, n: number, keys: KeyCodes, states: GroupStates, gidsOf: () => Int32Array): void {
    const done = this.#coded === null ? null : this.#coded.runByKeys(cols, n, keys, states, gidsOf);
    if (allDone(done, this.#aggs.length)) return;
    const gids = gidsOf();
    this.#stepRest(cols, n, gids, states, n === 0 ? 0 : maxGroup(gids, n) + 1, done);
  }

  /** the aggregates `done` does not mark, stepped by group id (`groups`: the batch's largest id + 1) */
  #stepRest(cols: Cols, n: number, gids: Int32Array, states: GroupStates, groups: number, done: readonly boolean[] | null): void {
    const vecs = this.#vectors(cols, n, undefined, done);
    const sums = this.#batchSums.begin(gids, n, groups) ? this.#batchSums : null;
    for (let k = 0; k < this.#aggs.length; k++) {
      if (done !== null && done[k] === true) continue;
      const a = this.#aggs[k]!;
      const sel = a.distinct === null ? vecs.sels[k]! : a.distinct.firstRows(vecs.sels[k]!, vecs.args[k]!, n, gids);
      stepGroups(k, a, sel, vecs.args[k]!, n, gids, states, sums);
    }
  }

  /**
   * evaluates the FILTERs and arguments of rows 0 … upTo-1 row by row: the caller's key of row `upTo` failed, and
   * PostgreSQL, evaluating row after row, would have raised an earlier row's argument error first
   */
  raiseEarlierRowError(cols: Cols, upTo: number): void {
    this.#rowByRow(cols, upTo, () => undefined);
  }

  /** each aggregate's FILTER selection and argument vectors; on an error, the first failing row's error (keys by `groupOf`) */
  #vectors(cols: Cols, n: number, groupOf: (row: number) => unknown = () => undefined, skip: readonly boolean[] | null = null): { sels: Sel[]; args: Vec[][] } {
    this.#compiler.reset();
    const sels: Sel[] = [];
    const args: Vec[][] = [];
    try {
      for (const a of this.#aggs) {
        // an aggregate taken elsewhere (FILTER-less, so its selection is every row; its argument never raises)
        if (skip !== null && skip[sels.length] === true) { sels.push(null); args.push([]); continue; }
        let sel: Sel = null;
        if (a.filter !== null) {
          const f = valuesOf(a.filter(cols, n, null), null, n);
          const keep = new Int32Array(n);
          let k = 0;
          for (let i = 0; i < n; i++) if (f[i] === true) keep[k++] = i;
          sel = keep.subarray(0, k);
        }
        sels.push(sel);
        args.push(a.args.map((fn) => fn(cols, n, sel)));
      }
    } catch (err) {
      this.#rowByRow(cols, n, groupOf);
      throw err;
    }
    return { sels, args };
  }

  /** the row closures over the batch (group keys first, as the row-at-a-time loop), to raise the first failing row's error */
  #rowByRow(cols: Cols, n: number, groupOf: (row: number) => unknown): void {
    materializeAllNumerics(cols);
    for (let i = 0; i < n; i++) {
      groupOf(i);
      for (const a of this.#aggs) {
        if (a.rowFilter !== null && a.rowFilter(cols, i) !== true) continue;
        for (const f of a.rowArgs) f(cols, i);
      }
    }
  }
}

function stepAll(k: number, a: Compiled, sel: Sel, vecs: readonly Vec[], n: number, rowStates: (readonly AggregateState[])[]): void {
  const m = selCount(sel, n);
  if (m === 0) return;
  const first = rowStates[sel === null ? 0 : sel[0]!]![k]!;
  if (vecs.length === 0) {
    if (first instanceof CountState) {
      for (let j = 0; j < m; j++) (rowStates[sel === null ? j : sel[j]!]![k] as CountState).n++;
      return;
    }
    const none: unknown[] = [];
    for (let j = 0; j < m; j++) rowStates[sel === null ? j : sel[j]!]![k]!.step(none);
    return;
  }
  const v0 = vecs[0]!;
  if (vecs.length === 1 && v0.tag === 'scaled' && scaledSumOf(first) !== null) {
    const { f, scale, nul } = v0;
    let prev: readonly AggregateState[] | null = null;
    let sum: NumericSum | null = null;
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      if (nul !== null && nul[i] === 1) continue; // sum and avg are strict
      const states = rowStates[i]!;
      if (states !== prev) { prev = states; sum = scaledSumOf(states[k]!); }
      sum!.addScaled(f[i]!, scale);
    }
    return;
  }
  stepEachRow(a, sel, vecs, n, m, (i) => rowStates[i]![k]!);
}

/** the general path: each selected row's argument values stepped into the state `stateOf` gives for that row */
function stepEachRow(a: Compiled, sel: Sel, vecs: readonly Vec[], n: number, m: number, stateOf: (row: number) => { step(args: unknown[]): void }): void {
  const vals = vecs.map((v) => valuesOf(v, sel, n));
  const scratch = new Array<unknown>(vals.length);
  const strict = a.strict;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    let skip = false;
    for (let c = 0; c < vals.length; c++) {
      const x = vals[c]![i] ?? null;
      scratch[c] = x;
      if (x === null) skip = true;
    }
    if (skip && strict) continue;
    stateOf(i).step(scratch);
  }
}

function stepGroups(k: number, a: Compiled, sel: Sel, vecs: readonly Vec[], n: number, gids: Int32Array, gs: GroupStates, sums: BatchGroupSums | null): void {
  const m = selCount(sel, n);
  if (m === 0) return;
  const kind = gs.kinds[k];
  if (kind === 'count' && (vecs.length === 0 || (vecs.length === 1 && a.strict))) {
    const cnt = gs.counts[k]!;
    if (vecs.length === 0) {
      for (let j = 0; j < m; j++) { const g = gids[sel === null ? j : sel[j]!]!; cnt[g] = cnt[g]! + 1; }
      return;
    }
    // count(x): the rows where x is not NULL
    const v = vecs[0]!;
    if (v.tag === 'scaled' || v.tag === 'mixed') {
      for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; if (v.nul === null || v.nul[i] === 0) { const g = gids[i]!; cnt[g] = cnt[g]! + 1; } }
      return;
    }
    const vals = valuesOf(v, sel, n);
    for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; const x = vals[i]; if (x !== null && x !== undefined) { const g = gids[i]!; cnt[g] = cnt[g]! + 1; } }
    return;
  }
  if (vecs.length === 1 && kind !== null && kind !== undefined && kind !== 'count') { stepTyped(k, kind, vecs[0]!, sel, n, m, gids, gs, sums); return; }
  stepEachRow(a, sel, vecs, n, m, (i) => gs.state(k, gids[i]!));
}

/** the typed kinds of group-states.ts (sum, min / max) over their one argument vector */
function stepTyped(k: number, kind: Exclude<TypedKind, 'count' | null>, v: Vec, sel: Sel, n: number, m: number, gids: Int32Array, gs: GroupStates, sums: BatchGroupSums | null): void {
  if (kind === 'minmax') {
    const mm = gs.minmax[k]!;
    if (v.tag === 'scaled' && mm.cls === 'num') mm.addScaled(v.f, v.scale, v.nul, sel, n, gids);
    else mm.addValues(valuesOf(v, sel, n), sel, n, gids);
    return;
  }
  if (v.tag === 'scaled' && kind === 'sum') {
    if (sums !== null && sums.add(k, v, sel, n, gids, gs)) return;
    gs.addScaledRows(k, v.f, v.scale, v.nul, sel, n, gids);
    return;
  }
  if (v.tag === 'mixed' && kind === 'sum') {
    // the rows of each display scale as one scaled vector (a group's sum keeps the largest scale it saw)
    for (const part of byScale(v, sel, n)) {
      if (sums !== null && sums.add(k, part.vec, part.rows, n, gids, gs)) continue;
      gs.addScaledRows(k, part.vec.f, part.vec.scale, null, part.rows, n, gids);
    }
    return;
  }
  const vals = valuesOf(v, sel, n);
  if (kind === 'sum') {
    // integers (sum(int8), avg(int)) at scale 0; numerics the scaled kernels did not take step the state
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      const x = vals[i];
      if (x === null || x === undefined) continue;
      if (typeof x === 'number' || typeof x === 'bigint') gs.addInteger(k, gids[i]!, x);
      else gs.state(k, gids[i]!).step([x]);
    }
    return;
  }
  // int2 / int4 / float4 / float8 values are numbers (pgtypes/values.ts)
  for (let j = 0; j < m; j++) {
    const x = vals[sel === null ? j : sel[j]!];
    if (x !== null && x !== undefined && typeof x !== 'number') throw new Error(`internal error: ${typeof x} value in a sum over ${gs.typeOf(k).oid}`);
  }
  if (kind === 'isum') {
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      const x = vals[i];
      if (x !== null && x !== undefined) gs.addInt(k, gids[i]!, x as number);
    }
    return;
  }
  const type = gs.typeOf(k).oid;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = vals[i];
    if (x !== null && x !== undefined) gs.addFloat(k, gids[i]!, x as number, type);
  }
}

/** a mixed-scale vector's selected non-NULL rows split by display scale (memoized: aggregates of one argument share it) */
const splits = new WeakMap<MixedScaledVec, Map<Sel, readonly { vec: ScaledVec; rows: Int32Array }[]>>();
function byScale(v: MixedScaledVec, sel: Sel, n: number): readonly { vec: ScaledVec; rows: Int32Array }[] {
  let bySel = splits.get(v);
  if (bySel === undefined) { bySel = new Map(); splits.set(v, bySel); }
  let parts = bySel.get(sel);
  if (parts !== undefined) return parts;
  const { scales, nul } = v;
  const m = selCount(sel, n);
  const rows = new Map<number, number[]>();
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    if (nul !== null && nul[i] === 1) continue;
    const s = scales[i]!;
    let r = rows.get(s);
    if (r === undefined) { r = []; rows.set(s, r); }
    r.push(i);
  }
  parts = [...rows].map(([scale, r]) => ({ vec: { tag: 'scaled', f: v.f, scale, nul: null } as const, rows: Int32Array.from(r) }));
  bySel.set(sel, parts);
  return parts;
}

/** every aggregate taken by the coded sums (TPC-H Q1): nothing left to evaluate or step */
function allDone(done: readonly boolean[] | null, aggs: number): boolean {
  return done !== null && done.length === aggs && done.every((d) => d);
}
