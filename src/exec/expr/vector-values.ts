/**
 * Row selections and values shared by the vector kernels (vector-expr.ts and the kernel files): a Vec as
 * plain JS values, narrowing a selection, copying the selected rows of one result into another.
 */
import { mixedToValues, scaledToValues } from './vector-numeric.ts';
import { selCount, type Sel, type Vec, type VecFn } from './vector-types.ts';

/** the empty selection */
export const EMPTY: Int32Array = new Int32Array(0);

/** the rows of `vec` as JS values (materializing constants and scaled numerics) */
export function valuesOf(vec: Vec, sel: Sel, n: number): readonly unknown[] {
  if (vec.tag === 'values') return vec.v;
  if (vec.tag === 'scaled') return scaledToValues(vec, sel, n);
  if (vec.tag === 'mixed') return mixedToValues(vec, sel, n);
  // a one-row result (a point lookup, SELECT 1) is the common case: Array.prototype.fill is a C++ builtin call
  if (n === 1) return [vec.c];
  return new Array<unknown>(n).fill(vec.c);
}

/** the rows of `sel` (or 0 … n-1) for which `keep(row)` holds, as a new selection */
export function pick(sel: Sel, n: number, keep: (i: number) => boolean): Int32Array {
  const m = selCount(sel, n);
  const out = new Int32Array(m);
  let k = 0;
  for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; if (keep(i)) out[k++] = i; }
  return out.subarray(0, k);
}

/** the rows of `sel` where `v` is not NULL (`sel` itself when none is) */
export function notNullRows(v: readonly unknown[], sel: Sel, n: number): Sel {
  const m = selCount(sel, n);
  let nulls = 0;
  for (let j = 0; j < m; j++) { const x = v[sel === null ? j : sel[j]!]; if (x === null || x === undefined) nulls++; }
  if (nulls === 0) return sel;
  return pick(sel, n, (i) => v[i] !== null && v[i] !== undefined);
}

/** out[i] = v[i] for the rows of `sel` */
export function copyRows(out: unknown[], v: readonly unknown[], sel: Sel): void {
  const m = selCount(sel, out.length);
  for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; out[i] = v[i] ?? null; }
}

/** the kernel of a strict one-value function: `f` of each selected non-NULL value of `arg`, NULL elsewhere */
export function mapNonNull(arg: VecFn, f: (x: unknown) => unknown): VecFn {
  return (cols, n, sel) => {
    const v = valuesOf(arg(cols, n, sel), sel, n);
    const out = new Array<unknown>(n).fill(null);
    const m = selCount(sel, n);
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      const x = v[i];
      if (x !== null && x !== undefined) out[i] = f(x) ?? null;
    }
    return { tag: 'values', v: out };
  };
}
