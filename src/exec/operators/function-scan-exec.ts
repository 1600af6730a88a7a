/** FunctionScanExec: a set-returning function in FROM, optionally WITH ORDINALITY (1-based int8). */
import type { Batch } from '../../common/batch.ts';
import type { FunctionScan } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env } from '../context.ts';
import { compileAll } from '../expr/compile-expr.ts';
import { BatchBuilder, ONE_ROW } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';

export class FunctionScanExec implements ExecOperator {
  readonly name = 'FunctionScanExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: FunctionScan, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const p = this.plan;
    const { fns, prepare } = compileAll(p.args, this.env);
    await prepare(ONE_ROW);
    const args = fns.map((f) => f([], 0));
    if (p.def.strict !== false && args.some((a) => a === null)) return;
    const out = new BatchBuilder(p.columns.length, BATCH_SIZE);
    let n = 0n;
    for (const v of p.def.impl(args, this.env.ctx, p.argTypes)) {
      n++;
      const row = p.multiColumn ? [...(v as unknown[])] : [v];
      if (p.ordinality) row.push(n);
      out.push(row);
      if (out.full()) { checkAbort(this.env); yield out.take(); }
    }
    if (out.length > 0) yield out.take();
  }
}
