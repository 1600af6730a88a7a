/**
 * Vector kernels: a bound Expr compiled into a function that computes one node for a whole batch (a column
 * per node, loops over the rows) instead of one closure call per node per row (compile-expr.ts).
 *
 * Semantics are the row closures' exactly. Every node is asked for a selection of rows, and lazy constructs
 * narrow it before evaluating what comes after: AND/OR evaluate an argument only on the rows the earlier ones
 * left undecided, CASE a branch only on the rows that reach it, COALESCE an argument only where the earlier
 * ones were NULL, a strict operator its right operand only where the left one is not NULL. So a node runs on
 * exactly the rows the row-at-a-time closures would run it on, and `CASE WHEN x = 0 THEN 0 ELSE 1/x END`
 * never divides by zero. When a batch raises an error, the caller re-runs the batch with the row closures
 * (runVectorOrRows) so the error is the one of the first failing row, as PostgreSQL reports it.
 *
 * Not vectorized at all (compileVector returns null): expressions with a subquery or a volatile function
 * (their order of calls is observable: nextval, random; vector-eligible.ts). Nodes without a kernel (arrays,
 * rows, regex...) run their row closure over the selected rows, inside an otherwise vectorized tree.
 *
 * This file is the compiler (memoized subtrees, constants, dispatch); the kernels live beside it:
 * vector-operator.ts (operators, numeric and date fast paths), vector-control.ts (CASE, COALESCE, AND/OR/NOT),
 * vector-row-kernels.ts (calls, casts, IS NULL, op ANY (array)), vector-call-kernels.ts (extract / date_part
 * of dates, substring with constant bounds), ../in-list-set.ts (IN / NOT IN lists as a set probe),
 * vector-values.ts (selections).
 */
import { materializeAllNumerics } from '../../common/pgtypes/numeric-column.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { Expr } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileNode, type Cols, type RowFn } from './compile-expr.ts';
import type { SubqueryRunner } from './subquery-runner.ts';
import { StructuralKeys } from './compile-shared.ts';
import { toScaled } from './vector-numeric.ts';
import { boolOpKernel, caseKernel, coalesceKernel } from './vector-control.ts';
import { blocked, isConstant } from './vector-eligible.ts';
import { opKernel } from './vector-operator.ts';
import { callKernel, castKernel, nullTestKernel, scalarArrayOpKernel } from './vector-row-kernels.ts';
import { selCount, type Vec, type VecFn } from './vector-types.ts';

export { valuesOf } from './vector-values.ts';
export { OUTCOMES } from './vector-operator.ts';
export type { VecFn } from './vector-types.ts';

/** LAKEGATE_VECTOR=off keeps every expression row-at-a-time (A/B measurements, bisecting a wrong answer) */
let VECTOR_KERNELS = process.env['LAKEGATE_VECTOR'] !== 'off';

/** switches the kernels on or off for plans compiled from now on (the differential tests compare both) */
export function setVectorKernels(on: boolean): boolean {
  const was = VECTOR_KERNELS;
  VECTOR_KERNELS = on;
  return was;
}

/** a compiled vector expression, or null when `e` must stay row-at-a-time */
export function compileVector(e: Expr, env: Env): VecFn | null {
  if (!VECTOR_KERNELS || blocked(e)) return null;
  const c = new VectorCompiler(env);
  const fn = c.compile(e);
  return (cols, n, sel) => { c.reset(); return fn(cols, n, sel); };
}

/** compiles several expressions; repeated pure subtrees compute once per batch (Q1's price × (1 − discount)) */
export class VectorCompiler {
  readonly #memo = new Map<string, VecFn>();
  readonly #keys = new StructuralKeys();
  readonly #resets: (() => void)[] = [];
  constructor(private readonly env: Env) {}

  /** forgets the results remembered for the last batch (call before each batch: a batch may reuse an array) */
  reset(): void {
    for (const r of this.#resets) r();
  }

  /** null when `e` must stay row-at-a-time */
  tryCompile(e: Expr): VecFn | null {
    return !VECTOR_KERNELS || blocked(e) ? null : this.compile(e);
  }

  compile(e: Expr): VecFn {
    // no column of the row below it: its row closure once per batch (`date '1998-12-01' - interval '90 days'`)
    if (e.kind !== 'Literal' && e.kind !== 'Param' && isConstant(e)) return this.#constant(e);
    const k = this.#keys.of(e);
    if (k === null || (e.kind === 'ColumnRef' && e.type.oid !== Oid.numeric) || e.kind === 'Literal') return this.#body(e);
    let fn = this.#memo.get(k);
    if (fn === undefined) {
      const body = this.#body(e);
      let lastCols: Cols | null = null, lastN = -1, last: Vec | null = null;
      this.#resets.push(() => { lastCols = null; last = null; });
      fn = (cols, n, sel) => {
        if (sel !== null) return body(cols, n, sel);
        if (cols === lastCols && n === lastN && last !== null) return last;
        last = null;
        const v = body(cols, n, null);
        lastCols = cols; lastN = n; last = v;
        return v;
      };
      this.#memo.set(k, fn);
    }
    return fn;
  }

  #rowFallback(e: Expr): VecFn {
    const runners: SubqueryRunner[] = [];
    const row: RowFn = compileNode(e, this.env, runners, { value: null });
    return (cols, n, sel) => {
      // the row closure reads the columns themselves: lazy numeric columns (a scan worker's) get their Numerics
      materializeAllNumerics(cols);
      const out = new Array<unknown>(n).fill(null);
      const m = selCount(sel, n);
      for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; out[i] = row(cols, i); }
      return { tag: 'values', v: out };
    };
  }

  #body(e: Expr): VecFn {
    const ctx = this.env.ctx;
    switch (e.kind) {
      case 'ColumnRef': {
        if (e.levelsUp > 0) return this.#rowFallback(e);
        const idx = e.index;
        // numeric columns: converted once per batch for every kernel that reads them (memoized in compile())
        if (e.type.oid === Oid.numeric) return (cols, n, sel) => { const v: Vec = { tag: 'values', v: cols[idx]! }; return toScaled(v, sel, n) ?? v; };
        return (cols) => ({ tag: 'values', v: cols[idx]! });
      }
      case 'Literal': { const c = { tag: 'const', c: e.value } as const; return () => c; }
      case 'Param': { const idx = e.index; return () => ({ tag: 'const', c: ctx.params[idx] ?? null }); }
      case 'Op': return opKernel(e, e.left === null ? null : this.compile(e.left), this.compile(e.right), ctx);
      case 'Call': return callKernel(e, e.args.map((a) => this.compile(a)), ctx);
      case 'Cast': {
        if (e.fn === null) return this.compile(e.arg);
        if (e.arg.kind === 'Literal') return this.#constant(e);
        return castKernel(e, this.compile(e.arg), ctx);
      }
      case 'BoolOp': return boolOpKernel(e.op, e.args.map((a) => this.compile(a)));
      case 'Case': return caseKernel(e.whens.map((w) => [this.compile(w.cond), this.compile(w.result)] as const), this.compile(e.elseExpr), e.type.oid === Oid.numeric);
      case 'Coalesce': return coalesceKernel(e.args.map((a) => this.compile(a)));
      case 'NullTest': return nullTestKernel(this.compile(e.arg), this.#rowFallback(e), e.negated);
      case 'ScalarArrayOp': {
        if (e.op.right.kind !== 'Literal' || e.op.left === null) return this.#rowFallback(e);
        const arr = e.op.right.value as { values: readonly unknown[] } | readonly unknown[] | null;
        if (arr === null) return this.#rowFallback(e);
        const values = Array.isArray(arr) ? arr as readonly unknown[] : (arr as { values: readonly unknown[] }).values;
        return scalarArrayOpKernel(e, this.compile(e.op.left), values, ctx);
      }
      default: return this.#rowFallback(e);
    }
  }

  /** a subtree without column references: its row closure once per batch, on the first selected row */
  #constant(e: Expr): VecFn {
    const runners: SubqueryRunner[] = [];
    const row = compileNode(e, this.env, runners, { value: null });
    return (cols, n, sel) => {
      if (selCount(sel, n) === 0) return { tag: 'const', c: null };
      return { tag: 'const', c: row(cols, sel === null ? 0 : sel[0]!) };
    };
  }
}
