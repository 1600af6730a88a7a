/**
 * Vector kernels of the lazy constructs (vector-expr.ts): each evaluates an argument only on the rows the
 * earlier ones left undecided, exactly the rows the row closures would evaluate it on — AND/OR stop at the
 * first false/true argument, CASE runs a branch only on the rows that reach it, COALESCE an argument only
 * where the earlier ones were NULL.
 */
import { scaledConst, toScaled } from './vector-numeric.ts';
import { copyRows, pick, valuesOf } from './vector-values.ts';
import { selCount, type MixedScaledVec, type ScaledVec, type Sel, type Vec, type VecFn } from './vector-types.ts';

/**
 * CASE WHEN c1 THEN r1 … ELSE e END. A numeric CASE whose branches all give exact scaled values (TPC-H's
 * `CASE WHEN … THEN l_extendedprice * (1 - l_discount) ELSE 0 END` inside sum()) stays scaled: one ScaledVec
 * when the branches share a display scale, else a MixedScaledVec (a scale per row) — no Numeric per row.
 */
export function caseKernel(whens: readonly (readonly [VecFn, VecFn])[], els: VecFn, numeric = false): VecFn {
  return (cols, n, sel) => {
    const parts: Branch[] = [];
    let rest: Sel = sel;
    for (const [cond, res] of whens) {
      if (selCount(rest, n) === 0) break;
      const c = valuesOf(cond(cols, n, rest), rest, n);
      const [hit, miss] = splitTrue(rest, n, c);
      if (hit.length > 0) parts.push({ vec: res(cols, n, hit), rows: hit });
      rest = miss;
    }
    if (selCount(rest, n) > 0) parts.push({ vec: els(cols, n, rest), rows: rest });
    const scaled = numeric ? scaledBranches(parts, n) : null;
    if (scaled !== null) return scaled;
    const out = new Array<unknown>(n).fill(null);
    for (const p of parts) copyRows(out, valuesOf(p.vec, p.rows, n), p.rows);
    return { tag: 'values', v: out };
  };
}

/** the rows of `sel` where `c` is true, and the others, in one pass */
function splitTrue(sel: Sel, n: number, c: readonly unknown[]): [Int32Array, Int32Array] {
  const m = selCount(sel, n);
  const hit = new Int32Array(m), miss = new Int32Array(m);
  let h = 0, o = 0;
  for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; if (c[i] === true) hit[h++] = i; else miss[o++] = i; }
  return [hit.subarray(0, h), miss.subarray(0, o)];
}

/** a branch's result and the rows it was computed for */
interface Branch { readonly vec: Vec; readonly rows: Sel }

/** the branches' rows as one scaled (or mixed-scale) vector; null when one branch is not exact scaled numeric */
function scaledBranches(parts: readonly Branch[], n: number): ScaledVec | MixedScaledVec | null {
  const f = new Float64Array(n), scales = new Uint16Array(n);
  let nul: Uint8Array | null = null;
  let common = -1, mixed = false;
  const scaleOf = (s: number): void => { if (common === -1) common = s; else if (s !== common) mixed = true; };
  for (const { vec, rows } of parts) {
    const m = selCount(rows, n);
    if (vec.tag === 'const') {
      if (vec.c === null) {
        nul ??= new Uint8Array(n);
        for (let j = 0; j < m; j++) nul[rows === null ? j : rows[j]!] = 1;
        continue;
      }
      const k = scaledConst(vec.c);
      if (k === null) return null;
      scaleOf(k.scale);
      for (let j = 0; j < m; j++) { const i = rows === null ? j : rows[j]!; f[i] = k.u; scales[i] = k.scale; }
      continue;
    }
    const v: ScaledVec | MixedScaledVec | null = vec.tag === 'mixed' ? vec : toScaled(vec, rows, n);
    if (v === null) return null;
    const vf = v.f, vn = v.nul, vs = v.tag === 'mixed' ? v.scales : null;
    if (vs === null) scaleOf((v as ScaledVec).scale);
    for (let j = 0; j < m; j++) {
      const i = rows === null ? j : rows[j]!;
      if (vn !== null && vn[i] === 1) { (nul ??= new Uint8Array(n))[i] = 1; continue; }
      f[i] = vf[i]!;
      if (vs !== null) { scales[i] = vs[i]!; scaleOf(vs[i]!); } else scales[i] = (v as ScaledVec).scale;
    }
  }
  if (!mixed) return { tag: 'scaled', f, scale: common < 0 ? 0 : common, nul };
  return { tag: 'mixed', f, scales, nul };
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
