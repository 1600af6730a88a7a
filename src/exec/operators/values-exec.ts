/** ValuesExec: evaluates VALUES rows (each expression once per execution). */
import type { Batch } from '../../common/batch.ts';
import type { Values } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env } from '../context.ts';
import { asyncResult, compileAll, settleAsync } from '../expr/compile-expr.ts';
import { BatchBuilder, ONE_ROW } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';

export class ValuesExec implements ExecOperator {
  readonly name = 'ValuesExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: Values, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const width = this.plan.columns.length;
    if (width === 0) {
      yield { columns: [], length: this.plan.rows.length };
      return;
    }
    const out = new BatchBuilder(width, BATCH_SIZE);
    for (const row of this.plan.rows) {
      checkAbort(this.env);
      const { fns, prepare } = compileAll(row, this.env);
      await prepare(ONE_ROW);
      const vals: unknown[] = [];
      for (const f of fns) {
        vals.push(f(ONE_ROW.columns, 0));
        if (asyncResult.pending) vals[vals.length - 1] = await settleAsync(vals[vals.length - 1], this.env.ctx);
      }
      out.push(vals);
      if (out.full()) yield out.take();
    }
    if (out.length > 0) yield out.take();
  }
}
