/**
 * HashAggregateExec (pipeline breaker): groups rows by key (per grouping set), feeding each group's
 * AggregateStates. DISTINCT aggregates dedupe their argument rows per group; FILTER skips rows; ORDER BY
 * inside an aggregate buffers its rows and sorts them before stepping. DISTINCT without ORDER BY is sorted
 * by its arguments (ascending, NULLs last) because PostgreSQL sorts to deduplicate (nodeAgg), so
 * string_agg(DISTINCT x, ',') and array_agg(DISTINCT x) come out in x's order. With no GROUP BY, an empty input
 * still yields one row (count = 0), as in PostgreSQL. The common case (one grouping set, vectorizable aggregates
 * without ORDER BY, DISTINCT only in order-insensitive ones such as count(DISTINCT x)) numbers groups with a typed hash
 * table (group-table.ts) and keeps count, sum / avg and min / max in typed arrays per group (expr/group-states.ts): no
 * objects per group while rows stream in (TPC-H Q18); DISTINCT pairs are deduped by another table (expr/distinct-rows.ts).
 */
import type { Batch } from '../../common/batch.ts';
import type { AggregateState } from '../../functions/registry-types.ts';
import type { Aggregate, Filter } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, queryMemory, type Env } from '../context.ts';
import { compileAll, compileExpr, type Compiled } from '../expr/compile-expr.ts';
import { compileShared } from '../expr/compile-shared.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { BatchBuilder, rowKey } from '../batch-util.ts';
import { GroupLookup } from '../group-lookup.ts';
import { GroupTable } from '../group-table.ts';
import { GroupStates } from '../expr/group-states.ts';
import { VectorAggregation } from '../expr/vector-aggregate.ts';
import { distinctTypable } from '../expr/distinct-rows.ts';
import type { Cols, RowFn } from '../expr/compile-expr.ts';
import type { ExecOperator } from '../operator.ts';
import { AggregateMemory } from '../memory/aggregate-memory.ts';
import { explainKb, noteExplainDetail, noteMemoryDetail } from '../memory/memory-explain.ts';
import { groupJudgeOf } from './group-filter.ts';

interface AggSlot {
  readonly state: AggregateState;
  readonly seen: Set<string> | null;
  readonly buffered: { args: unknown[]; key: unknown[] }[] | null;
}

interface Group {
  readonly keys: unknown[];
  readonly gid: number;
  readonly aggs: AggSlot[];
  /** aggs' states, for the batch-at-a-time path */
  readonly states: AggregateState[];
}

export class HashAggregateExec implements ExecOperator {
  readonly name = 'HashAggregateExec';
  constructor(private readonly plan: Aggregate, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  /** the Filter right above (HAVING): its predicate judged on the typed group states before rows are made */
  #having: Filter | null = null;
  offerFilter(filter: Filter): void { this.#having = filter; }

  /**
   * the batch-at-a-time aggregation of `plan` when it takes that path (#runGrouped: one grouping set, every
   * aggregate vectorizable), else null; there the key columns are read only through the GroupTable and the
   * aggregates' columns only through vector kernels (partial/lazy-scan-rows.ts relies on it)
   */
  static vectorFor(plan: Aggregate, env: Env): VectorAggregation | null {
    if (plan.groupingSets !== null && plan.groupingSets.length !== 1) return null;
    const { aggregates } = plan;
    return aggregates.every((a) => a.orderBy.length === 0 && (!a.distinct || distinctTypable(a.def, a.args.map((e) => e.type.oid))))
      ? VectorAggregation.tryCreate(aggregates, env) : null;
  }

  async *execute(): AsyncIterable<Batch> {
    // the groups are held in the query's memory budget (53200 past it); released when the operator ends
    const mem = new AggregateMemory(queryMemory(this.env).reserve('HashAggregate'), this.plan);
    try {
      yield* this.#run(mem);
    } finally {
      noteMemoryDetail(this.env, this.plan, `Memory Usage: ${explainKb(mem.reservation.peak)}`);
      mem.release();
    }
  }

  async *#run(mem: AggregateMemory): AsyncIterable<Batch> {
    const { groupKeys, aggregates } = this.plan;
    const ctx = this.env.ctx;
    const keys = compileAll(groupKeys, this.env);
    const keyOids = groupKeys.map((k) => k.type.oid);
    // arguments compiled together: a subexpression repeated across aggregates runs once per row (Q1)
    const args = compileShared(aggregates.map((a) => a.args), this.env);
    const filters: (Compiled | null)[] = aggregates.map((a) => (a.filter ? compileExpr(a.filter, this.env) : null));
    const orders = aggregates.map((a) => (a.orderBy.length ? compileAll(a.orderBy.map((o) => o.expr), this.env) : null));
    // DISTINCT without ORDER BY sorts by the arguments themselves (the buffered key is the argument row)
    const sortsByArgs = aggregates.map((a) => a.distinct && a.orderBy.length === 0);
    const orderSpecs: KeySpec[][] = aggregates.map((a, i) =>
      sortsByArgs[i]
        ? a.argTypes.map((t) => ({ oid: t.oid, descending: false, nullsFirst: false }))
        : a.orderBy.map((o) => ({ oid: o.expr.type.oid, descending: o.descending, nullsFirst: o.nullsFirst })),
    );
    const sets = this.plan.groupingSets ?? [groupKeys.map((_, i) => i)];
    const gids = sets.map((s) => groupKeys.reduce((m, _, k) => (s.includes(k) ? m : m | (1 << k)), 0));
    const groups = new Map<unknown, Group>();
    const single = sets.length === 1;
    const order: Group[] = [];
    const newGroup = (keyVals: unknown[], gid: number): Group => {
      const aggs = aggregates.map((a) => ({
        state: a.def.create(ctx, a.argTypes, a.type),
        seen: a.distinct ? new Set<string>() : null,
        buffered: a.orderBy.length || a.distinct ? [] : null,
      }));
      return { keys: keyVals, gid, aggs, states: aggs.map((x) => x.state) };
    };
    // one grouping set: nested per-column hash maps, no key string per row (group-lookup.ts)
    const lookup = single ? new GroupLookup<Group>(keys.fns, keyOids, (kv) => { const g = newGroup(kv, gids[0]!); order.push(g); return g; }) : null;
    // argument rows of aggregates that neither buffer nor dedupe are evaluated into one reused array each
    const scratch = args.map((a) => new Array<unknown>(a.fns.length));
    // one grouping set, no ORDER BY inside, DISTINCT only where the order of the distinct values cannot matter
    // (count, integer sum / avg / min / max: expr/distinct-rows.ts), vectorizable arguments: a batch at a time
    // (expr/vector-aggregate.ts), groups numbered by a GroupTable and their states kept by id (#runGrouped); the others
    // below, a row at a time
    const vector = lookup !== null ? HashAggregateExec.vectorFor(this.plan, this.env) : null;
    if (vector !== null) return yield* this.#runGrouped(mem, keys, keyOids, vector, gids[0]!);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await keys.prepare(b);
      for (const a of args) await a.prepare(b);
      for (const f of filters) if (f?.prepare) await f.prepare(b);
      for (const o of orders) if (o) await o.prepare(b);
      for (let i = 0; i < b.length; i++) {
        const full = lookup ? null : keys.fns.map((f) => f(b.columns, i));
        for (let s = 0; s < sets.length; s++) {
          let g: Group | undefined;
          if (lookup) g = lookup.find(b.columns, i);
          else {
            const set = sets[s]!;
            const kv = full!.map((v, k) => (set.includes(k) ? v : null));
            const hk = `${gids[s]}|${rowKey(kv, keyOids)}`;
            g = groups.get(hk);
            if (g === undefined) { g = newGroup(kv, gids[s]!); groups.set(hk, g); order.push(g); }
          }
          for (let a = 0; a < aggregates.length; a++) {
            const f = filters[a];
            if (f && f.fn(b.columns, i) !== true) continue;
            const slot = g.aggs[a]!;
            const fns = args[a]!.fns;
            const vals = slot.buffered ? fns.map((fn) => fn(b.columns, i)) : evalInto(scratch[a]!, fns, b.columns, i);
            const def = aggregates[a]!.def;
            if (def.strict !== false && hasNull(vals)) continue;
            if (slot.seen) {
              const k = rowKey(vals, aggregates[a]!.argTypes.map((t) => t.oid));
              if (slot.seen.has(k)) continue;
              slot.seen.add(k);
            }
            if (slot.buffered) slot.buffered.push({ args: vals, key: sortsByArgs[a] ? vals : orders[a]!.fns.map((fn) => fn(b.columns, i)) });
            else slot.state.step(vals);
          }
        }
      }
      mem.afterBatch(b.length, order);
    }
    // grouping sets with no keys (plain aggregates, GROUP BY (), ROLLUP's grand total) yield a row even for empty input
    sets.forEach((s, i) => {
      if (s.length === 0 && !order.some((g) => g.gid === gids[i])) order.push(newGroup(groupKeys.map(() => null), gids[i]!));
    });
    const width = this.plan.columns.length;
    const withGid = this.plan.groupingSets !== null;
    const out = new BatchBuilder(width, BATCH_SIZE);
    for (const g of order) {
      const vals = g.aggs.map((slot, a) => {
        if (slot.buffered) {
          slot.buffered.sort((x, y) => compareKeys(orderSpecs[a]!, x.key, y.key));
          for (const r of slot.buffered) slot.state.step(r.args);
        }
        return slot.state.final() ?? null;
      });
      out.push(withGid ? [...g.keys, ...vals, g.gid] : [...g.keys, ...vals]);
      if (out.full()) yield out.take();
    }
    if (out.length > 0) yield out.take();
  }

  /**
   * one grouping set, every aggregate vectorizable: the rows' group ids from a GroupTable (typed hashing of the
   * key columns, group-table.ts), the aggregates stepped by id into GroupStates (typed counts and numeric sums)
   */
  async *#runGrouped(mem: AggregateMemory, keys: ReturnType<typeof compileAll>, keyOids: readonly number[], vector: VectorAggregation, gid: number): AsyncIterable<Batch> {
    const { groupKeys, aggregates } = this.plan;
    const table = new GroupTable(keyOids);
    const states = new GroupStates(aggregates, this.env.ctx);
    // a key that is a column of the input is read in place; others are computed into a reused array
    const direct = groupKeys.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? e.index : -1));
    const batch = new GroupedBatch(keys.fns, direct, table, states, vector);
    const keysOf = (g: number): unknown[] => table.keysOf(g);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await keys.prepare(b);
      const n = b.length;
      batch.add(b.columns, n);
      mem.afterGroups(n, table.size, keysOf);
    }
    // no GROUP BY: an empty input still yields one row (count = 0)
    const count = groupKeys.length === 0 ? Math.max(1, table.size) : table.size;
    states.ensure(count);
    const withGid = this.plan.groupingSets !== null;
    const kept = this.#keptGroups(states, count);
    if (kept !== null) {
      yield* this.#keptRows(table, states, kept, keyOids.length, withGid ? gid : null);
      return;
    }
    for (let from = 0; from < count; from += BATCH_SIZE) {
      const to = Math.min(count, from + BATCH_SIZE);
      const cols: unknown[][] = keyOids.map((_, c) => table.keySlice(c, from, to));
      for (let k = 0; k < aggregates.length; k++) cols.push(finalColumn(states, k, from, to));
      if (withGid) cols.push(new Array<unknown>(to - from).fill(gid));
      // every group read: the state arrays go to the next aggregate (expr/spare-arrays.ts) before the last batch leaves
      if (to === count) { states.release(); table.release(); }
      yield { columns: cols, length: to - from };
    }
  }

  /**
   * the groups the Filter above can keep, judged on their typed states (group-filter.ts), or null when its
   * predicate cannot be judged so (or there is none, or no GROUP BY: that one row is made anyway)
   */
  #keptGroups(states: GroupStates, count: number): Int32Array | null {
    if (this.#having === null || this.plan.groupKeys.length === 0) return null;
    const judge = groupJudgeOf(this.#having.predicate, this.plan.groupKeys.length, this.plan.aggregates, states);
    if (judge === null) return null;
    const kept = new Int32Array(count);
    let n = 0;
    for (let g = 0; g < count; g++) if (judge(g)) kept[n++] = g;
    // under the Filter: the aggregate's own line says where it ran (partial-aggregate-exec.ts)
    noteExplainDetail(this.env, this.#having, `Groups Left Out Below: ${count - n} of ${count} (judged on the aggregate's typed states)`);
    return kept.subarray(0, n);
  }

  /** the output rows of groups `kept` (ascending ids), as the full output would have them */
  async *#keptRows(table: GroupTable, states: GroupStates, kept: Int32Array, keyCount: number, gid: number | null): AsyncIterable<Batch> {
    const aggCount = this.plan.aggregates.length;
    for (let from = 0; from < kept.length || from === 0; from += BATCH_SIZE) {
      const to = Math.min(kept.length, from + BATCH_SIZE);
      const cols: unknown[][] = [];
      for (let c = 0; c < keyCount; c++) {
        const col = new Array<unknown>(to - from);
        for (let j = from; j < to; j++) col[j - from] = table.keyAt(c, kept[j]!);
        cols.push(col);
      }
      for (let k = 0; k < aggCount; k++) {
        const col = new Array<unknown>(to - from);
        for (let j = from; j < to; j++) col[j - from] = states.final(k, kept[j]!);
        cols.push(col);
      }
      if (gid !== null) cols.push(new Array<unknown>(to - from).fill(gid));
      if (to === kept.length) { states.release(); table.release(); }
      if (to > from) yield { columns: cols, length: to - from };
    }
  }
}

/**
 * #runGrouped's work on one batch, out of the async generator. With the row loops inside it, V8 optimized the
 * generator (it sees every input operator's iterator and batches) and deoptimized it ("wrong map") again and
 * again: 5 TurboFan compiles of #runGrouped in each of the first two passes of q18 q1 q13 q16 q15, 1 in the
 * later ones; without them, none in three passes (session 29, --trace-opt --trace-deopt at SF 1).
 */
class GroupedBatch {
  /** per key: its input column when the key is a column read in place, -1 when computed into `computed` */
  readonly #direct: readonly number[];
  readonly #anyComputed: boolean;
  readonly #fns: readonly RowFn[];
  readonly #computed: unknown[][];
  readonly #keyCols: (readonly unknown[])[];
  readonly #table: GroupTable;
  readonly #states: GroupStates;
  readonly #vector: VectorAggregation;
  #gids = new Int32Array(0);

  constructor(fns: readonly RowFn[], direct: readonly number[], table: GroupTable, states: GroupStates, vector: VectorAggregation) {
    this.#fns = fns;
    this.#direct = direct;
    this.#anyComputed = direct.includes(-1);
    this.#computed = direct.map(() => []);
    this.#keyCols = direct.map(() => []);
    this.#table = table;
    this.#states = states;
    this.#vector = vector;
  }

  /** the batch's rows numbered into groups and their aggregates stepped */
  add(cols: Cols, n: number): void {
    if (this.#gids.length < n) this.#gids = new Int32Array(Math.max(n, 1024));
    const direct = this.#direct, keyCols = this.#keyCols;
    if (this.#anyComputed) computeKeys(this.#fns, direct, this.#computed, cols, n, this.#vector);
    for (let c = 0; c < direct.length; c++) {
      const d = direct[c]!;
      keyCols[c] = d === -1 ? this.#computed[c]! : cols[d]!;
    }
    this.#table.assign(keyCols, n, this.#gids);
    this.#states.ensure(this.#table.size);
    this.#vector.accumulateGroups(cols, n, this.#gids, this.#states);
  }
}

/** aggregate k's results of groups from … to-1 (a loop kept out of the async generators) */
function finalColumn(states: GroupStates, k: number, from: number, to: number): unknown[] {
  const col = new Array<unknown>(to - from);
  for (let g = from; g < to; g++) col[g - from] = states.final(k, g);
  return col;
}

/** the computed keys (direct[c] = -1) of rows 0 … n-1 into computed[c]; an error is the first failing row's, arguments included */
function computeKeys(fns: readonly RowFn[], direct: readonly number[], computed: unknown[][], cols: Cols, n: number, vector: VectorAggregation): void {
  let i = 0;
  try {
    for (; i < n; i++) for (let c = 0; c < direct.length; c++) if (direct[c] === -1) computed[c]![i] = fns[c]!(cols, i);
  } catch (err) {
    vector.raiseEarlierRowError(cols, i);
    throw err;
  }
}

function evalInto(out: unknown[], fns: readonly RowFn[], cols: Cols, i: number): unknown[] {
  for (let k = 0; k < fns.length; k++) out[k] = fns[k]!(cols, i);
  return out;
}

function hasNull(vals: readonly unknown[]): boolean {
  for (let k = 0; k < vals.length; k++) if (vals[k] === null) return true;
  return false;
}
