/**
 * ProjectionExec: computes the output columns from each input batch. Vectorizable expressions
 * (expr/vector-expr.ts) compute a whole column at once; the others run their row closure per row.
 */
import type { Batch } from '../../common/batch.ts';
import { attachScaled } from '../../common/pgtypes/numeric-column.ts';
import type { Projection } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileAll, settleAsync } from '../expr/compile-expr.ts';
import { valuesOf, VectorCompiler, type VecFn } from '../expr/vector-expr.ts';
import type { ExecOperator } from '../operator.ts';

export class ProjectionExec implements ExecOperator {
  readonly name = 'ProjectionExec';
  constructor(private readonly plan: Projection, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  /** compiled on the first execution and kept: a reused operator tree (engine/reusable-plan.ts) runs again */
  private compiled?: { fns: ReturnType<typeof compileAll>['fns']; prepare: ReturnType<typeof compileAll>['prepare']; direct: number[]; vc: VectorCompiler; vecs: (VecFn | null)[] };

  private compile(): NonNullable<ProjectionExec['compiled']> {
    const { fns, prepare } = compileAll(this.plan.exprs, this.env);
    const direct = this.plan.exprs.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? e.index : -1));
    const vc = new VectorCompiler(this.env);
    const vecs: (VecFn | null)[] = this.plan.exprs.map((e, k) => (direct[k]! >= 0 ? null : vc.tryCompile(e)));
    return { fns, prepare, direct, vc, vecs };
  }

  async *execute(): AsyncIterable<Batch> {
    const { fns, prepare, direct, vc, vecs } = (this.compiled ??= this.compile());
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await prepare(b);
      vc.reset();
      const cols: unknown[][] = [];
      for (let k = 0; k < fns.length; k++) {
        const d = direct[k]!;
        if (d >= 0) { cols.push(b.columns[d] as unknown[]); continue; }
        const f = fns[k]!;
        const vec = vecs[k];
        if (vec) {
          try {
            const v = vec(b.columns, b.length, null);
            const col = valuesOf(v, null, b.length) as unknown[];
            // a numeric result computed on exact doubles keeps them (pgtypes/numeric-column.ts): the sums and
            // joins above read the doubles instead of converting each new Numeric back
            if (v.tag === 'scaled' && v.src === undefined) attachScaled(col, v.f, v.scale);
            cols.push(col);
            continue;
          } catch (err) {
            // columns are computed one after the other: the row closure raises this column's first failing row's error
            for (let i = 0; i < b.length; i++) f(b.columns, i);
            throw err;
          }
        }
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
