/**
 * TableScanExec: streams a TableSource's batches. Each execution gets its own ScanContext carrying what the
 * optimizer pushed (projection, filters with `$n` resolved, limit) and fresh ScanMetrics for EXPLAIN ANALYZE.
 */
import type { Batch } from '../../common/batch.ts';
import { emptyScanMetrics, type ScanContext } from '../../catalog/table-source.ts';
import type { TableScan } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import type { ExecOperator } from '../operator.ts';
import { resolveFilters, resolveLimit } from '../optimizer/resolve-pushed.ts';
import { isExact, markExact } from '../../iceberg/parallel/exact-rows.ts';
import { keyOnlyScanColumns } from '../join-key-only.ts';

export class TableScanExec implements ExecOperator {
  readonly name = 'TableScanExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: TableScan, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const width = this.plan.columns.length;
    const metrics = emptyScanMetrics();
    this.env.instrument?.addScanMetrics(this.plan, metrics);
    const ctx = this.scanContext(metrics);
    for await (const b of this.plan.source.scan(ctx)) {
      checkAbort(this.env);
      if (b.length === 0) continue;
      if (b.columns.length === width) { yield b; continue; }
      const out = { columns: b.columns.slice(0, width), length: b.length };
      // the same rows: the scan's exact verdict (exact-rows.ts) still holds for the Filter above
      yield isExact(b) ? markExact(out) : out;
    }
  }

  /**
   * The small-plan fast path (operator.ts): the source's batches when it has them at hand (scanNow, e.g. a
   * point lookup on a cached file). Not under EXPLAIN ANALYZE, whose metrics are registered per execution.
   */
  executeSync(): Batch[] | undefined {
    const source = this.plan.source;
    if (source.scanNow === undefined || this.env.instrument !== undefined) return undefined;
    checkAbort(this.env);
    // no metrics: nothing reads them outside EXPLAIN ANALYZE
    const found = source.scanNow(this.scanContext(undefined));
    if (found === undefined) return undefined;
    const width = this.plan.columns.length;
    const out: Batch[] = [];
    for (const b of found) {
      if (b.length === 0) continue;
      out.push(b.columns.length === width ? b : { columns: b.columns.slice(0, width), length: b.length });
    }
    return out;
  }

  /** what the optimizer pushed, with this execution's `$n` values */
  private scanContext(metrics: ScanContext['metrics']): ScanContext {
    const plan = this.plan;
    const ctx = this.env.ctx;
    const params = ctx.params;
    const filters = resolveFilters(plan, params);
    const limit = plan.limit === undefined ? undefined : resolveLimit(plan, params);
    const scan = ctx.scan;
    // set field by field: spreads of conditional literals allocate an object each (this runs per lookup)
    const out: { -readonly [K in keyof ScanContext]: ScanContext[K] } = { signal: scan.signal, session: scan.session, catalog: scan.catalog };
    if (plan.projection !== undefined) out.projection = plan.projection;
    if (filters !== undefined) out.filters = filters;
    if (limit !== undefined) out.limit = limit;
    if (metrics !== undefined) out.metrics = metrics;
    // a hash join above reads an int8 column only as its build key (join-key-only.ts)
    const keyOnly = keyOnlyScanColumns(plan);
    if (keyOnly !== undefined) out.keyOnly = keyOnly;
    return out;
  }
}
