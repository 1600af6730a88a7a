/**
 * DistinctRows: DISTINCT inside an aggregate call for the typed hash aggregate (vector-aggregate.ts). The rows
 * of a batch whose (group, arguments) pair was not seen before — in this batch or an earlier one — are the
 * ones the aggregate steps; pairs are numbered by a GroupTable keyed on the group id and the argument values
 * (valueKey equality, as the row path's rowKey), so a pair costs no key string. Rows with a NULL argument are
 * dropped first: the aggregates that take this path are strict.
 *
 * One integer argument (int2 / int4 / int8) is deduplicated by an IntPairSet of (group id, value as an exact
 * double) instead — no key columns per batch, no generic hashing (TPC-H Q16) — until a value of 2^53 or more
 * shows up, when the pairs move to the GroupTable.
 *
 * Only aggregates whose answer depends neither on the order of the distinct values nor on which of several
 * equal values is kept take this path (`distinctTypable`): count, and sum / avg / min / max over integers,
 * dates and timestamps. Others (a float sum's rounding, numeric 1.0 vs 1.00, string_agg's order) stay on the
 * row path, which sorts the distinct values as PostgreSQL does.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import type { AggregateDef } from '../../functions/registry-types.ts';
import { exactInt64Of } from '../../common/pgtypes/exact-int64-column.ts';
import { GroupTable } from '../group-table.ts';
import { IntPairSet } from './int-pair-set.ts';
import { valuesOf } from './vector-values.ts';
import { selCount, type Sel, type Vec } from './vector-types.ts';

const INT_TYPES = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);
const EXACT_TYPES = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.date, Oid.timestamp, Oid.timestamptz]);

/** whether `def`(DISTINCT args) may dedupe by DistinctRows: its answer is the same for any order of the distinct values */
export function distinctTypable(def: AggregateDef, argOids: readonly number[]): boolean {
  if (def.strict === false) return false;
  if (def.name === 'count') return true;
  if (argOids.length !== 1 || !EXACT_TYPES.has(argOids[0]!)) return false;
  if (def.name === 'min' || def.name === 'max') return true;
  const a = argOids[0]!;
  return (def.name === 'sum' || def.name === 'avg') && (a === Oid.int2 || a === Oid.int4 || a === Oid.int8);
}

export class DistinctRows {
  readonly #pairs: GroupTable;
  readonly #width: number;
  readonly #argOid: number;
  /** the pairs of one integer argument while every value was below 2^53 (then null: the GroupTable has them) */
  #intPairs: IntPairSet | null;
  #ids = new Int32Array(0);
  #rows = new Int32Array(0);

  constructor(argOids: readonly number[]) {
    this.#pairs = new GroupTable([Oid.int4, ...argOids]);
    this.#width = argOids.length;
    this.#argOid = argOids[0] ?? 0;
    this.#intPairs = argOids.length === 1 && INT_TYPES.has(this.#argOid) ? new IntPairSet() : null;
  }

  /** pairs seen so far */
  get size(): number { return this.#intPairs?.size ?? this.#pairs.size; }

  /** the rows of `sel` (ascending) whose arguments are not NULL and whose (gids[row], arguments) pair is new */
  firstRows(sel: Sel, args: readonly Vec[], n: number, gids: Int32Array): Int32Array {
    if (this.#intPairs !== null) {
      const out = intFirstRows(this.#intPairs, sel, valuesOf(args[0]!, sel, n), n, gids);
      if (out !== null) return out;
      this.#toGroupTable(this.#intPairs);
    }
    return this.#tableFirstRows(sel, args, n, gids);
  }

  /** a value of 2^53 or more: the pairs so far move to the GroupTable, which keeps every later batch */
  #toGroupTable(set: IntPairSet): void {
    this.#intPairs = null;
    const { gids, values } = set.pairs();
    const keys: unknown[] = this.#argOid === Oid.int8 ? values.map((v) => BigInt(v)) : values;
    this.#pairs.assign([gids, keys], gids.length, new Int32Array(gids.length));
  }

  #tableFirstRows(sel: Sel, args: readonly Vec[], n: number, gids: Int32Array): Int32Array {
    const m = selCount(sel, n);
    const vals = args.map((v) => valuesOf(v, sel, n));
    if (this.#rows.length < m) { this.#rows = new Int32Array(Math.max(m, 1024)); this.#ids = new Int32Array(this.#rows.length); }
    const rows = this.#rows;
    const cols: unknown[][] = [new Array<unknown>(m)];
    for (let c = 0; c < this.#width; c++) cols.push(new Array<unknown>(m));
    let r = 0;
    outer: for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      for (let c = 0; c < this.#width; c++) {
        const x = vals[c]![i];
        if (x === null || x === undefined) continue outer;
        cols[c + 1]![r] = x;
      }
      cols[0]![r] = gids[i]!;
      rows[r++] = i;
    }
    for (const col of cols) col.length = r;
    const ids = this.#ids;
    let next = this.#pairs.size;
    this.#pairs.assign(cols, r, ids);
    // ids are handed out in row order: a row carrying the next unused id is its pair's first row
    const out = new Int32Array(r);
    let k = 0;
    for (let q = 0; q < r; q++) if (ids[q] === next) { out[k++] = rows[q]!; next++; }
    return out.subarray(0, k);
  }
}

/**
 * The rows of `sel` whose non-NULL value's (group, value) pair is new, added to `set`; null (and nothing added)
 * when a value is not an integer below 2^53 in magnitude.
 */
function intFirstRows(set: IntPairSet, sel: Sel, vals: readonly unknown[], n: number, gids: Int32Array): Int32Array | null {
  const m = selCount(sel, n);
  const exact = exactInt64Of(vals, n);
  if (exact === undefined) {
    // int2 / int4 columns, and int8 ones the scan workers sent as numbers, are read as they are
    if (safeIntegers(vals, sel, n)) return addPairs(set, sel, m, vals as readonly (number | null | undefined)[], gids);
    const f = toExactDoubles(vals, sel, n);
    return f === null ? null : addExactPairs(set, sel, m, f, vals, null, gids);
  }
  // attached doubles say where the NULLs are (their column may be a one-slot array: exact-int64-column.ts)
  return addExactPairs(set, sel, m, exact.f, null, exact.nulls, gids);
}

/** whether every selected value is NULL or a safe integer number */
function safeIntegers(vals: readonly unknown[], sel: Sel, n: number): boolean {
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const x = vals[sel === null ? j : sel[j]!];
    if (x !== null && x !== undefined && !Number.isSafeInteger(x)) return false;
  }
  return true;
}

/** the rows whose non-NULL number's pair is new */
function addPairs(set: IntPairSet, sel: Sel, m: number, vals: readonly (number | null | undefined)[], gids: Int32Array): Int32Array {
  const out = new Int32Array(m);
  let k = 0;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = vals[i];
    if (x === null || x === undefined) continue;
    if (set.add(gids[i]!, x)) out[k++] = i;
  }
  return out.subarray(0, k);
}

/** the rows whose pair of `f[i]` is new, NULL where `vals[i]` is (vals given) or `nulls[i]` is 1 */
function addExactPairs(set: IntPairSet, sel: Sel, m: number, f: Float64Array, vals: readonly unknown[] | null, nulls: Uint8Array | null, gids: Int32Array): Int32Array {
  const out = new Int32Array(m);
  let k = 0;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    if (vals !== null ? vals[i] === null || vals[i] === undefined : nulls !== null && nulls[i] === 1) continue;
    if (set.add(gids[i]!, f[i]!)) out[k++] = i;
  }
  return out.subarray(0, k);
}

/** the selected rows' integer values as doubles (other rows 0), or null when one is 2^53 or more in magnitude */
function toExactDoubles(vals: readonly unknown[], sel: Sel, n: number): Float64Array | null {
  const f = new Float64Array(n);
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = vals[i];
    if (x === null || x === undefined) continue;
    const d = typeof x === 'bigint' ? Number(x) : (x as number);
    if (!Number.isSafeInteger(d)) return null;
    f[i] = d;
  }
  return f;
}
