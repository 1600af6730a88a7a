/**
 * Worker side of a partial aggregate: the task's batches (projected fields) widened to the scan's columns,
 * through the fragment's Filters and Projections (the executor's own FilterExec / ProjectionExec), then
 * grouped into fresh aggregate states that are stepped but never finalised. Groups come back in order of
 * first appearance, so merging tasks in task order keeps the main thread's group order. A group table whose
 * estimated size passes `flushBytes` is packed and emptied (a partial aggregate may emit a key more than once:
 * the final aggregate combines them), so a worker's state stays bounded however many groups its task has;
 * the earlier packs travel in `earlier`, in order. Batches the scan judged exactly (iceberg/parallel/exact-rows.ts)
 * skip the Filter conjuncts that are its pushed ones (pushed-conjuncts.ts, exact-skip-filter-exec.ts).
 */
import type { Batch } from '../../common/batch.ts';
import { toCloneable } from '../../iceberg/parallel/cloneable.ts';
import type { AggregateDef, AggregateState } from '../../functions/registry-types.ts';
import { denseLazyNumerics, isLazyNumeric, isSparseNumerics, materializeNumerics } from '../../common/pgtypes/numeric-column.ts';
import { someExpr, type Expr, type Projection } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileAll, compileExpr, type Compiled } from '../expr/compile-expr.ts';
import { compileShared } from '../expr/compile-shared.ts';
import { GroupLookup } from '../group-lookup.ts';
import { TypedPartialGroups } from './typed-partial-groups.ts';
import { keyOnlyColumns } from './dictionary-key-groups.ts';
import { isLazyStrings, materializedStrings } from '../../iceberg/read/dictionary-strings.ts';
import { VectorAggregation } from '../expr/vector-aggregate.ts';
import type { TypedPartialStates } from '../expr/group-states.ts';
import { GroupBytes } from '../memory/group-bytes.ts';
import type { ExecOperator } from '../operator.ts';
import { FilterExec } from '../operators/filter-exec.ts';
import { ProjectionExec } from '../operators/projection-exec.ts';
import { aggregateOfKey, decodeExpr } from './expr-wire.ts';
import { packStates, type PackedStates } from './state-wire.ts';
import { isPartitionedPartial, partitionGroups, type PartitionedPartial } from '../exchange/partition-groups.ts';
import { repartitionRows, type RepartitionedRows } from '../exchange/repartition-rows.ts';
import { workerExecContext, type WireEvalContext } from './worker-eval-context.ts';
import type { WireFragment } from './worker-fragment.ts';
import { isExact, markExact } from '../../iceberg/parallel/exact-rows.ts';
import { PushedConjuncts, type JudgedScan } from './pushed-conjuncts.ts';
import { ExactSkipFilterExec, workerFilterPlan } from './exact-skip-filter-exec.ts';

/** what the main thread sends with each task */
export interface FragmentRequest {
  readonly fragment: WireFragment;
  readonly eval: WireEvalContext;
  /** split the groups into this many hash partitions for merge tasks (exchange/partition-groups.ts) */
  readonly partitions?: number;
  /** send the rows, not partial states, split into this many hash partitions (exchange/repartition-rows.ts) */
  readonly repartition?: number;
  /** pack and empty the task's group table when its estimated size passes this (default: never) */
  readonly flushBytes?: number;
}

/** one task's groups, column-wise: `count` groups, one key column per group key, packed states per aggregate */
export interface PartialGroups {
  readonly count: number;
  /** key values per group-key column (toCloneable'd when `keysTagged`) */
  readonly keys: readonly (readonly unknown[])[];
  readonly keysTagged: readonly boolean[];
  readonly states: readonly PackedStates[];
  /** instead of `states` (then empty): per aggregate, the groups' typed counts and sums (typed-partial-groups.ts takeTyped) */
  readonly typed?: readonly TypedPartialStates[];
  /** groups packed earlier in the task, when its table was flushed (run-fragment.ts), in order */
  readonly earlier?: readonly PartialGroups[];
}

const noRun = (): never => { throw new Error('subqueries do not run in scan workers'); };

/**
 * widens batches of the read fields to the scan's width; unread columns share one all-NULL array. A lazy
 * numeric column (pgtypes/numeric-column.ts) stays lazy only when `lazyOk(column)`: else its Numerics are
 * made here, before any operator reads it — and one that stays lazy is sparse (no element, numeric-column.ts
 * sparseLazyNumerics) only when `sparseOk(exact)` for the batch (no Filter picks its rows, copying elements):
 * else it is made dense here; a lazy string column (iceberg/read/dictionary-strings.ts) only when
 * `codesOk(column, exact)` for the batch: else its values are made here, as a new array.
 */
async function* widened(batches: AsyncIterable<Batch>, f: WireFragment, lazyOk: (column: number) => boolean, codesOk: (column: number, exact: boolean) => boolean, sparseOk: (exact: boolean) => boolean): AsyncIterable<Batch> {
  let nulls: unknown[] = [];
  for await (const b of batches) {
    if (nulls.length < b.length) nulls = new Array<unknown>(b.length).fill(null);
    const columns: (readonly unknown[])[] = new Array<readonly unknown[]>(f.width).fill(nulls);
    const exact = isExact(b);
    f.projection.forEach((c, k) => {
      const col = b.columns[k]!;
      if (isLazyNumeric(col)) {
        if (!lazyOk(c)) materializeNumerics(col);
        else if (!sparseOk(exact) && isSparseNumerics(col)) { columns[c] = denseLazyNumerics(col); return; }
      }
      columns[c] = isLazyStrings(col) && !codesOk(c, exact) ? materializedStrings(col) : col;
    });
    const out: Batch = { length: b.length, columns };
    // the same rows, wider: a scan's exact verdict (exact-rows.ts) still holds
    yield exact ? markExact(out) : out;
  }
}

/**
 * The scan columns a lazy numeric column may stay lazy in: read only by the aggregates' vector kernels, which
 * take its doubles and materialize it themselves before a row closure or values are wanted (vector-expr.ts,
 * vector-numeric.ts). So: aggregates that vectorize, groups (not rows) going back, no Projection in the
 * fragment (its outputs would rename the column), and the column in no Filter and no group key.
 */
function lazyColumns(ops: readonly { readonly kind: 'Filter' | 'Projection'; readonly exprs: readonly Expr[] }[], keys: readonly Expr[], vectorized: boolean): (column: number) => boolean {
  if (!vectorized || ops.some((o) => o.kind === 'Projection')) return () => false;
  const read = new Set<number>();
  for (const e of [...ops.flatMap((o) => o.exprs), ...keys]) {
    someExpr(e, (x) => { if (x.kind === 'ColumnRef') read.add(x.index); return false; });
  }
  return (c) => !read.has(c);
}

/** the scan columns (levelsUp 0) `exprs` read */
function columnsRead(exprs: readonly Expr[]): Set<number> {
  const read = new Set<number>();
  for (const e of exprs) someExpr(e, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) read.add(x.index); return false; });
  return read;
}

/** rows between two looks at the cancel flag (expressions may be slow: a batch can take seconds) */
const CANCEL_CHECK_ROWS = 1024;

/**
 * Runs `req` over one task's batches (fields in `req.fragment.projection` order); null once `canceled()`
 * turned true (looked at between batches and every CANCEL_CHECK_ROWS rows). With `req.partitions`, the
 * groups come back split by key hash, their buffers listed in `transfer` (to be moved, not copied).
 */
export async function runFragment(
  req: FragmentRequest,
  batches: AsyncIterable<Batch>,
  canceled: () => boolean,
  transfer: ArrayBufferLike[] = [],
  judged?: Pick<JudgedScan, 'filter' | 'fields'> & { readonly unreadWhenExact?: Set<number> },
): Promise<PartialGroups | PartitionedPartial | RepartitionedRows | null> {
  const f = req.fragment;
  const stop = new AbortController();
  const ctx = workerExecContext(req.eval, stop.signal);
  const env: Env = { ctx, outer: [], workTables: new Map(), run: noRun };
  const ops = f.ops.map((op) => (op.kind === 'Filter'
    ? { kind: 'Filter' as const, exprs: [decodeExpr(op.predicate)] }
    : { kind: 'Projection' as const, exprs: op.exprs.map(decodeExpr) }));
  let lazyOk: (column: number) => boolean = () => false;
  let codesOk: (column: number, exact: boolean) => boolean = () => false;
  let sparseOk: (exact: boolean) => boolean = () => false;
  let input: ExecOperator = { name: 'WorkerTaskScan', children: [], execute: () => widened(batches, f, lazyOk, codesOk, sparseOk) };
  // the Filters below any Projection read the scan's row: conjuncts the scan judged exactly are skipped for its exact batches
  const constant = (e: Expr): unknown => {
    try {
      return compileExpr(e, env).fn([], 0);
    } catch {
      return undefined;
    }
  };
  const pushed = judged === undefined ? null : new PushedConjuncts({ ...judged, projection: f.projection, width: f.width, params: ctx.params, constant });
  let overScan = true;
  // whether every Filter passes a batch the scan marked exact through untouched (a Filter's row pick would copy a lazy column's holes)
  let exactPassThrough = true;
  // what the Filters over the scan still evaluate on exact batches (the conjuncts they do not skip)
  const restOverScan: Expr[] = [];
  for (const op of ops) {
    overScan &&= op.kind === 'Filter';
    const split = overScan && pushed !== null ? pushed.split(op.exprs[0]!) : null;
    if (overScan) restOverScan.push(...(split === null ? op.exprs : split.rest === null ? [] : [split.rest]));
    exactPassThrough &&= split !== null && split.skipped > 0 && split.rest === null;
    input = split !== null && split.skipped > 0
      ? new ExactSkipFilterExec(op.exprs[0]!, split.rest, input, env)
      : op.kind === 'Filter'
        ? new FilterExec(workerFilterPlan(op.exprs[0]!), input, env)
        : new ProjectionExec({ kind: 'Projection', exprs: op.exprs } as unknown as Projection, input, env);
  }
  const aggs = f.aggregates.map((a) => ({
    def: aggregateOfKey(a.def) as AggregateDef,
    args: a.args.map(decodeExpr),
    argTypes: a.argTypes,
    type: a.type,
    filter: a.filter === null ? null : decodeExpr(a.filter),
  }));
  const keyExprs = f.groupKeys.map(decodeExpr);
  const keys = compileAll(keyExprs, env);
  if (judged?.unreadWhenExact !== undefined && req.repartition === undefined && ops.every((o) => o.kind === 'Filter')) {
    // groups go back, and nothing renames the scan's columns: a read field that only skipped conjuncts read is not converted on exact batches
    const read = columnsRead([...restOverScan, ...keyExprs, ...aggs.flatMap((a) => (a.filter === null ? a.args : [...a.args, a.filter]))]);
    f.projection.forEach((c, k) => { if (!read.has(c)) judged.unreadWhenExact!.add(judged.fields[k]!.id); });
  } else if (judged?.unreadWhenExact !== undefined && req.repartition !== undefined && ops.length > 0 && ops[ops.length - 1]!.kind === 'Projection' && ops.filter((o) => o.kind === 'Projection').length === 1) {
    // rows go back as the one Projection after the Filters makes them (partial/worker-rows.ts: TPC-H q13's o_comment,
    // read only by its NOT LIKE, which the scan judged on the bytes): the scan fields neither reads are not converted
    const read = columnsRead([...restOverScan, ...ops[ops.length - 1]!.exprs]);
    f.projection.forEach((c, k) => { if (!read.has(c)) judged.unreadWhenExact!.add(judged.fields[k]!.id); });
  }
  if (req.repartition !== undefined) return repartitionRows(input, keys.fns, f.keyOids, req.repartition, canceled, transfer);
  const args = compileShared(aggs.map((a) => a.args), env);
  const filters: (Compiled | null)[] = aggs.map((a) => (a.filter === null ? null : compileExpr(a.filter, env)));
  const strict = aggs.map((a) => a.def.strict !== false);
  type Group = { keys: unknown[]; states: AggregateState[] };
  let order: Group[] = [];
  const newLookup = (): GroupLookup<Group> => new GroupLookup(keys.fns, f.keyOids, (kv) => {
    const g = { keys: kv, states: aggs.map((a) => a.def.create(ctx, a.argTypes, a.type)) };
    order.push(g);
    return g;
  });
  let lookup = newLookup();
  const scratch = args.map((a) => new Array<unknown>(a.fns.length));
  // a batch at a time when every argument and FILTER vectorizes (expr/vector-aggregate.ts)
  const vector = VectorAggregation.tryCreate(aggs, env);
  lazyOk = lazyColumns(ops, keyExprs, vector !== null);
  // a sparse lazy decimal on batches no Filter picks rows of (takeColumn would copy its elements)
  sparseOk = (exact) => ops.length === 0 || (exact && exactPassThrough);
  const rowStates: AggregateState[][] = [];
  // typed group ids and states when the aggregates allow (typed-partial-groups.ts): no Map or state object per group while rows stream in
  const typed = TypedPartialGroups.tryCreate(keys, keyExprs, f.keyOids, aggs, vector, ctx);
  if (typed !== null && typed.groupsByCodes && ops.every((o) => o.kind === 'Filter')) {
    // string keys grouped by their codes alone may stay lazy (no string per row): those nothing else reads
    // … on batches no Filter picks rows of: with no Filter, or exact batches every Filter passes through
    const keyOnly = keyOnlyColumns(keyExprs, [...ops.flatMap((o) => o.exprs), ...aggs.flatMap((a) => (a.filter === null ? a.args : [...a.args, a.filter]))], new Set());
    const noFilters = ops.length === 0;
    codesOk = (c, exact) => keyOnly.has(c) && (noFilters || (exact && exactPassThrough));
  }
  const flushBytes = req.flushBytes ?? Infinity;
  const size = new GroupBytes({ groupKeys: f.groupKeys, aggregates: aggs.map((a) => ({ distinct: false, orderBy: [], def: a.def })) });
  const packed: (PartialGroups | PartitionedPartial)[] = [];
  const pack = (groups: readonly Group[]): PartialGroups | PartitionedPartial => (req.partitions !== undefined
    ? partitionGroups(groups, f.keyOids, aggs.length, req.partitions, transfer)
    : packGroups(groups, f.groupKeys.length, aggs.length));
  // to the main thread's merge, counts and numeric sums go as typed arrays when no group needed a state object
  const packTyped = (t: TypedPartialGroups): PartialGroups | PartitionedPartial => {
    const taken = req.partitions === undefined ? t.takeTyped() : null;
    return taken === null ? pack(t.take()) : packTypedGroups(taken.count, taken.keys, taken.states, transfer);
  };
  for await (const b of input.execute()) {
    if (canceled()) return null;
    if (typed !== null) {
      await typed.add(b);
    } else if (vector !== null) {
      const n = b.length;
      vector.accumulate(b.columns, n, rowStates, (i) => lookup.find(b.columns, i).states);
    } else {
      for (const a of args) await a.prepare(b);
      for (let i = 0; i < b.length; i++) {
        if (i % CANCEL_CHECK_ROWS === CANCEL_CHECK_ROWS - 1 && canceled()) return null;
        const g = lookup.find(b.columns, i);
        for (let a = 0; a < aggs.length; a++) {
          const flt = filters[a];
          if (flt && flt.fn(b.columns, i) !== true) continue;
          const fns = args[a]!.fns;
          const vals = scratch[a]!;
          let skip = false;
          for (let k = 0; k < fns.length; k++) {
            const v = fns[k]!(b.columns, i);
            vals[k] = v;
            if (v === null) skip = true;
          }
          if (skip && strict[a]) continue;
          g.states[a]!.step(vals);
        }
      }
    }
    const groups = order;
    if (typed !== null) size.add(b.length, typed.size, (g) => typed.keysOf(g));
    else size.add(b.length, groups.length, (g) => groups[g]!.keys);
    if (size.bytes > flushBytes) {
      // the table is packed (typed columns, far smaller than the group objects) and emptied
      packed.push(typed !== null ? packTyped(typed) : pack(order));
      order = [];
      lookup = newLookup();
      size.reset();
    }
  }
  const last = typed !== null ? packTyped(typed) : pack(order);
  if (packed.length === 0) return last;
  if (isPartitionedPartial(last)) return { ...last, earlier: packed as PartitionedPartial[] };
  return { ...last, earlier: packed as PartialGroups[] };
}

/** typed groups for the main thread's merge: key columns as packGroups sends them, the typed arrays moved */
function packTypedGroups(count: number, keyCols: unknown[][], typed: readonly TypedPartialStates[], transfer: ArrayBufferLike[]): PartialGroups {
  const keysTagged = keyCols.map((col) => col.some((v) => typeof v === 'object' && v !== null));
  for (const t of typed) for (const a of [t.counts, t.sums, t.scales]) if (a !== null) transfer.push(a.buffer);
  return {
    count,
    keys: keyCols.map((col, c) => (keysTagged[c] ? col.map(toCloneable) : col)),
    keysTagged,
    states: [],
    typed,
  };
}

/** groups column-wise for the main thread's merge (partial-aggregate-exec.ts) */
function packGroups(order: readonly { readonly keys: readonly unknown[]; readonly states: readonly AggregateState[] }[], width: number, aggs: number): PartialGroups {
  const keyCols = Array.from({ length: width }, (_k, c) => order.map((g) => g.keys[c]));
  const keysTagged = keyCols.map((col) => col.some((v) => typeof v === 'object' && v !== null));
  return {
    count: order.length,
    keys: keyCols.map((col, c) => (keysTagged[c] ? col.map(toCloneable) : col)),
    keysTagged,
    states: Array.from({ length: aggs }, (_a, k) => packStates(order.map((g) => g.states[k]!))),
  };
}
