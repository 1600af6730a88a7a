/**
 * TypedPartialGroups: a scan worker's partial aggregate kept the way the main thread's hash aggregate keeps
 * its groups (hash-aggregate-exec.ts #runGrouped): rows get dense group ids from a GroupTable (typed hashing,
 * no Map per key column), and the vectorized aggregates step typed counts, numeric sums and min / max by id
 * (GroupStates). Only when the groups are taken (a flush, or the task's end) does each group get its
 * AggregateState objects, the typed part folded in — the states run-fragment.ts packs as before, so the main
 * thread merges them unchanged. Used when every aggregate vectorizes and its typed part folds into a plain
 * state: count, sum / avg over numeric, min / max, or none (its state object is stepped directly). When every
 * aggregate is a count or numeric sum / avg kept wholly in typed arrays, `takeTyped` hands those arrays over
 * instead (partial-merge.ts adds them by group id: no state object per group on either thread). One or
 * two one-character string keys (flags, as TPC-H Q1's) find their group by a dense code (char-key-memo.ts);
 * string keys the scan kept dictionary codes for, by those codes (dictionary-key-groups.ts), before either —
 * such a key column may arrive lazy (codes only, iceberg/read/dictionary-strings.ts) and gets its values only
 * when the codes do not do.
 */
import type { Batch } from '../../common/batch.ts';
import type { CountState } from '../../functions/aggregates.ts';
import { NumericSum } from '../../functions/numeric-sum.ts';
import type { AggregateState, EvalContext } from '../../functions/registry-types.ts';
import type { Expr } from '../../sql/index.ts';
import type { RowFn } from '../expr/compile-expr.ts';
import { GroupStates, scaledSumOf, type GroupStateSpec, type TypedPartialStates } from '../expr/group-states.ts';
import type { VectorAggregation } from '../expr/vector-aggregate.ts';
import { GroupTable } from '../group-table.ts';
import { CharKeyMemo } from './char-key-memo.ts';
import { DictionaryKeyGroups } from './dictionary-key-groups.ts';
import { isLazyStrings, materializedStrings } from '../../iceberg/read/dictionary-strings.ts';

/** a group as run-fragment.ts packs it: its key values and one stepped, unfinished state per aggregate */
export interface PartialGroup {
  readonly keys: unknown[];
  readonly states: AggregateState[];
}

export class TypedPartialGroups {
  #table: GroupTable;
  #states: GroupStates;
  #gids = new Int32Array(0);
  /** per key: the input column it reads in place, or -1 (computed into `#computed`) */
  readonly #direct: readonly number[];
  readonly #computed: unknown[][];
  readonly #keyCols: (readonly unknown[])[];
  /** one-character string keys: group ids by dense code (char-key-memo.ts), or null */
  readonly #chars: CharKeyMemo | null;
  /** string keys with the scan's dictionary codes: group ids by code (dictionary-key-groups.ts), or null */
  readonly #codes: DictionaryKeyGroups | null;
  readonly #assignRows = (cols: readonly (readonly unknown[])[], n: number, out: Int32Array): void => this.#table.assign(cols, n, out);
  /** rows of the batch add() steps by key codes whose group ids are not assigned yet (-1: assigned, or none) */
  #unassigned = -1;
  /** the batch's group ids, assigned on first use and the states sized for them (VectorAggregation.accumulateByKeys) */
  readonly #gidsOf = (): Int32Array => {
    const n = this.#unassigned;
    if (n !== -1) {
      this.#unassigned = -1;
      this.#assign(n);
      this.#states.ensure(this.#table.size);
    }
    return this.#gids;
  };

  private constructor(
    private readonly keyFns: { readonly fns: readonly RowFn[]; readonly prepare: (b: Batch) => Promise<void> },
    keyExprs: readonly Expr[],
    private readonly keyOids: readonly number[],
    private readonly specs: readonly GroupStateSpec[],
    private readonly vector: VectorAggregation,
    private readonly ctx: EvalContext,
    states: GroupStates,
  ) {
    this.#table = new GroupTable(keyOids);
    this.#states = states;
    this.#direct = keyExprs.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? e.index : -1));
    this.#computed = keyExprs.map(() => []);
    this.#keyCols = keyExprs.map(() => []);
    this.#chars = CharKeyMemo.tryCreate(keyOids, this.#direct);
    this.#codes = DictionaryKeyGroups.tryCreate(keyOids, this.#direct);
  }

  /** the typed groups of these aggregates, or null when one's typed part does not fold into a plain state */
  static tryCreate(
    keyFns: { readonly fns: readonly RowFn[]; readonly prepare: (b: Batch) => Promise<void> },
    keyExprs: readonly Expr[],
    keyOids: readonly number[],
    specs: readonly GroupStateSpec[],
    vector: VectorAggregation | null,
    ctx: EvalContext,
  ): TypedPartialGroups | null {
    if (vector === null) return null;
    const states = new GroupStates(specs, ctx);
    // sum(int2 / int4) and sum(float) keep their typed sums apart from any state: not folded here
    if (states.kinds.some((k) => k === 'isum' || k === 'fsum')) return null;
    return new TypedPartialGroups(keyFns, keyExprs, keyOids, specs, vector, ctx, states);
  }

  /** groups so far */
  get size(): number { return this.#table.size; }

  /** whether key columns the scan kept codes for are grouped by them (then such a key may come lazy: run-fragment.ts) */
  get groupsByCodes(): boolean { return this.#codes !== null; }

  /** group g's key values */
  keysOf(g: number): unknown[] {
    return this.#table.values.map((c) => c[g]);
  }

  /** assigns the batch's rows to groups and steps their aggregates */
  async add(b: Batch): Promise<void> {
    const n = b.length;
    if (n === 0) return;
    await this.keyFns.prepare(b);
    if (this.#gids.length < n) this.#gids = new Int32Array(Math.max(n, 1024));
    const direct = this.#direct;
    const failed = computeKeys(direct, this.keyFns.fns, this.#computed, b.columns, n);
    if (failed !== null) {
      this.vector.raiseEarlierRowError(b.columns, failed.row);
      throw failed.error;
    }
    for (let c = 0; c < direct.length; c++) this.#keyCols[c] = direct[c] === -1 ? this.#computed[c]! : b.columns[direct[c]!]!;
    // string keys with the scan's codes: the aggregates read the codes, group ids are made only if needed
    const keys = this.#codes === null ? null : this.#codes.keyCodes(this.#keyCols, n);
    if (keys !== null) {
      this.#unassigned = n;
      this.vector.accumulateByKeys(b.columns, n, keys, this.#states, this.#gidsOf);
      this.#unassigned = -1;
      return;
    }
    this.#assign(n);
    this.#states.ensure(this.#table.size);
    this.vector.accumulateGroups(b.columns, n, this.#gids, this.#states);
  }

  /**
   * every group so far as key columns and typed states (no state object per group), in first-seen order, the
   * table starting empty again; null (nothing taken) unless every aggregate is a count or a numeric sum / avg
   * whose groups all stayed in the typed arrays
   */
  takeTyped(): { count: number; keys: unknown[][]; states: TypedPartialStates[] } | null {
    const gs = this.#states;
    for (let k = 0; k < gs.kinds.length; k++) {
      const kind = gs.kinds[k];
      if ((kind !== 'count' && kind !== 'sum') || gs.hasStates(k)) return null;
    }
    const table = this.#table, count = table.size;
    gs.ensure(count);
    const keys = this.keyOids.map((_o, c) => table.keySlice(c, 0, count));
    const states = gs.kinds.map((_k, k) => gs.typedPart(k, count));
    this.#reset();
    return { count, keys, states };
  }

  /** every group so far with its states (typed parts folded in), in first-seen order; the table starts empty again */
  take(): PartialGroup[] {
    const table = this.#table, gs = this.#states;
    const count = table.size;
    gs.ensure(count);
    const out: PartialGroup[] = new Array<PartialGroup>(count);
    for (let g = 0; g < count; g++) {
      const states: AggregateState[] = [];
      for (let k = 0; k < this.specs.length; k++) states.push(foldedState(gs, k, g));
      out[g] = { keys: this.keysOf(g), states };
    }
    this.#reset();
    return out;
  }

  /** the batch's group ids into #gids: by dictionary code, else by character code, else by the group table */
  #assign(n: number): void {
    const keys = this.#keyCols, out = this.#gids;
    if (this.#codes !== null && this.#codes.assign(keys, n, out, this.#assignRows)) return;
    // the codes did not do: a lazy key column's values are made for the paths below (dictionary-strings.ts)
    for (let c = 0; c < keys.length; c++) if (isLazyStrings(keys[c]!)) keys[c] = materializedStrings(keys[c]!);
    if (this.#chars !== null && this.#chars.assign(keys, n, out, this.#assignRows)) return;
    this.#table.assign(keys, n, out);
  }

  #reset(): void {
    this.#table = new GroupTable(this.keyOids);
    this.#chars?.reset();
    this.#codes?.reset();
    this.#states = new GroupStates(this.specs, this.ctx);
  }
}

/** group g's state of aggregate k with what GroupStates kept in typed arrays added (as its final() does, unfinished) */
function foldedState(gs: GroupStates, k: number, g: number): AggregateState {
  const kind = gs.kinds[k];
  if (kind === 'minmax') {
    // min / max are idempotent: stepping the typed best into the group's state (which may hold the rest) is exact
    const best = gs.minmax[k]!.final(g);
    const s = gs.state(k, g);
    if (best !== null) s.step([best]);
    return s;
  }
  const s = gs.state(k, g);
  if (kind === 'count') {
    (s as CountState).n += gs.counts[k]![g]!;
  } else if (kind === 'sum' && gs.counts[k]![g]! > 0) {
    const typed = new NumericSum();
    typed.big = gs.bigs[k]![g] ?? 0n;
    typed.small = gs.sums[k]![g]!;
    typed.scale = gs.sumScales[k]![g]!;
    typed.count = gs.counts[k]![g]!;
    scaledSumOf(s)!.merge(typed);
  }
  return s;
}

/**
 * the computed keys' values of rows 0..n-1 into `computed`, row by row; null, or the first row whose key threw
 * and its error. A function of its own (SCAN, session 18): with this row loop inside the async `add`, V8
 * compiled `add` on stack at the loop (OSR) before the code after it had ever run, and that code deoptimized
 * ("insufficient type feedback") on every batch for the next several queries (TPC-H q1: ~160 deopts a run).
 */
function computeKeys(direct: readonly number[], fns: readonly RowFn[], computed: unknown[][], cols: Batch['columns'], n: number): { row: number; error: unknown } | null {
  if (!direct.includes(-1)) return null;
  let i = 0;
  try {
    for (; i < n; i++) for (let c = 0; c < direct.length; c++) if (direct[c] === -1) computed[c]![i] = fns[c]!(cols, i);
  } catch (error) {
    return { row: i, error };
  }
  return null;
}
