/** ProjectionExec: computes the output columns from each input batch. */
import type { Batch } from '../../common/batch.ts';
import type { Projection } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileAll, settleAsync } from '../expr/compile-expr.ts';
import type { ExecOperator } from '../operator.ts';

export class ProjectionExec implements ExecOperator {
  readonly name = 'ProjectionExec';
  constructor(private readonly plan: Projection, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const { fns, prepare } = compileAll(this.plan.exprs, this.env);
    const direct = this.plan.exprs.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? e.index : -1));
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await prepare(b);
      const cols: unknown[][] = [];
      for (let k = 0; k < fns.length; k++) {
        const d = direct[k]!;
        if (d >= 0) { cols.push(b.columns[d] as unknown[]); continue; }
        const f = fns[k]!;
        const col = new Array<unknown>(b.length);
        for (let i = 0; i < b.length; i++) {
          col[i] = f(b.columns, i);
          // a function returned a Promise (pg_sleep): wait for it before the next row
          if (asyncResult.pending) col[i] = await settleAsync(col[i], this.env.ctx);
        }
        cols.push(col);
      }
      yield { columns: cols, length: b.length };
    }
  }
}
