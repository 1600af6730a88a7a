/**
 * JoinResidual: the part of a join condition that is not an equi-key (equi-keys.ts), checked over the
 * candidate pairs a join forms (join-core.ts). Two things keep it cheap:
 *  - only the columns the condition reads are gathered for the pairs (TPC-H q21's `l2.l_suppkey <> l1.l_suppkey`
 *    reads 2 of some 50 columns; q13's `o_comment NOT LIKE …` one); the others are a shared NULL column;
 *  - the condition runs as a vector kernel over all pairs at once when it can (expr/vector-expr.ts), with the
 *    row closures' semantics; on an error the row closures re-run the pairs, so the error is the first failing
 *    pair's, as before.
 * A condition with subqueries sees every column of the pair (their runners may read any) and runs per row.
 */
import { nullColumn, type Batch } from '../common/batch.ts';
import { someExpr, type Expr } from '../sql/index.ts';
import type { Env } from './context.ts';
import { compileExpr, type Compiled } from './expr/compile-expr.ts';
import { compileVector, valuesOf, type VecFn } from './expr/vector-expr.ts';
import { take, takeColumn, takeColumnOf } from './join-gather.ts';
import type { BuiltRows } from './join-chunked-rows.ts';

export class JoinResidual {
  readonly #cond: Compiled;
  readonly #vec: VecFn | null;
  /** the columns of the combined row the condition reads, or null: all (subqueries) */
  readonly #reads: readonly number[] | null;

  constructor(expr: Expr, env: Env) {
    this.#cond = compileExpr(expr, env);
    this.#vec = this.#cond.prepare === null ? compileVector(expr, env) : null;
    if (this.#cond.prepare !== null) this.#reads = null;
    else {
      const reads = new Set<number>();
      someExpr(expr, (x) => {
        if (x.kind === 'ColumnRef' && x.levelsUp === 0) reads.add(x.index);
        return false;
      });
      this.#reads = [...reads];
    }
  }

  /** the residual of a join, if it has one */
  static of(expr: Expr | null, env: Env): JoinResidual | null {
    return expr === null ? null : new JoinResidual(expr, env);
  }

  /**
   * the pairs k < n (left row `lv[k]`, right row `rv[k]`) whose combined row satisfies the condition: their
   * positions, ascending, in `keep`; returns how many
   */
  async select(left: Batch, right: BuiltRows, leftWidth: number, rightWidth: number, lv: Int32Array, rv: Int32Array, n: number, keep: Int32Array): Promise<number> {
    let cols: (readonly unknown[])[];
    if (this.#reads === null) cols = [...take(left, lv, n, leftWidth, false), ...take(right, rv, n, rightWidth, false)];
    else {
      cols = new Array<readonly unknown[]>(leftWidth + rightWidth).fill(nullColumn(n));
      for (const c of this.#reads) {
        cols[c] = c < leftWidth ? takeColumn(left.columns[c], lv, n, false) : takeColumnOf(right, c - leftWidth, rv, n, false);
      }
    }
    const fn = this.#cond.fn;
    if (this.#cond.prepare !== null) await this.#cond.prepare({ columns: cols, length: n });
    let kept = 0;
    if (this.#vec === null) {
      for (let k = 0; k < n; k++) if (fn(cols, k) === true) keep[kept++] = k;
      return kept;
    }
    let v: readonly unknown[];
    try {
      v = valuesOf(this.#vec(cols, n, null), null, n);
    } catch (err) {
      // the first failing pair raises its own error, as the row closures would
      for (let k = 0; k < n; k++) fn(cols, k);
      throw err;
    }
    for (let k = 0; k < n; k++) if (v[k] === true) keep[kept++] = k;
    return kept;
  }
}
