/**
 * ProjectionExec: computes the output columns from each input batch. Vectorizable expressions
 * (expr/vector-expr.ts) compute a whole column at once; the others run their row closure per row.
 */
import type { Batch } from '../../common/batch.ts';
import { attachScaled, selfMaterializingNumerics } from '../../common/pgtypes/numeric-column.ts';
import type { Projection } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileAll, settleAsync } from '../expr/compile-expr.ts';
import { valuesOf, VectorCompiler, type VecFn } from '../expr/vector-expr.ts';
import type { ExecOperator } from '../operator.ts';
import { syncExprs } from './sync-exprs.ts';

export class ProjectionExec implements ExecOperator {
  readonly name = 'ProjectionExec';
  constructor(private readonly plan: Projection, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  /** compiled on the first execution and kept: a reused operator tree (engine/reusable-plan.ts) runs again */
  private compiled?: { fns: ReturnType<typeof compileAll>['fns']; prepare: ReturnType<typeof compileAll>['prepare']; direct: number[]; vc: VectorCompiler; vecs: (VecFn | null)[] };
  /** syncExprs of the expressions, kept: a reused tree (reusable-plan.ts) asks at every execution */
  private sync?: boolean;

  private compile(): NonNullable<ProjectionExec['compiled']> {
    const { fns, prepare } = compileAll(this.plan.exprs, this.env);
    const direct = this.plan.exprs.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? e.index : -1));
    const vc = new VectorCompiler(this.env);
    const vecs: (VecFn | null)[] = this.plan.exprs.map((e, k) => (direct[k]! >= 0 ? null : vc.tryCompile(e)));
    return { fns, prepare, direct, vc, vecs };
  }

  async *execute(): AsyncIterable<Batch> {
    const compiled = (this.compiled ??= this.compile());
    const { fns, prepare, direct, vc, vecs } = compiled;
    // expressions that never wait (no subquery, no volatile call) take the synchronous body
    const now = syncExprs(this.plan.exprs);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      if (now) {
        yield this.project(compiled, b);
        continue;
      }
      await prepare(b);
      vc.reset();
      const cols: unknown[][] = [];
      for (let k = 0; k < fns.length; k++) {
        const d = direct[k]!;
        if (d >= 0) { cols.push(b.columns[d] as unknown[]); continue; }
        const f = fns[k]!;
        const vec = vecs[k];
        if (vec) {
          cols.push(vectorColumn(vec, f, b));
          continue;
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

  /** the small-plan fast path (operator.ts): the input's batches at hand, expressions that never wait */
  executeSync(): Batch[] | undefined {
    if (!(this.sync ??= syncExprs(this.plan.exprs))) return undefined;
    const input = this.input.executeSync?.();
    if (input === undefined) return undefined;
    const compiled = (this.compiled ??= this.compile());
    checkAbort(this.env);
    const out = new Array<Batch>(input.length);
    for (let i = 0; i < input.length; i++) out[i] = this.project(compiled, input[i]!);
    return out;
  }

  /** one batch's output when no expression can wait (syncExprs) */
  private project(c: NonNullable<ProjectionExec['compiled']>, b: Batch): Batch {
    const { fns, direct, vc, vecs } = c;
    vc.reset();
    const cols: unknown[][] = new Array<unknown[]>(fns.length);
    for (let k = 0; k < fns.length; k++) {
      const d = direct[k]!;
      if (d >= 0) { cols[k] = b.columns[d] as unknown[]; continue; }
      const f = fns[k]!;
      const vec = vecs[k];
      if (vec) { cols[k] = vectorColumn(vec, f, b); continue; }
      const col = new Array<unknown>(b.length);
      for (let i = 0; i < b.length; i++) col[i] = f(b.columns, i);
      cols[k] = col;
    }
    return { columns: cols, length: b.length };
  }
}

/** a vectorized column; on an error, the row closure raises the first failing row's (columns are computed in turn) */
function vectorColumn(vec: VecFn, f: (cols: Batch['columns'], i: number) => unknown, b: Batch): unknown[] {
  try {
    const v = vec(b.columns, b.length, null);
    // a computed numeric without NULLs: its Numerics made only if read (sums above read the doubles; TPC-H q9's amount)
    const col = v.tag === 'scaled' && v.src === undefined && v.nul === null ? selfMaterializingNumerics(v.f, v.scale, b.length) : valuesOf(v, null, b.length) as unknown[];
    // a numeric result computed on exact doubles keeps them (pgtypes/numeric-column.ts): the sums and
    // joins above read the doubles instead of converting each new Numeric back
    if (v.tag === 'scaled' && v.src === undefined) attachScaled(col, v.f, v.scale);
    return col;
  } catch (err) {
    for (let i = 0; i < b.length; i++) f(b.columns, i);
    throw err;
  }
}
