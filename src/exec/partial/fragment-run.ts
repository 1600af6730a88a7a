/**
 * FragmentRun: one task's run of a worker fragment (run-fragment.ts runFragment) — its setup (the Filters and
 * Projections over the task's batches, the aggregates, the group table) and its per-batch steps, as plain
 * synchronous methods.
 *
 * Why not inline in runFragment: that function is async (and `widened` an async generator), and V8 compiles an
 * async function whole — its resume points, every closure and every callee it inlines. Each deoptimization of it
 * (a scan worker sees a few "wrong map" deopts per ten runs of a query shape, after its major GCs) re-optimized
 * all of it: 26–31 % of a scan worker's compile time in TPC-H q6 at SF 1 (session 25). Here runFragment is a short
 * driver, and these steps are optimized on their own (the row loop too big to be inlined into it).
 */
import type { Batch } from '../../common/batch.ts';
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
import { GroupBytes } from '../memory/group-bytes.ts';
import type { ExecOperator } from '../operator.ts';
import { FilterExec } from '../operators/filter-exec.ts';
import { ProjectionExec } from '../operators/projection-exec.ts';
import { aggregateOfKey, decodeExpr } from './expr-wire.ts';
import { partitionGroups, type PartitionedPartial } from '../exchange/partition-groups.ts';
import { workerExecContext } from './worker-eval-context.ts';
import type { WireFragment } from './worker-fragment.ts';
import { isExact, markExact } from '../../iceberg/parallel/exact-rows.ts';
import { PushedConjuncts, type JudgedScan } from './pushed-conjuncts.ts';
import { ExactSkipFilterExec, workerFilterPlan } from './exact-skip-filter-exec.ts';
import type { FragmentRequest, PartialGroups } from './run-fragment.ts';
import { packGroups, packTypedGroups, type Group } from './fragment-packs.ts';

/** the scan's exact verdict on the batches, what runFragment's `judged` carries */
export type FragmentJudged = Pick<JudgedScan, 'filter' | 'fields'> & { readonly unreadWhenExact?: Set<number> };

interface FragmentAggregate {
  readonly def: AggregateDef;
  readonly args: Expr[];
  readonly argTypes: WireFragment['aggregates'][number]['argTypes'];
  readonly type: WireFragment['aggregates'][number]['type'];
  readonly filter: Expr | null;
}

type FragmentOp = { readonly kind: 'Filter' | 'Projection'; readonly exprs: readonly Expr[] };

const noRun = (): never => { throw new Error('subqueries do not run in scan workers'); };

/** rows between two looks at the cancel flag (expressions may be slow: a batch can take seconds) */
const CANCEL_CHECK_ROWS = 1024;

export class FragmentRun {
  readonly req: FragmentRequest;
  readonly fragment: WireFragment;
  readonly env: Env;
  /** the fragment's Filters and Projections over the task's (widened) batches */
  readonly input: ExecOperator;
  readonly keys: ReturnType<typeof compileAll>;
  /** null when rows, not groups, go back (req.repartition) */
  readonly typed: TypedPartialGroups | null = null;
  readonly vector: VectorAggregation | null = null;
  readonly args: ReturnType<typeof compileShared> = [];
  readonly #aggs: readonly FragmentAggregate[];
  readonly #filters: readonly (Compiled | null)[] = [];
  readonly #strict: readonly boolean[] = [];
  readonly #scratch: unknown[][] = [];
  readonly #rowStates: AggregateState[][] = [];
  readonly #size: GroupBytes | null = null;
  readonly #packed: (PartialGroups | PartitionedPartial)[] = [];
  readonly #transfer: ArrayBufferLike[];
  #order: Group[] = [];
  #lookup: GroupLookup<Group> | null = null;
  /** widen's all-NULL column for unread fields (shared by every batch it is long enough for) */
  #nulls: unknown[] = [];
  // widen's gates (see there); set once the aggregates are known, before any batch is read
  #lazyOk: (column: number) => boolean = () => false;
  #codesOk: (column: number, exact: boolean) => boolean = () => false;
  #sparseOk: (exact: boolean) => boolean = () => false;

  constructor(req: FragmentRequest, batches: AsyncIterable<Batch>, transfer: ArrayBufferLike[], judged: FragmentJudged | undefined) {
    const f = req.fragment;
    this.req = req;
    this.fragment = f;
    this.#transfer = transfer;
    const ctx = workerExecContext(req.eval, new AbortController().signal);
    const env: Env = { ctx, outer: [], workTables: new Map(), run: noRun };
    this.env = env;
    const ops: FragmentOp[] = f.ops.map((op) => (op.kind === 'Filter'
      ? { kind: 'Filter' as const, exprs: [decodeExpr(op.predicate)] }
      : { kind: 'Projection' as const, exprs: op.exprs.map(decodeExpr) }));
    const { input, restOverScan, exactPassThrough } = operatorsOver({ name: 'WorkerTaskScan', children: [], execute: () => widened(batches, this) }, ops, f, env, judged);
    this.input = input;
    const aggs: FragmentAggregate[] = f.aggregates.map((a) => ({
      def: aggregateOfKey(a.def) as AggregateDef,
      args: a.args.map(decodeExpr),
      argTypes: a.argTypes,
      type: a.type,
      filter: a.filter === null ? null : decodeExpr(a.filter),
    }));
    this.#aggs = aggs;
    const keyExprs = f.groupKeys.map(decodeExpr);
    this.keys = compileAll(keyExprs, env);
    noteUnreadWhenExact(req, ops, restOverScan, keyExprs, aggs, judged);
    if (req.repartition !== undefined) return;
    this.args = compileShared(aggs.map((a) => a.args), env);
    this.#filters = aggs.map((a) => (a.filter === null ? null : compileExpr(a.filter, env)));
    this.#strict = aggs.map((a) => a.def.strict !== false);
    this.#lookup = this.#newLookup();
    this.#scratch = this.args.map((a) => new Array<unknown>(a.fns.length));
    // a batch at a time when every argument and FILTER vectorizes (expr/vector-aggregate.ts)
    this.vector = VectorAggregation.tryCreate(aggs, env);
    this.#lazyOk = lazyColumns(ops, keyExprs, this.vector !== null);
    // a sparse lazy decimal on batches no Filter picks rows of (takeColumn would copy its elements)
    const noFilters = ops.length === 0;
    this.#sparseOk = (exact) => noFilters || (exact && exactPassThrough);
    // typed group ids and states when the aggregates allow (typed-partial-groups.ts): no Map or state object per group while rows stream in
    this.typed = TypedPartialGroups.tryCreate(this.keys, keyExprs, f.keyOids, aggs, this.vector, ctx);
    if (this.typed !== null && this.typed.groupsByCodes && ops.every((o) => o.kind === 'Filter')) {
      // string keys grouped by their codes alone may stay lazy (no string per row): those nothing else reads
      // … on batches no Filter picks rows of: with no Filter, or exact batches every Filter passes through
      const keyOnly = keyOnlyColumns(keyExprs, [...ops.flatMap((o) => o.exprs), ...aggs.flatMap((a) => (a.filter === null ? a.args : [...a.args, a.filter]))], new Set());
      this.#codesOk = (c, exact) => keyOnly.has(c) && (noFilters || (exact && exactPassThrough));
    }
    this.#size = new GroupBytes({ groupKeys: f.groupKeys, aggregates: aggs.map((a) => ({ distinct: false, orderBy: [], def: a.def })) });
  }

  /** a batch of the read fields widened to the scan's width (unread columns share one all-NULL array; lazy columns made when their readers need) */
  widen(b: Batch): Batch {
    const f = this.fragment;
    if (this.#nulls.length < b.length) this.#nulls = new Array<unknown>(b.length).fill(null);
    const columns: (readonly unknown[])[] = new Array<readonly unknown[]>(f.width).fill(this.#nulls);
    const exact = isExact(b);
    const projection = f.projection;
    for (let k = 0; k < projection.length; k++) {
      const c = projection[k]!;
      const col = b.columns[k]!;
      if (isLazyNumeric(col)) {
        if (!this.#lazyOk(c)) materializeNumerics(col);
        else if (!this.#sparseOk(exact) && isSparseNumerics(col)) { columns[c] = denseLazyNumerics(col); continue; }
      }
      columns[c] = isLazyStrings(col) && !this.#codesOk(c, exact) ? materializedStrings(col) : col;
    }
    const out: Batch = { length: b.length, columns };
    // the same rows, wider: a scan's exact verdict (exact-rows.ts) still holds
    return exact ? markExact(out) : out;
  }

  /** the batch's rows into their groups' states, a batch at a time (vector !== null) */
  vectorBatch(b: Batch): void {
    const lookup = this.#lookup!;
    this.vector!.accumulate(b.columns, b.length, this.#rowStates, (i) => lookup.find(b.columns, i).states);
  }

  /** the batch's rows into their groups' states a row at a time (args prepared for `b`); false once `canceled()` */
  rowBatch(b: Batch, canceled: () => boolean): boolean {
    const lookup = this.#lookup!;
    const aggs = this.#aggs, args = this.args, filters = this.#filters, strict = this.#strict, scratch = this.#scratch;
    for (let i = 0; i < b.length; i++) {
      if (i % CANCEL_CHECK_ROWS === CANCEL_CHECK_ROWS - 1 && canceled()) return false;
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
    return true;
  }

  /** counts the batch's groups; past req.flushBytes the table is packed (typed columns, far smaller than the group objects) and emptied */
  afterBatch(b: Batch): void {
    const size = this.#size!, typed = this.typed;
    const groups = this.#order;
    if (typed !== null) size.add(b.length, typed.size, (g) => typed.keysOf(g));
    else size.add(b.length, groups.length, (g) => groups[g]!.keys);
    if (size.bytes > (this.req.flushBytes ?? Infinity)) {
      this.#packed.push(this.#packNow());
      this.#order = [];
      this.#lookup = this.#newLookup();
      size.reset();
    }
  }

  /** the task's groups: the last pack, with the flushed ones before it in `earlier` */
  finish(): PartialGroups | PartitionedPartial {
    const last = this.#packNow();
    if (this.#packed.length === 0) return last;
    return { ...last, earlier: this.#packed } as PartialGroups | PartitionedPartial;
  }

  #newLookup(): GroupLookup<Group> {
    const aggs = this.#aggs, ctx = this.env.ctx;
    return new GroupLookup(this.keys.fns, this.fragment.keyOids, (kv) => {
      const g: Group = { keys: kv, states: aggs.map((a) => a.def.create(ctx, a.argTypes, a.type)) };
      this.#order.push(g);
      return g;
    });
  }

  /** the groups so far, packed for the main thread's merge (counts and numeric sums as typed arrays when no group needed a state object) */
  #packNow(): PartialGroups | PartitionedPartial {
    const typed = this.typed;
    let groups: readonly Group[] = this.#order;
    if (typed !== null) {
      const taken = this.req.partitions === undefined ? typed.takeTyped() : null;
      if (taken !== null) return packTypedGroups(taken.count, taken.keys, this.fragment.keyOids, taken.states, this.#transfer);
      groups = typed.take();
    }
    return this.req.partitions !== undefined
      ? partitionGroups(groups, this.fragment.keyOids, this.#aggs.length, this.req.partitions, this.#transfer)
      : packGroups(groups, this.fragment.groupKeys.length, this.#aggs.length);
  }
}

/** the run's batches widened (FragmentRun.widen): a short generator, the step is sync */
async function* widened(batches: AsyncIterable<Batch>, run: FragmentRun): AsyncIterable<Batch> {
  for await (const b of batches) yield run.widen(b);
}

/**
 * the fragment's Filters and Projections over `scan`. The Filters below any Projection read the scan's row:
 * conjuncts the scan judged exactly are skipped for its exact batches. Also: what those Filters still evaluate
 * on exact batches, and whether every Filter passes an exact batch through untouched (a Filter's row pick would
 * copy a lazy column's holes).
 */
function operatorsOver(scan: ExecOperator, ops: readonly FragmentOp[], f: WireFragment, env: Env, judged: FragmentJudged | undefined): { input: ExecOperator; restOverScan: Expr[]; exactPassThrough: boolean } {
  const constant = (e: Expr): unknown => {
    try {
      return compileExpr(e, env).fn([], 0);
    } catch {
      return undefined;
    }
  };
  const pushed = judged === undefined ? null : new PushedConjuncts({ ...judged, projection: f.projection, width: f.width, params: env.ctx.params, constant });
  let input = scan;
  let overScan = true;
  let exactPassThrough = true;
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
  return { input, restOverScan, exactPassThrough };
}

/** adds to judged.unreadWhenExact the read fields no reader of an exact batch looks at (they are then not converted) */
function noteUnreadWhenExact(req: FragmentRequest, ops: readonly FragmentOp[], restOverScan: readonly Expr[], keyExprs: readonly Expr[], aggs: readonly FragmentAggregate[], judged: FragmentJudged | undefined): void {
  const unread = judged?.unreadWhenExact;
  if (judged === undefined || unread === undefined) return;
  const f = req.fragment;
  let read: Set<number>;
  if (req.repartition === undefined && ops.every((o) => o.kind === 'Filter')) {
    // groups go back, and nothing renames the scan's columns: a read field that only skipped conjuncts read is not converted on exact batches
    read = columnsRead([...restOverScan, ...keyExprs, ...aggs.flatMap((a) => (a.filter === null ? a.args : [...a.args, a.filter]))]);
  } else if (req.repartition !== undefined && ops.length > 0 && ops[ops.length - 1]!.kind === 'Projection' && ops.filter((o) => o.kind === 'Projection').length === 1) {
    // rows go back as the one Projection after the Filters makes them (partial/worker-rows.ts: TPC-H q13's o_comment,
    // read only by its NOT LIKE, which the scan judged on the bytes): the scan fields neither reads are not converted
    read = columnsRead([...restOverScan, ...ops[ops.length - 1]!.exprs]);
  } else {
    return;
  }
  f.projection.forEach((c, k) => { if (!read.has(c)) unread.add(judged.fields[k]!.id); });
}

/**
 * The scan columns a lazy numeric column may stay lazy in: read only by the aggregates' vector kernels, which
 * take its doubles and materialize it themselves before a row closure or values are wanted (vector-expr.ts,
 * vector-numeric.ts). So: aggregates that vectorize, groups (not rows) going back, no Projection in the
 * fragment (its outputs would rename the column), and the column in no Filter and no group key.
 */
function lazyColumns(ops: readonly FragmentOp[], keys: readonly Expr[], vectorized: boolean): (column: number) => boolean {
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
