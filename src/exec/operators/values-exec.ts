/** ValuesExec: evaluates VALUES rows (each expression once per execution). */
import type { Batch } from '../../common/batch.ts';
import type { Values } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env } from '../context.ts';
import { asyncResult, compileAll, settleAsync } from '../expr/compile-expr.ts';
import { BatchBuilder, ONE_ROW } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { syncExprs } from './sync-exprs.ts';

export class ValuesExec implements ExecOperator {
  readonly name = 'ValuesExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: Values, private readonly env: Env) {}

  /** each row's compiled expressions, made on the first execution and kept (a reused tree runs again: engine/reusable-plan.ts) */
  private compiled?: ReturnType<typeof compileAll>[];

  async *execute(): AsyncIterable<Batch> {
    const width = this.plan.columns.length;
    if (width === 0) {
      yield { columns: [], length: this.plan.rows.length };
      return;
    }
    const rows = (this.compiled ??= this.plan.rows.map((row) => compileAll(row, this.env)));
    const out = new BatchBuilder(width, BATCH_SIZE);
    for (const { fns, prepare } of rows) {
      checkAbort(this.env);
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

  /** the small-plan fast path (operator.ts): rows whose expressions never wait */
  executeSync(): Batch[] | undefined {
    if (!syncExprs(this.plan.rows)) return undefined;
    checkAbort(this.env);
    const width = this.plan.columns.length;
    if (width === 0) return [{ columns: [], length: this.plan.rows.length }];
    const rows = (this.compiled ??= this.plan.rows.map((row) => compileAll(row, this.env)));
    const batches: Batch[] = [];
    const out = new BatchBuilder(width, BATCH_SIZE);
    for (const { fns } of rows) {
      const vals = new Array<unknown>(fns.length);
      for (let k = 0; k < fns.length; k++) vals[k] = fns[k]!(ONE_ROW.columns, 0);
      out.push(vals);
      if (out.full()) batches.push(out.take());
    }
    if (out.length > 0) batches.push(out.take());
    return batches;
  }
}
