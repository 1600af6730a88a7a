/** FilterExec: keeps rows whose predicate is true. */
import type { Batch } from '../../common/batch.ts';
import type { Filter } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileExpr, settleAsync } from '../expr/compile-expr.ts';
import type { ExecOperator } from '../operator.ts';

export class FilterExec implements ExecOperator {
  readonly name = 'FilterExec';
  constructor(private readonly plan: Filter, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const pred = compileExpr(this.plan.predicate, this.env);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      if (pred.prepare) await pred.prepare(b);
      const keep: number[] = [];
      for (let i = 0; i < b.length; i++) {
        let v = pred.fn(b.columns, i);
        if (asyncResult.pending) v = await settleAsync(v, this.env.ctx);
        if (v === true) keep.push(i);
      }
      if (keep.length === 0) continue;
      if (keep.length === b.length) { yield b; continue; }
      yield { columns: b.columns.map((c) => keep.map((i) => c[i] ?? null)), length: keep.length };
    }
  }
}
