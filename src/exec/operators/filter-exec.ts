/**
 * FilterExec: keeps rows whose predicate is true. A vectorizable predicate (expr/vector-expr.ts) computes
 * the batch's rows at once; the others run their row closure per row (awaiting async functions).
 */
import type { Batch } from '../../common/batch.ts';
import type { Filter } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileExpr, settleAsync, type Cols, type RowFn } from '../expr/compile-expr.ts';
import { compileVector, valuesOf, type VecFn } from '../expr/vector-expr.ts';
import type { ExecOperator } from '../operator.ts';
import { take } from '../join-gather.ts';
import { syncExprs } from './sync-exprs.ts';

export class FilterExec implements ExecOperator {
  readonly name = 'FilterExec';
  constructor(private readonly plan: Filter, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  /** compiled on the first execution and kept: a reused operator tree (engine/reusable-plan.ts) runs again */
  private compiled?: { pred: ReturnType<typeof compileExpr>; vec: VecFn | null };
  /** syncExprs of the predicate, kept: a reused tree (reusable-plan.ts) asks at every execution */
  private sync?: boolean;

  private compile(): NonNullable<FilterExec['compiled']> {
    const pred = compileExpr(this.plan.predicate, this.env);
    return (this.compiled = { pred, vec: pred.prepare === null ? compileVector(this.plan.predicate, this.env) : null });
  }

  async *execute(): AsyncIterable<Batch> {
    const { pred, vec } = this.compiled ?? this.compile();
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      let keep: number[] | Int32Array;
      if (vec !== null) keep = selectRows(vec, pred.fn, b);
      else {
        if (pred.prepare) await pred.prepare(b);
        keep = [];
        for (let i = 0; i < b.length; i++) {
          let v = pred.fn(b.columns, i);
          if (asyncResult.pending) v = await settleAsync(v, this.env.ctx);
          if (v === true) keep.push(i);
        }
      }
      if (keep.length === 0) continue;
      if (keep.length === b.length) { yield b; continue; }
      yield { columns: gatherColumns(b.columns, keep), length: keep.length };
    }
  }

  /** the small-plan fast path (operator.ts): the input's batches at hand, a predicate that never waits */
  executeSync(): Batch[] | undefined {
    if (!(this.sync ??= syncExprs(this.plan.predicate))) return undefined;
    const input = this.input.executeSync?.();
    if (input === undefined) return undefined;
    const { pred, vec } = this.compiled ?? this.compile();
    checkAbort(this.env);
    const out: Batch[] = [];
    for (const b of input) {
      let keep: number[] | Int32Array;
      // a point lookup's few rows: the row closure allocates nothing, the vector path a column per operand
      if (vec !== null && b.length > ROW_AT_A_TIME_MAX) keep = selectRows(vec, pred.fn, b);
      else {
        keep = [];
        for (let i = 0; i < b.length; i++) if (pred.fn(b.columns, i) === true) keep.push(i);
      }
      if (keep.length === 0) continue;
      out.push(keep.length === b.length ? b : { columns: gatherColumns(b.columns, keep), length: keep.length });
    }
    return out;
  }
}

/** batches up to this many rows are judged a row at a time on the small-plan path (executeSync) */
const ROW_AT_A_TIME_MAX = 8;

/** the rows where the vectorized predicate is true; on an error, the row closure raises the first row's */
function selectRows(vec: VecFn, row: RowFn, b: Batch): Int32Array {
  let v: readonly unknown[];
  try {
    v = valuesOf(vec(b.columns, b.length, null), null, b.length);
  } catch (err) {
    for (let i = 0; i < b.length; i++) row(b.columns, i);
    throw err;
  }
  const keep = new Int32Array(b.length);
  let k = 0;
  for (let i = 0; i < b.length; i++) if (v[i] === true) keep[k++] = i;
  return keep.subarray(0, k);
}

/** the rows `keep` of every column (join-gather.ts's take: shared NULL columns and numeric doubles kept) */
export function gatherColumns(columns: Cols, keep: readonly number[] | Int32Array): Cols {
  return take({ columns, length: 0 }, keep, keep.length, columns.length, false);
}
