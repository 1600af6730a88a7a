/**
 * A serial aggregate's scan rows without a value object per row (issue #4, TPC-H Q18). When partial states do
 * not reduce the rows (GROUP BY l_orderkey: about one group per four rows), the aggregate runs on the main
 * thread (partial-aggregate-exec.ts) over the scan's batches. Unpacked the usual way (iceberg/parallel/
 * column-transfer.ts) every int8 key becomes a BigInt and every decimal a Numeric — 1.2M of each per Q18 run at
 * SF 0.2, a young-generation collection every few batches — though the GroupTable reads the key's exact doubles
 * and the vector kernels the decimal's. Here, when the aggregate's input is the bare scan and it runs batch at a
 * time (HashAggregateExec.vectorFor), its single int8 group key arrives key-only (exact doubles and a
 * placeholder per row, common/pgtypes/exact-int64-column.ts) and the decimals only its aggregates read arrive
 * lazy (numeric-column.ts, as a scan worker's own partial aggregate reads them: run-fragment.ts lazyColumns).
 */
import { nullColumn, type Batch } from '../../common/batch.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { exactDoublesOf, keyOnlyInt64Column } from '../../common/pgtypes/exact-int64-column.ts';
import { attachLazyScaled, LAZY_NUMERIC, sparseLazyNumerics } from '../../common/pgtypes/numeric-column.ts';
import { unpackColumn, type PackedBatch, type PackedColumn } from '../../iceberg/parallel/column-transfer.ts';
import { runTasksInParallel } from '../../iceberg/parallel/parallel-scan.ts';
import type { SourceParallelScan } from '../../iceberg/parallel/source-parallel-scan.ts';
import { someExpr, type Aggregate, type Expr } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { HashAggregateExec } from '../operators/hash-aggregate-exec.ts';
import type { WireFragment } from './worker-fragment.ts';

/** how a scan column may arrive: as usual, key-only int8, or lazy decimal */
export type LazyKind = 'values' | 'key' | 'scaled';

/** how the pool's columns (in projection order) arrive, and where they go in the aggregate's input */
export interface LazyScan {
  readonly kinds: readonly LazyKind[];
  /** the table column of each pool field */
  readonly projection: readonly number[];
  /** the input's width (the table's columns; those not projected are NULL, as TableScanExec's batches) */
  readonly width: number;
}

/** the input columns `e` reads */
function columnsOf(e: Expr, into: Set<number>): void {
  someExpr(e, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) into.add(x.index); return false; });
}

/**
 * Per input column of `plan`, how it may arrive, or null when nothing would: the fragment must be the bare scan
 * (no Filter or Projection between it and the aggregate) and the aggregate must run batch at a time. The key
 * column: the one group key, a plain int8 column nothing else reads. Lazy decimals: numeric columns no group key
 * reads.
 */
export function lazyScanColumns(plan: Aggregate, fragment: WireFragment, env: Env): LazyScan | null {
  if (fragment.ops.length > 0 || plan.groupingSets !== null) return null;
  const columns = plan.input.columns;
  if (fragment.projection.some((c) => c >= columns.length)) return null;
  if (HashAggregateExec.vectorFor(plan, env) === null) return null;
  const inKeys = new Set<number>();
  for (const k of plan.groupKeys) columnsOf(k, inKeys);
  const inAggregates = new Set<number>();
  for (const a of plan.aggregates) {
    for (const x of a.args) columnsOf(x, inAggregates);
    if (a.filter !== null) columnsOf(a.filter, inAggregates);
  }
  const key = plan.groupKeys.length === 1 ? plan.groupKeys[0]! : null;
  const keyColumn = key !== null && key.kind === 'ColumnRef' && key.levelsUp === 0 && key.type.oid === Oid.int8 ? key.index : -1;
  // per projected column (the pool's fields are in projection order; the scan's batches are as wide as the table)
  const kinds = fragment.projection.map((i): LazyKind => {
    if (i === keyColumn && !inAggregates.has(i)) return 'key';
    if (columns[i]!.type.oid === Oid.numeric && !inKeys.has(i)) return 'scaled';
    return 'values';
  });
  return kinds.some((k) => k !== 'values') ? { kinds, projection: fragment.projection, width: columns.length } : null;
}

/** column `p` as `kind` allows (the usual values when its packed form does not fit the lazy one) */
function columnOf(p: PackedColumn, n: number, kind: LazyKind): unknown[] {
  if (kind === 'key' && p.kind === 'i64') {
    const f = exactDoublesOf(p.values, n, p.nulls);
    if (f !== null) return keyOnlyInt64Column(f, n, p.nulls);
  } else if (kind === 'scaled' && p.kind === 'decimal53') {
    const f = p.values.length === n ? p.values : p.values.subarray(0, n);
    const nulls = p.nulls;
    // no NULL: a sparse column (no element; the aggregate's kernels read only `f`), else placeholders and NULLs
    if (nulls === null) {
      const out = sparseLazyNumerics(n);
      attachLazyScaled(out, f, p.scale, true);
      return out;
    }
    const out = new Array<unknown>(n).fill(LAZY_NUMERIC);
    for (let i = 0; i < n; i++) if (nulls[i] === 1) out[i] = null;
    attachLazyScaled(out, f, p.scale);
    return out;
  }
  return unpackColumn(p, n);
}

/** the batch as wide as the table (as TableScanExec's), the columns not projected one shared NULL column */
function batchOf(p: PackedBatch, lazy: LazyScan): Batch {
  const n = p.length;
  const nulls = nullColumn(n);
  const columns = new Array<readonly unknown[]>(lazy.width).fill(nulls);
  for (let k = 0; k < p.columns.length; k++) columns[lazy.projection[k]!] = columnOf(p.columns[k]!, n, lazy.kinds[k] ?? 'values');
  return { length: n, columns };
}

/** the scan's batches from the pool, in task order, their columns as `lazy` allows (lazyScanColumns) */
export async function* lazyScanRows(pool: SourceParallelScan, lazy: LazyScan): AsyncIterable<Batch> {
  for await (const r of runTasksInParallel(pool.scan, pool.tasks, pool.fields, pool.read)) {
    for (const b of r.batches) yield batchOf(b, lazy);
  }
}
