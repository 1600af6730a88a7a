/** TableScanExec: streams a TableSource's batches (projection pushdown is left to later optimizer rules). */
import type { Batch } from '../../common/batch.ts';
import type { TableScan } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import type { ExecOperator } from '../operator.ts';

export class TableScanExec implements ExecOperator {
  readonly name = 'TableScanExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: TableScan, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const width = this.plan.columns.length;
    for await (const b of this.plan.source.scan(this.env.ctx.scan)) {
      checkAbort(this.env);
      if (b.length === 0) continue;
      yield b.columns.length === width ? b : { columns: b.columns.slice(0, width), length: b.length };
    }
  }
}
