/**
 * BatchGroupSums: sum / avg over a scaled numeric vector, pre-aggregated per group for one batch before it
 * reaches GroupStates (vector-aggregate.ts). When a batch's rows fall into few groups (TPC-H Q1: four), each
 * row costs one add into a small per-group array instead of GroupStates' per-row scale and range checks, and
 * aggregates over the same argument vector (Q1's sum(l_quantity) and avg(l_quantity), the memoized
 * l_extendedprice * (1 - l_discount) of two sums) share one pass: the per-group partials are folded into
 * each aggregate's typed state with GroupStates.mergeTyped, once per group.
 *
 * Exactness: a group's partial stays below 2^52 in magnitude (mergeTyped's operand bound); a row that would
 * pass it abandons the batch's partial for that vector and the caller steps the rows as before.
 */
import { maxGroup } from './coded-product-sums.ts';
import type { GroupStates, TypedPartialStates } from './group-states.ts';
import { selCount, type Sel, type ScaledVec } from './vector-types.ts';

/** a group's partial stays below this, so mergeTyped's double addition is exact */
const PARTIAL_LIMIT = 2 ** 52;
/** pre-aggregate only when the batch's groups are at most this many … */
const MAX_GROUPS = 4096;
/** … and at most one per this many rows */
const ROWS_PER_GROUP = 8;

export class BatchGroupSums {
  #groups = 0;
  #ids = new Int32Array(0);
  /** this batch's partials by argument vector and selection (null: a row left the exact range) */
  readonly #parts = new Map<ScaledVec, Map<Sel, TypedPartialStates | null>>();

  /**
   * starts a batch: false when its rows spread over too many groups for a per-group partial to pay; `groups`:
   * the batch's largest group id + 1, when the caller knows it
   */
  begin(gids: Int32Array, n: number, groups = maxGroup(gids, n) + 1): boolean {
    this.#parts.clear();
    if (groups > MAX_GROUPS || groups * ROWS_PER_GROUP > n) { this.#groups = 0; return false; }
    this.#groups = groups;
    if (this.#ids.length < groups) this.#ids = Int32Array.from({ length: Math.max(groups, 64) }, (_v, g) => g);
    return true;
  }

  /** adds the selected non-NULL rows of `v` to aggregate k's groups; false (nothing added) when they do not fit */
  add(k: number, v: ScaledVec, sel: Sel, n: number, gids: Int32Array, gs: GroupStates): boolean {
    if (this.#groups === 0) return false;
    let bySel = this.#parts.get(v);
    if (bySel === undefined) { bySel = new Map(); this.#parts.set(v, bySel); }
    let part = bySel.get(sel);
    if (part === undefined) {
      part = partialSums(v, sel, n, gids, this.#groups);
      bySel.set(sel, part);
    }
    if (part === null) return false;
    gs.mergeTyped(k, this.#ids, this.#groups, part);
    return true;
  }
}

/** per group: the count and the unscaled sum of the selected non-NULL rows; null when a sum reaches 2^52 */
function partialSums(v: ScaledVec, sel: Sel, n: number, gids: Int32Array, groups: number): TypedPartialStates | null {
  const sums = new Float64Array(groups), counts = new Float64Array(groups);
  const f = v.f, nul = v.nul;
  const m = selCount(sel, n);
  if (sel === null && nul === null) {
    for (let i = 0; i < m; i++) {
      const g = gids[i]!, t = sums[g]! + f[i]!;
      // exact: both operands are integers and a sum below 2^52 is representable (rounding is monotone)
      if (t >= PARTIAL_LIMIT || t <= -PARTIAL_LIMIT) return null;
      sums[g] = t;
      counts[g] = counts[g]! + 1;
    }
  } else {
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      if (nul !== null && nul[i] === 1) continue;
      const g = gids[i]!, t = sums[g]! + f[i]!;
      if (t >= PARTIAL_LIMIT || t <= -PARTIAL_LIMIT) return null;
      sums[g] = t;
      counts[g] = counts[g]! + 1;
    }
  }
  return { counts, sums, scales: new Int32Array(groups).fill(v.scale), bigs: null };
}
