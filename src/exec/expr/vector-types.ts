/**
 * The values a vector kernel passes between expression nodes for one batch (vector-expr.ts). Every array
 * is indexed by row of the batch; only the rows of the selection the node was asked for are meaningful.
 *  - values: JS values as pgtypes/values.ts describes them (null for NULL; a column array may hold undefined)
 *  - const:  one value for every row (literals, parameters, constant subtrees)
 *  - scaled: a numeric column whose selected non-NULL values are finite, share one display scale and have
 *            an unscaled value that is an exact integer in a double (|u| ≤ 2^53): numeric + − × and
 *            comparisons run on doubles, no bigint or Numeric object per row (vector-numeric.ts)
 *  - mixed:  the same with a display scale per row (a numeric CASE's branches of different scales)
 */
import type { Cols } from './compile-expr.ts';

export interface ValuesVec { readonly tag: 'values'; readonly v: readonly unknown[] }
export interface ConstVec { readonly tag: 'const'; readonly c: unknown }
export interface ScaledVec {
  readonly tag: 'scaled';
  /** unscaled value of each row (value = f × 10^-scale) */
  readonly f: Float64Array;
  readonly scale: number;
  /** 1 for a NULL row; null when no selected row is NULL */
  readonly nul: Uint8Array | null;
  /** the Numeric values it was made from (a column), handed out instead of new ones when values are wanted */
  readonly src?: readonly unknown[];
}
/**
 * A numeric CASE whose branches have different display scales (`CASE WHEN … THEN price * (1 - disc) ELSE 0
 * END`): each row's unscaled value as an exact double at its own display scale (vector-control.ts)
 */
export interface MixedScaledVec {
  readonly tag: 'mixed';
  /** unscaled value of each row (value = f × 10^-scales[i]) */
  readonly f: Float64Array;
  readonly scales: Uint16Array;
  /** 1 for a NULL row; null when no selected row is NULL */
  readonly nul: Uint8Array | null;
}
export type Vec = ValuesVec | ConstVec | ScaledVec | MixedScaledVec;

/** ascending row numbers of the rows to compute; null means every row 0 … n-1 */
export type Sel = Int32Array | null;

export const selCount = (sel: Sel, n: number): number => (sel === null ? n : sel.length);

/** the rows of `sel` (or 0 … n-1) for which `keep(row)` holds */
export function selWhere(sel: Sel, n: number, keep: (row: number) => boolean): Int32Array {
  const m = selCount(sel, n);
  const out = new Int32Array(m);
  let k = 0;
  if (sel === null) { for (let i = 0; i < n; i++) if (keep(i)) out[k++] = i; }
  else for (let j = 0; j < m; j++) { const i = sel[j]!; if (keep(i)) out[k++] = i; }
  return k === m && sel !== null ? sel : out.subarray(0, k);
}

/** a compiled vector expression: computes the node for the rows `sel` (null: all `n` rows) of the batch `cols` */
export type VecFn = (cols: Cols, n: number, sel: Sel) => Vec;
