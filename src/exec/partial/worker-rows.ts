/**
 * A serial aggregate's input filtered in the scan workers (issue #4). When partial states do not reduce the
 * rows (TPC-H Q13: one group per order's customer in every file), the aggregate runs on the main thread
 * (partial-aggregate-exec.ts). Without this, the main thread then also got every scanned column of every row
 * and ran the fragment's Filters itself — Q13's ~300k o_comment strings (SF 0.2) structured-cloned across
 * threads only for `NOT LIKE '%special%requests%'` to read them once, 40 % of its main thread in GC. Here the
 * workers run the fragment's Filters and Projections and send back only the columns the aggregate reads (the
 * others as one NULL constant: exchange/repartition-rows.ts with one set), so the main thread aggregates
 * narrow, already filtered rows.
 * Used only when the fragment filters (else the scan already sends just the columns the aggregate reads) and
 * the aggregate reads no numeric column (the plain scan sends decimals as doubles the vector kernels read
 * lazily, the row path here as a Numeric per value).
 */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { attachInt64Words } from '../../common/pgtypes/exact-int64-column.ts';
import { runTasksInParallel } from '../../iceberg/parallel/parallel-scan.ts';
import type { SourceParallelScan } from '../../iceberg/parallel/source-parallel-scan.ts';
import { someExpr, type Aggregate, type ColumnRefExpr, type Expr, type LiteralExpr } from '../../sql/index.ts';
import { isRepartitionedRows, type RowSet } from '../exchange/repartition-rows.ts';
import { unpackRows, type WireColumn } from '../exchange/wire-column.ts';
import { encodeExpr } from './expr-wire.ts';
import type { FragmentRequest } from './run-fragment.ts';
import { fragmentChain, type WireFragment } from './worker-fragment.ts';

const BOOL = sqlType(Oid.bool);
const TRUE: LiteralExpr = { kind: 'Literal', value: true, type: BOOL };

/**
 * the input columns the aggregate reads (group keys, arguments, FILTERs), and of those the ones read only as
 * the argument of count(x) itself (only whether each value is NULL matters)
 */
function columnsRead(plan: Aggregate): { read: Set<number>; countOnly: Set<number> } {
  const read = new Set<number>();
  const other = new Set<number>();
  const counted = new Set<number>();
  const see = (e: Expr): void => {
    someExpr(e, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) { read.add(x.index); other.add(x.index); } return false; });
  };
  for (const k of plan.groupKeys) see(k);
  for (const a of plan.aggregates) {
    const arg = a.args[0];
    if (a.def.name === 'count' && a.args.length === 1 && arg?.kind === 'ColumnRef' && arg.levelsUp === 0) {
      read.add(arg.index);
      counted.add(arg.index);
    } else {
      for (const x of a.args) see(x);
    }
    if (a.filter !== null) see(a.filter);
  }
  return { read, countOnly: new Set([...counted].filter((c) => !other.has(c))) };
}

/**
 * `true` where `col` is not NULL, else NULL: what count(col) reads of a column nothing else reads. TPC-H Q13's
 * count(o_orderkey) then costs no int8 per row (a BigInt on this thread) — a NOT NULL column's marks are all
 * true and cross as one constant (exchange/wire-column.ts). The count's main-thread kernel reads only whether a
 * value is NULL (expr/vector-aggregate.ts), so the boolean stands for the column's own type there.
 */
function notNullMark(col: ColumnRefExpr): Expr {
  return {
    kind: 'Case',
    whens: [{ cond: { kind: 'NullTest', arg: col, negated: true, type: BOOL }, result: { kind: 'Literal', value: true, type: BOOL } }],
    elseExpr: { kind: 'Literal', value: null, type: BOOL },
    type: BOOL,
  };
}

/**
 * the aggregate's input columns that are NOT NULL columns of the scanned table, read through Filters only (a
 * Projection renumbers them): count(x) of such a column counts every row, so its mark is the constant `true` and
 * the workers need not convert x at all (TPC-H Q13's count(o_orderkey): a BigInt per order made only to see it is
 * not NULL; run-fragment.ts leaves a field nothing reads unconverted on batches the scan judged exactly)
 */
function notNullColumns(plan: Aggregate): Set<number> {
  const out = new Set<number>();
  const chain = fragmentChain(plan);
  if (chain === null || chain.ops.some((o) => o.kind === 'Projection')) return out;
  const table = chain.scan.source.columns;
  chain.scan.columns.forEach((col, i) => {
    const def = table[i];
    if (def !== undefined && def.name === col.name && !def.nullable) out.add(i);
  });
  return out;
}

/**
 * `fragment` with one more Projection that keeps the aggregate's input columns in place but makes every column
 * it does not read NULL, or null when the workers should not send rows (no Filter in the fragment, or a
 * numeric column read). The worker's aggregate expressions are not evaluated in this mode (one set: no key).
 */
export function rowsFragment(plan: Aggregate, fragment: WireFragment): WireFragment | null {
  if (!fragment.ops.some((o) => o.kind === 'Filter')) return null;
  const { read, countOnly } = columnsRead(plan);
  const columns = plan.input.columns;
  // (numeric too when only counted: its main-thread column kernels convert values to scaled doubles first)
  for (const c of read) if (columns[c]?.type.oid === Oid.numeric) return null;
  const notNull = countOnly.size > 0 ? notNullColumns(plan) : new Set<number>();
  const exprs = columns.map((col, i): Expr => {
    if (!read.has(i)) return { kind: 'Literal', value: null, type: col.type } satisfies LiteralExpr;
    const ref: ColumnRefExpr = { kind: 'ColumnRef', index: i, levelsUp: 0, type: col.type, name: col.name };
    if (!countOnly.has(i)) return ref;
    return notNull.has(i) ? TRUE : notNullMark(ref);
  });
  return { ...fragment, ops: [...fragment.ops, { kind: 'Projection', exprs: exprs.map(encodeExpr) }] };
}

/** arrays of one repeated value (NULL, count's `true`), shared by the batches of one scan: batches are never written */
class SharedConstants {
  readonly #byValue = new Map<unknown, unknown[]>();
  of(value: unknown, n: number): unknown[] {
    let a = this.#byValue.get(value);
    if (a === undefined || a.length < n) this.#byValue.set(value, (a = new Array<unknown>(n).fill(value)));
    return a;
  }
}

/**
 * at most this many rows per batch cut from a set (the workers send a set per scan batch, exchange/repartition-rows.ts;
 * a set of a whole task of grouped small files held ~37k rows at SF 0.2, 130k at SF 1): a JS array of more than ~16k
 * entries is a large object V8 maps fresh and the kernel faults in page by page (~50 ns per value on the dev VM,
 * 5–10× the cost of an array in the young generation)
 */
export const WORKER_ROWS_BATCH = 8192;

/** rows from … to-1 of one column of a task's rows */
function columnOf(w: WireColumn, from: number, to: number, shared: SharedConstants): readonly unknown[] {
  if (w.kind === 'const' && (w.value === null || w.value === true)) return shared.of(w.value, to - from);
  const col = unpackRows(w, from, to);
  // int8 group keys hash as exact doubles read from the words, not per bigint (common/pgtypes/exact-int64-column.ts)
  if (w.kind === 'i64') attachInt64Words(col, w.values.subarray(from, to), to - from, w.nulls === null ? null : w.nulls.subarray(from, to));
  return col;
}

function batchOf(set: RowSet, from: number, to: number, shared: SharedConstants): Batch {
  const columns = new Array<readonly unknown[]>(set.columns.length);
  for (let c = 0; c < columns.length; c++) columns[c] = columnOf(set.columns[c]!, from, to, shared);
  return { length: to - from, columns };
}

/**
 * The aggregate's input rows, filtered and narrowed by `rows` (rowsFragment) in the scan workers, in task order
 * (the order a main-thread scan yields them, so groups keep their order of first appearance).
 */
export async function* workerRows(pool: SourceParallelScan, request: FragmentRequest, rows: WireFragment): AsyncIterable<Batch> {
  const shared = new SharedConstants();
  const req: FragmentRequest = { fragment: rows, eval: request.eval, repartition: 1 };
  for await (const r of runTasksInParallel(pool.scan, pool.tasks, pool.fields, pool.read, req)) {
    const got = r.partial;
    if (!isRepartitionedRows(got)) throw pgError('XX000', 'a scan worker answered a rows fragment without rows');
    for (const set of got.parts) {
      for (let from = 0; from < set.length; from += WORKER_ROWS_BATCH) yield batchOf(set, from, Math.min(set.length, from + WORKER_ROWS_BATCH), shared);
    }
  }
}
