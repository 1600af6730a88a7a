/**
 * PartialAggregateExec: Finalize Aggregate over partial aggregates run in the scan workers (issue #4). Each
 * pool task (a file, or a run of its row groups) scans, filters, projects and aggregates its rows into
 * partial states (run-fragment.ts); this thread merges them in task order (partial-merge.ts) — so groups come
 * out in the order a main-thread HashAggregateExec would produce — and finalises. When the scan would not
 * go to the pool (no pool, few rows, a source other than Iceberg) it is a plain HashAggregateExec; so it is when
 * the first task's partial groups show that partial aggregation hardly reduces the rows (high-cardinality keys),
 * and from the start when an earlier run over the same snapshot found so (serial-fallback-memo.ts).
 * Numeric and integer results are exact either way; float sums may differ in the last digit, as with
 * PostgreSQL's parallel aggregates. `lakegate.final_aggregate` = partitioned / partitioned_rows runs the final
 * aggregate hash-partitioned across the workers instead (exchange/); EXPLAIN ANALYZE says which one ran.
 * Either way the merged groups count against the query's memory budget (53200 past it), and each worker
 * flushes its partial groups early when they pass a slice of that budget (worker-flush-bytes.ts).
 */
import type { Batch } from '../../common/batch.ts';
import { emptyScanMetrics, type ScanContext, type ScanMetrics } from '../../catalog/table-source.ts';
import { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import { runTasksInParallel } from '../../iceberg/parallel/parallel-scan.ts';
import { sourceParallelScan } from '../../iceberg/parallel/source-parallel-scan.ts';
import { someExpr, type Aggregate, type Filter } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, queryMemory, type Env } from '../context.ts';
import type { ExecOperator } from '../operator.ts';
import { HashAggregateExec } from '../operators/hash-aggregate-exec.ts';
import { resolveFilters } from '../optimizer/resolve-pushed.ts';
import type { FragmentRequest, PartialGroups } from './run-fragment.ts';
import { PartialMerge } from './partial-merge.ts';
import { wireEvalContext } from './worker-eval-context.ts';
import { fragmentChain, workerFragmentOf } from './worker-fragment.ts';
import { finalAggregateMode } from '../exchange/final-aggregate-mode.ts';
import { partitionedFinalAggregate, type PartitionedFinalStats } from '../exchange/partitioned-final-aggregate.ts';
import { explainKb, noteExplainDetail, noteMemoryDetail } from '../memory/memory-explain.ts';
import { AggregateMemory } from '../memory/aggregate-memory.ts';
import { workerFlushBytes } from './worker-flush-bytes.ts';
import { rowsFragment, workerRows } from './worker-rows.ts';
import { lazyScanColumns, lazyScanRows, type LazyScan } from './lazy-scan-rows.ts';
import type { WireFragment } from './worker-fragment.ts';
import { anyJudgedSerial, judgedSerial, rememberSerial, serialFallbackKey } from './serial-fallback-memo.ts';
import type { SourceParallelScan } from '../../iceberg/parallel/source-parallel-scan.ts';
import { codesOnlyField, scaledOnlyField, withoutCodesOnly } from '../../iceberg/read/arrow-fast-columns.ts';
import { keyOnlyColumns } from './dictionary-key-groups.ts';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import type { NestedField } from '../../iceberg/spec/schema.ts';
import { filesRows, keyDomainSize } from '../../iceberg/scan/key-domain.ts';

/** the table columns a pushed predicate reads */
function predicateColumns(p: ScanPredicate, out: Set<number>): void {
  if ('args' in p) for (const a of p.args) predicateColumns(a, out);
  else out.add(p.column);
}

/**
 * the table columns the fragment reads other than through its aggregates' arguments (its Filters and group
 * keys), or null when it has a Projection: the worker turns every lazy column it reads so into Numerics one
 * by one (run-fragment.ts lazyColumns), dearer than the decoder's values with their shared small Numerics
 */
function readOutsideAggregates(plan: Aggregate): Set<number> | null {
  const chain = fragmentChain(plan);
  if (chain === null || chain.ops.some((o) => o.kind === 'Projection')) return null;
  const read = new Set<number>();
  for (const e of [...chain.ops.map((o) => (o as Filter).predicate), ...plan.groupKeys]) {
    someExpr(e, (x) => { if (x.kind === 'ColumnRef') read.add(x.index); return false; });
  }
  return read;
}

/**
 * the pool's fields with the decimals the workers may decode lazily marked scaledOnly (arrow-fast-columns.ts;
 * the worker keeps a column lazy only where its fragment reads it through vector kernels, run-fragment.ts):
 * not those a pushed filter reads (judged on JS values when not on Arrow), nor those the fragment's Filters
 * or group keys read; none when a task has equality deletes (judged on the values of the columns they name) —
 * position deletes keep a lazy column lazy (file-scan-task-reader.ts pickRows)
 */
function scaledOnlyFields(pool: SourceParallelScan, projection: readonly number[], filters: readonly ScanPredicate[] | undefined, plan: Aggregate): SourceParallelScan['fields'] {
  if (pool.tasks.some((t) => t.equalityDeletes.length > 0)) return pool.fields;
  // a pushed filter judged on JS rows (late materialization off) picks rows without their lazy columns' doubles
  // (iceberg/parallel/row-filter.ts): "internal error: a lazy numeric column was read" (GROUPS, session 22)
  if (pool.read.lateMaterialization === false && pool.read.filter !== undefined) return pool.fields;
  const filtered = readOutsideAggregates(plan);
  if (filtered === null) return pool.fields;
  for (const p of filters ?? []) predicateColumns(p, filtered);
  const codes = codesOnlyColumns(pool, filters, plan);
  return pool.fields.map((f, k) => (f.type.kind === 'primitive' && f.type.name === 'decimal' && !filtered.has(projection[k]!) ? scaledOnlyField(f)
    : f.type.kind === 'primitive' && f.type.name === 'string' && codes.has(projection[k]!) ? codesOnlyField(f) : f));
}

/**
 * the string columns the workers may decode as dictionary codes alone (GROUPS, session 22: the plain group keys
 * nothing else reads, dictionary-key-groups.ts keyOnlyColumns): none over position deletes (their row picks would
 * copy a lazy column's holes, file-scan-task-reader.ts pickRows; scaledOnlyFields already left out pushed filters
 * judged on JS rows, row-filter.ts)
 */
function codesOnlyColumns(pool: SourceParallelScan, filters: readonly ScanPredicate[] | undefined, plan: Aggregate): Set<number> {
  const chain = fragmentChain(plan);
  if (chain === null || chain.ops.some((o) => o.kind === 'Projection') || pool.tasks.some((t) => t.positionDeletes.length > 0)) return new Set();
  const pushed = new Set<number>();
  for (const p of filters ?? []) predicateColumns(p, pushed);
  const others = [...chain.ops.map((o) => (o as Filter).predicate), ...plan.aggregates.flatMap((a) => (a.filter === null ? a.args : [...a.args, a.filter]))];
  return keyOnlyColumns(plan.groupKeys, others, pushed);
}

/**
 * The first tasks (until JUDGE_ROWS rows were decoded) decide: more partial groups than MAX_GROUPS_PER_ROW of
 * their rows, and at least MIN_GROUPS_TO_JUDGE of them, means per-task states barely reduce the data; then the
 * aggregate runs on the main thread after all (the tasks run so far are wasted).
 */
const MAX_GROUPS_PER_ROW = 0.1;
const MIN_GROUPS_TO_JUDGE = 1000;
const JUDGE_ROWS = 65_536;
/**
 * ...unless the group keys' bounds (scan/key-domain.ts) allow at most this many groups, and at most
 * MAX_GROUPS_PER_ROW of the scan's rows: then each task's states are many only because its rows are few (a piece
 * of 32k rows holds 9.6k of TPC-H q15's 10k suppliers), the merged groups stay few, and merging them into a small
 * table costs the main thread less than aggregating every row there (q15 at SF 1, its three months read as whole
 * files: main thread 35–45 → 13–15 ms per run, all threads −30 %)
 */
const SMALL_KEY_DOMAIN = 16_384;

/**
 * the output rows of merged groups from … to-1 (`width` columns: the keys, one per aggregate, NULL after them),
 * group by group as rows were made before; a loop kept out of the async generator #mergeOnMain (a loop there
 * makes V8 optimize the generator, which then deoptimizes on other queries: "wrong map", hash-aggregate-exec.ts)
 */
function mergedBatch(merged: PartialMerge, from: number, to: number, keyCount: number, aggCount: number, width: number): Batch {
  const n = to - from;
  const columns: unknown[][] = [];
  for (let c = 0; c < width; c++) columns.push(new Array<unknown>(n).fill(null));
  for (let g = from; g < to; g++) {
    for (let c = 0; c < keyCount; c++) columns[c]![g - from] = merged.keyAt(c, g) ?? null;
    for (let k = 0; k < aggCount; k++) columns[keyCount + k]![g - from] = merged.final(k, g) ?? null;
  }
  return { columns, length: n };
}

export class PartialAggregateExec implements ExecOperator {
  readonly name = 'PartialAggregateExec';
  constructor(private readonly plan: Aggregate, private readonly input: ExecOperator, private readonly env: Env) {}

  /** the Filter right above (HAVING), offered to the HashAggregateExec this runs on the main thread */
  #having: Filter | null = null;
  offerFilter(filter: Filter): void { this.#having = filter; }

  #hashAggregate(input: ExecOperator): AsyncIterable<Batch> {
    const agg = new HashAggregateExec(this.plan, input, this.env);
    if (this.#having !== null) agg.offerFilter(this.#having);
    return agg.execute();
  }
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const fragment = workerFragmentOf(this.plan);
    const chain = fragmentChain(this.plan);
    const source = chain?.scan.source;
    const ctx = this.env.ctx;
    if (fragment === null || chain === null || !(source instanceof IcebergTableSource)) return yield* this.#onMainThread();
    const filters = resolveFilters(chain.scan, ctx.params);
    const mode = finalAggregateMode(ctx.session);
    const partitioned = (mode === 'partitioned' || mode === 'partitioned_rows') && this.plan.groupKeys.length > 0;
    // the key is made only when some aggregate was judged serial (small statements pay nothing)
    const memoKey = (): string => serialFallbackKey(source, fragment, filters);
    // the workers still filter and narrow the rows of a serial aggregate when it pays (worker-rows.ts)
    const rows = rowsFragment(this.plan, fragment);
    const serialBefore = !partitioned && anyJudgedSerial() && judgedSerial(memoKey());
    // without them, a serial aggregate over the bare scan reads its int8 key and decimals lazily (lazy-scan-rows.ts;
    // decided only once the aggregate runs serially: it compiles the aggregates)
    let lazyMemo: LazyScan | null | undefined;
    const lazyOf = (): LazyScan | null => (lazyMemo ??= rows === null ? lazyScanColumns(this.plan, fragment, this.env) : null);
    if (serialBefore && rows === null && lazyOf() === null) {
      noteExplainDetail(this.env, this.plan, 'Final Aggregate: main thread, serial (partial states did not reduce the rows of an earlier run)');
      return yield* this.#onMainThread();
    }
    const metrics = emptyScanMetrics();
    const scanCtx: Pick<ScanContext, 'signal' | 'projection' | 'filters' | 'metrics' | 'session'> = {
      signal: ctx.scan.signal,
      session: ctx.scan.session,
      projection: fragment.projection,
      ...(filters === undefined ? {} : { filters }),
      metrics,
    };
    // partial states per task: fewer, whole files when they share out evenly (a piece costs its own states);
    // rows for a serial aggregate keep their pieces, whose results reach this thread sooner
    const found = await sourceParallelScan(source, scanCtx, { keepEven: !serialBefore });
    if (found === null) return yield* this.#onMainThread();
    const pool = { ...found, fields: scaledOnlyFields(found, fragment.projection, filters, this.plan) };
    this.env.instrument?.addScanMetrics(chain.scan, metrics);
    const memory = queryMemory(this.env);
    const request: FragmentRequest = { fragment, eval: wireEvalContext(ctx), flushBytes: workerFlushBytes(memory.limit, pool.scan.pool.size) };
    if (serialBefore && rows !== null) {
      noteExplainDetail(this.env, this.plan, 'Final Aggregate: main thread, serial over rows filtered in the workers (partial states did not reduce the rows of an earlier run)');
      return yield* this.#overWorkerRows(pool, request, rows);
    }
    const lazy = serialBefore ? lazyOf() : null;
    if (lazy !== null) {
      noteExplainDetail(this.env, this.plan, 'Final Aggregate: main thread, serial (partial states did not reduce the rows of an earlier run)');
      return yield* this.#overLazyScan(pool, lazy);
    }
    if (partitioned) return yield* this.#partitioned(pool, request, mode === 'partitioned_rows');
    noteExplainDetail(this.env, this.plan, 'Final Aggregate: main thread');
    const mem = new AggregateMemory(memory.reserve('Finalize HashAggregate'), this.plan);
    const serial = { ran: false };
    try {
      yield* this.#mergeOnMain(pool, request, mem, serial, memoKey, rows, lazyOf);
    } finally {
      // a serial fallback noted its own HashAggregate's memory
      if (!serial.ran) noteMemoryDetail(this.env, this.plan, `Memory Usage: ${explainKb(mem.reservation.peak)}`);
      mem.release();
    }
  }

  /** merges every task's partial groups here, in task order (partial-merge.ts); the groups count against the query's budget */
  async *#mergeOnMain(pool: SourceParallelScan, request: FragmentRequest, mem: AggregateMemory, serial: { ran: boolean }, memoKey: () => string, rows: WireFragment | null, lazyOf: () => LazyScan | null): AsyncIterable<Batch> {
    const { aggregates, groupKeys } = this.plan;
    const merged = new PartialMerge(request.fragment.keyOids, aggregates, this.env.ctx);
    const judged = { groups: 0, rows: 0, done: false };
    // the scan's counters before the judging run: a stopped run is reported on its own line, not added to the rerun's
    const metrics = pool.read.metrics;
    const before = metrics === undefined ? undefined : { ...metrics };
    for await (const r of runTasksInParallel(pool.scan, pool.tasks, pool.fields, pool.read, request)) {
      checkAbort(this.env);
      const last = r.partial as PartialGroups;
      // a worker that flushed its group table sent earlier packs too
      const parts = last.earlier === undefined ? [last] : [...last.earlier, last];
      if (!judged.done) {
        for (const part of parts) judged.groups += part.count;
        judged.rows += r.metrics.rowsDecoded;
        if (judged.groups >= MIN_GROUPS_TO_JUDGE && judged.groups > MAX_GROUPS_PER_ROW * judged.rows && !this.#fewKeyValues(pool)) {
          // hardly any reduction (one group per order, say): shipping and merging every state costs more than
          // aggregating the rows here, so the workers are stopped (leaving this loop cancels them) and it runs serially
          rememberSerial(memoKey());
          mem.release();
          serial.ran = true;
          const stopped = metrics !== undefined && before !== undefined ? this.#setAsideJudgingRun(metrics, before) : '';
          if (rows !== null) {
            noteExplainDetail(this.env, this.plan, `Final Aggregate: main thread, serial over rows filtered in the workers (partial states did not reduce the rows${stopped})`);
            return yield* this.#overWorkerRows(pool, request, rows);
          }
          noteExplainDetail(this.env, this.plan, `Final Aggregate: main thread, serial (partial states did not reduce the rows${stopped})`);
          const lazy = lazyOf();
          return yield* (lazy !== null ? this.#overLazyScan(pool, lazy) : this.#onMainThread());
        }
        judged.done = judged.rows >= JUDGE_ROWS;
      }
      for (const part of parts) {
        merged.add(part);
        mem.afterGroups(part.count, merged.size, (g) => merged.keysOf(g));
      }
    }
    // no GROUP BY: an empty input still yields one row (count = 0), as HashAggregateExec
    const count = groupKeys.length === 0 ? Math.max(1, merged.size) : merged.size;
    const width = this.plan.columns.length;
    for (let from = 0; from < count; from += BATCH_SIZE) yield mergedBatch(merged, from, Math.min(count, from + BATCH_SIZE), groupKeys.length, aggregates.length, width);
  }

  /**
   * whether the group keys — plain integer columns of the scanned table — can take few values across the scan's files
   * (SMALL_KEY_DOMAIN, by their manifest bounds), so that partial states reduce the rows however few a task reads
   */
  #fewKeyValues(pool: SourceParallelScan): boolean {
    const chain = fragmentChain(this.plan);
    const source = chain?.scan.source;
    // through a Projection, column indexes are not the table's
    if (chain === null || !(source instanceof IcebergTableSource) || chain.ops.some((o) => o.kind === 'Projection')) return false;
    const fields: NestedField[] = [];
    for (const k of this.plan.groupKeys) {
      const f = k.kind === 'ColumnRef' ? source.schema.fields[k.index] : undefined;
      if (f === undefined) return false;
      fields.push(f);
    }
    const domain = fields.length === 0 ? null : keyDomainSize(pool.tasks, fields);
    return domain !== null && domain <= SMALL_KEY_DOMAIN && domain <= MAX_GROUPS_PER_ROW * filesRows(pool.tasks);
  }

  /** the final aggregate hash-partitioned across the workers (exchange/): one partition per pool thread */
  async *#partitioned(pool: SourceParallelScan, request: FragmentRequest, rows: boolean): AsyncIterable<Batch> {
    const parts = pool.scan.pool.size;
    const stats: PartitionedFinalStats = { partitions: parts, groups: 0, largest: 0 };
    const split = rows ? { repartition: parts } : { partitions: parts };
    const results = runTasksInParallel(pool.scan, pool.tasks, pool.fields, pool.read, { ...request, ...split });
    try {
      yield* partitionedFinalAggregate(results, {
        pool: pool.scan.pool,
        partitions: parts,
        fragment: request.fragment,
        eval: request.eval,
        signal: this.env.ctx.scan.signal,
        rows,
        memory: queryMemory(this.env),
      }, stats);
    } finally {
      const what = rows ? 'rows partitioned' : 'partitioned';
      noteExplainDetail(this.env, this.plan, `Final Aggregate: ${what} across ${parts} workers  Groups: ${stats.groups}  Largest Partition: ${stats.largest}`);
      if (stats.memory !== undefined) noteMemoryDetail(this.env, this.plan, `Memory Usage: ${explainKb(stats.memory)}`);
    }
  }

  /** the aggregate on this thread over the rows the workers filtered and narrowed (worker-rows.ts) */
  #overWorkerRows(pool: SourceParallelScan, request: FragmentRequest, rows: WireFragment): AsyncIterable<Batch> {
    const input: ExecOperator = { name: 'WorkerRows', children: [], execute: () => workerRows(pool, request, rows) };
    return this.#hashAggregate(input);
  }

  /**
   * The scan's counters back to what they were before the stopped judging run, so that the scan node counts the run
   * that answers (files scanned ≤ files total); answers the judging run's reads for the Final Aggregate line.
   */
  #setAsideJudgingRun(metrics: ScanMetrics, before: ScanMetrics): string {
    const files = metrics.filesScanned - before.filesScanned, rows = metrics.rowsDecoded - before.rowsDecoded;
    Object.assign(metrics, before);
    return `; judged on ${files} files, ${rows} rows decoded`;
  }

  /** the aggregate on this thread over the scan's rows, its key and decimals unpacked lazily (lazy-scan-rows.ts) */
  #overLazyScan(pool: SourceParallelScan, lazy: LazyScan): AsyncIterable<Batch> {
    // plain batches leave the workers here: no lazy string column (arrow-fast-columns.ts codesOnlyField)
    const rows: ExecOperator = { name: 'LazyScanRows', children: [], execute: () => lazyScanRows({ ...pool, fields: pool.fields.map(withoutCodesOnly) }, lazy) };
    // these are the scan node's rows (the aggregate's input is the bare scan): EXPLAIN ANALYZE counts them there
    const input = this.env.instrument === undefined ? rows : this.env.instrument.wrap(this.plan.input, rows);
    return this.#hashAggregate(input);
  }

  #onMainThread(): AsyncIterable<Batch> {
    return this.#hashAggregate(this.input);
  }
}
