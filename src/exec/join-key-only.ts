/**
 * A hash join's build-side int8 key kept as exact doubles, no BigInt per row (issue #4, TPC-H Q9). The scan
 * workers' int8 columns arrive with their int64 words attached (iceberg/parallel/column-transfer.ts), and the
 * hash table reads those as doubles (join-hash-table.ts) — but the column itself still held a BigInt per row,
 * and a build side lives until the probe ends: Q9's 300k o_orderkey BigInts at SF 0.2 survived the young
 * generation and were copied out of it, about a third of the main thread in garbage collection. When the key is
 * the join's only key, a plain int8 column nothing above the join and no residual reads (prune_join_columns'
 * conditionOnlyJoinColumns), each arriving batch's column becomes key-only (exact doubles and a shared
 * placeholder per row, common/pgtypes/exact-int64-column.ts) and the BigInts die young; the built rows then
 * carry the column as NULLs (nothing reads it), and a runtime key filter makes its few values from the doubles.
 * A batch whose keys are not all exact (2^53 or more, or no words attached) turns the converted batches back
 * into BigInts: the table is then built from values as before.
 * When the built input is a bare table scan, the scan is told (ScanContext.keyOnly, keyOnlyScanColumns): the
 * scan workers then never make the BigInts either — the column crosses threads as its exact doubles and arrives
 * key-only (iceberg/read/arrow-fast-columns.ts keyOnlyField, iceberg/parallel/column-transfer.ts).
 */
import type { Batch } from '../common/batch.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { exactInt64Of, KEY_ONLY_INT64, keyOnlyInt64Column } from '../common/pgtypes/exact-int64-column.ts';
import { someExpr, type Join, type LogicalPlan, type TableScan } from '../sql/index.ts';
import { conditionOnlyJoinColumns } from './optimizer/prune-join-columns.ts';
import type { EquiKeys } from './operators/hash-join-exec.ts';

/** integer types an int8 build key meets as numbers in the hash table (join-hash-table.ts INT_KEYS, no date) */
const INT_PROBE = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);

/**
 * The build input's column (its own numbering) that may arrive key-only, or -1: `side` is the built input; its
 * single equi key must be a plain int8 column that only the join condition reads, not its residual, and the
 * other side's key an integer (so the table hashes it as a number and never reads its values).
 */
export function keyOnlyBuildColumn(plan: Join, keys: EquiKeys, side: 'left' | 'right'): number {
  if (keys.left.length !== 1) return -1;
  const [build, probe] = side === 'left' ? [keys.left[0]!, keys.right[0]!] : [keys.right[0]!, keys.left[0]!];
  if (build.kind !== 'ColumnRef' || build.levelsUp !== 0 || build.type.oid !== Oid.int8 || !INT_PROBE.has(probe.type.oid)) return -1;
  const at = side === 'left' ? build.index : plan.left.columns.length + build.index;
  if (!(conditionOnlyJoinColumns(plan)?.includes(at) ?? false)) return -1;
  const residual = keys.residual;
  if (residual !== null && someExpr(residual, (x) => x.kind === 'ColumnRef' && x.levelsUp === 0 && x.index === at)) return -1;
  return build.index;
}

/**
 * Table scans that are a join's built input, and their column read only as its key-only build key. Set when the
 * join runs, read when the scan makes its ScanContext (operators/table-scan-exec.ts); a function of the plan
 * (join, keys, pruned columns), so the same for every execution of it.
 */
const keyOnlyScans = new WeakMap<TableScan, readonly number[]>();

/** tells `input` — the join's built input — that its column `column` may arrive key-only, when it is a bare table scan */
export function markKeyOnlyScan(input: LogicalPlan, column: number): void {
  if (input.kind === 'TableScan' && column < input.columns.length) keyOnlyScans.set(input, [column]);
}

/** the columns of `scan` a join above reads only as its key-only build key (ScanContext.keyOnly), if any */
export function keyOnlyScanColumns(scan: TableScan): readonly number[] | undefined {
  return keyOnlyScans.get(scan);
}

/** whether `col` is key-only already (a placeholder in every non-NULL row: its first value tells) */
function isKeyOnlyColumn(col: readonly unknown[], n: number): boolean {
  for (let i = 0; i < n; i++) if (col[i] !== null) return col[i] === KEY_ONLY_INT64;
  return false;
}

/** the build side's batches with column `column` key-only while every batch's keys are exact (see above) */
export class KeyOnlyBuild {
  /** the key-only columns made so far (to turn back if a later batch cannot be converted) */
  readonly #made = new Set<readonly unknown[]>();
  #on = true;
  /** whether every non-empty batch so far arrived key-only from the scan (none converted here) */
  #fromScan = true;
  #batches = 0;
  constructor(private readonly column: number) {}

  /** `b` with its key column key-only, or `b` itself (every later batch too once one could not be converted) */
  add(b: Batch): Batch {
    if (b.length === 0) return b;
    this.#batches++;
    const col = b.columns[this.column];
    // arrived key-only from the scan (markKeyOnlyScan): kept as it is, but remembered to turn back if need be
    if (col !== undefined && isKeyOnlyColumn(col, b.length)) {
      this.#made.add(col);
      return b;
    }
    this.#fromScan = false;
    if (!this.#on) return b;
    const x = col === undefined ? undefined : exactInt64Of(col, b.length);
    if (x === undefined) {
      this.#on = false;
      return b;
    }
    const columns = b.columns.slice();
    const keyOnly = keyOnlyInt64Column(x.f, b.length, x.nulls);
    this.#made.add(keyOnly);
    columns[this.column] = keyOnly;
    return { columns, length: b.length };
  }

  /** whether every batch arrived key-only */
  get keyOnly(): boolean {
    return this.#on;
  }

  /** whether every batch arrived key-only from the scan itself (EXPLAIN ANALYZE: no BigInt was made on any thread) */
  get fromScan(): boolean {
    return this.#on && this.#fromScan && this.#batches > 0;
  }

  /** the build's batches: as they are when all are key-only, else the converted ones with BigInts again */
  finish(batches: Batch[]): Batch[] {
    if (this.#on) return batches;
    return batches.map((b) => {
      const col = b.columns[this.column];
      if (col === undefined || !this.#made.has(col)) return b;
      const x = exactInt64Of(col, b.length)!;
      const values = new Array<unknown>(b.length);
      for (let i = 0; i < b.length; i++) values[i] = col[i] === null ? null : BigInt(x.f[i]!);
      const columns = b.columns.slice();
      columns[this.column] = values;
      return { columns, length: b.length };
    });
  }
}

/** a key-only column's value at row `j` (a built row with a non-NULL key), as the int8 value it stands for */
export function keyOnlyValue(column: readonly unknown[], n: number, j: number): unknown {
  const v = column[j];
  if (v !== KEY_ONLY_INT64) return v;
  return BigInt(exactInt64Of(column, n)!.f[j]!);
}
