/**
 * FilterExec: keeps rows whose predicate is true. A vectorizable predicate (expr/vector-expr.ts) computes
 * the batch's rows at once; the others run their row closure per row (awaiting async functions). Right above
 * an Iceberg scan, batches the scan marked exact (iceberg/parallel/exact-rows.ts) skip the conjuncts it
 * judged (scan-judged-filter.ts); every other batch runs the whole predicate.
 */
import type { Batch } from '../../common/batch.ts';
import type { Expr, Filter } from '../../sql/index.ts';
import { isExact } from '../../iceberg/parallel/exact-rows.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileExpr, settleAsync, type Cols, type RowFn } from '../expr/compile-expr.ts';
import { compileVector, valuesOf, type VecFn } from '../expr/vector-expr.ts';
import type { ExecOperator } from '../operator.ts';
import { take } from '../join-gather.ts';
import { syncExprs } from './sync-exprs.ts';
import { judgedSplit } from './scan-judged-filter.ts';
import { noteExplainDetail } from '../memory/memory-explain.ts';

type CompiledPredicate = { pred: ReturnType<typeof compileExpr>; vec: VecFn | null };

export class FilterExec implements ExecOperator {
  readonly name = 'FilterExec';
  constructor(private readonly plan: Filter, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  /** compiled on the first execution and kept: a reused operator tree (engine/reusable-plan.ts) runs again */
  private compiled?: CompiledPredicate;
  /** syncExprs of the predicate, kept: a reused tree (reusable-plan.ts) asks at every execution */
  private sync?: boolean;

  private compile(): CompiledPredicate {
    return (this.compiled = this.compileOf(this.plan.predicate));
  }

  private compileOf(e: Expr): CompiledPredicate {
    const pred = compileExpr(e, this.env);
    return { pred, vec: pred.prepare === null ? compileVector(e, this.env) : null };
  }

  /**
   * the predicate for batches the scan below marked exact: the rest after its judged conjuncts (null: none
   * left), or the whole one. Made per execution: which conjuncts are judged depends on the `$n` values.
   */
  private forExact(whole: CompiledPredicate): CompiledPredicate | null {
    // the batches come from executing the plan's input (an EXPLAIN ANALYZE wrapper may sit between the operators)
    const scan = this.plan.input.kind === 'TableScan' ? this.plan.input : null;
    const split = scan === null ? null : judgedSplit(this.plan.predicate, scan, this.env);
    if (split === null) return whole;
    // EXPLAIN ANALYZE says the scan's verdict was used (the plan's conjuncts are unchanged)
    noteExplainDetail(this.env, this.plan, `Exact Scan Batches: ${split.skipped} judged conjunct${split.skipped === 1 ? '' : 's'} skipped${split.rest === null ? ' (nothing left to evaluate)' : ''}`);
    return split.rest === null ? null : this.compileOf(split.rest);
  }

  async *execute(): AsyncIterable<Batch> {
    const whole = this.compiled ?? this.compile();
    let exact: CompiledPredicate | null | undefined;
    // an aggregate below may leave out groups that fail the predicate before making their rows (HAVING)
    this.input.offerFilter?.(this.plan);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      let use = whole;
      if (isExact(b)) {
        if (exact === undefined) exact = this.forExact(whole);
        if (exact === null) { yield b; continue; }
        use = exact;
      }
      const { pred, vec } = use;
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
