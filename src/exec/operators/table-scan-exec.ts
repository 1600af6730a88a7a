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

export class TableScanExec implements ExecOperator {
  readonly name = 'TableScanExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: TableScan, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const width = this.plan.columns.length;
    const metrics = emptyScanMetrics();
    this.env.instrument?.addScanMetrics(this.plan, metrics);
    const params = this.env.ctx.params;
    const filters = resolveFilters(this.plan, params);
    const limit = resolveLimit(this.plan, params);
    const ctx: ScanContext = {
      ...this.env.ctx.scan,
      ...(this.plan.projection === undefined ? {} : { projection: this.plan.projection }),
      ...(filters === undefined ? {} : { filters }),
      ...(limit === undefined ? {} : { limit }),
      metrics,
    };
    for await (const b of this.plan.source.scan(ctx)) {
      checkAbort(this.env);
      if (b.length === 0) continue;
      yield b.columns.length === width ? b : { columns: b.columns.slice(0, width), length: b.length };
    }
  }
}
