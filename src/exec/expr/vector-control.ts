/**
 * Vector kernels of the lazy constructs (vector-expr.ts): each evaluates an argument only on the rows the
 * earlier ones left undecided, exactly the rows the row closures would evaluate it on — AND/OR stop at the
 * first false/true argument, CASE runs a branch only on the rows that reach it, COALESCE an argument only
 * where the earlier ones were NULL.
 */
import { copyRows, pick, valuesOf } from './vector-values.ts';
import { selCount, type Sel, type VecFn } from './vector-types.ts';

/** CASE WHEN c1 THEN r1 … ELSE e END */
export function caseKernel(whens: readonly (readonly [VecFn, VecFn])[], els: VecFn): VecFn {
  return (cols, n, sel) => {
    const out = new Array<unknown>(n).fill(null);
    let rest: Sel = sel;
    for (const [cond, res] of whens) {
      if (selCount(rest, n) === 0) break;
      const c = valuesOf(cond(cols, n, rest), rest, n);
      const hit = pick(rest, n, (i) => c[i] === true);
      if (hit.length > 0) copyRows(out, valuesOf(res(cols, n, hit), hit, n), hit);
      rest = pick(rest, n, (i) => c[i] !== true);
    }
    if (selCount(rest, n) > 0) copyRows(out, valuesOf(els(cols, n, rest), rest, n), rest);
    return { tag: 'values', v: out };
  };
}

/** COALESCE(a, b, …) */
export function coalesceKernel(args: readonly VecFn[]): VecFn {
  return (cols, n, sel) => {
    const out = new Array<unknown>(n).fill(null);
    let rest: Sel = sel;
    for (const a of args) {
      if (selCount(rest, n) === 0) break;
      const v = valuesOf(a(cols, n, rest), rest, n);
      copyRows(out, v, rest);
      rest = pick(rest, n, (i) => v[i] === null || v[i] === undefined);
    }
    return { tag: 'values', v: out };
  };
}

/** AND / OR / NOT in three-valued logic */
export function boolOpKernel(op: 'and' | 'or' | 'not', args: readonly VecFn[]): VecFn {
  if (op === 'not') {
    const a = args[0]!;
    return (cols, n, sel) => {
      const v = valuesOf(a(cols, n, sel), sel, n);
      const out = new Array<unknown>(n).fill(null);
      const m = selCount(sel, n);
      for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; const x = v[i]; out[i] = x === null || x === undefined ? null : !x; }
      return { tag: 'values', v: out };
    };
  }
  // AND: a row is decided by the first false argument; OR by the first true one
  const decisive = op === 'or';
  return (cols, n, sel) => {
    const out = new Array<unknown>(n).fill(null);
    const sawNull = new Uint8Array(n);
    let rest: Sel = sel;
    for (const a of args) {
      if (selCount(rest, n) === 0) break;
      const v = valuesOf(a(cols, n, rest), rest, n);
      const m = selCount(rest, n);
      const next = new Int32Array(m);
      let k = 0;
      for (let j = 0; j < m; j++) {
        const i = rest === null ? j : rest[j]!;
        const x = v[i];
        if (x === decisive) out[i] = decisive;
        else { if (x === null || x === undefined) sawNull[i] = 1; next[k++] = i; }
      }
      rest = next.subarray(0, k);
    }
    const m = selCount(rest, n);
    for (let j = 0; j < m; j++) { const i = rest === null ? j : rest[j]!; out[i] = sawNull[i] === 1 ? null : !decisive; }
    return { tag: 'values', v: out };
  };
}
