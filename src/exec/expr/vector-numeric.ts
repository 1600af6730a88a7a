/**
 * Numeric kernels without bigint: a batch of numeric values that are finite, share one display scale and
 * whose unscaled values are exact integers in a double becomes a ScaledVec; + − × and the comparisons then
 * run on doubles with numeric.c's result scales (add/sub: max(s1, s2); mul: s1 + s2). Every result is
 * checked to stay below 2^53 in magnitude — a double result below 2^53 of exact integer operands is itself
 * exact (rounding is monotone and 2^53 is representable) — and a batch where one row would not is computed
 * with Numeric (bigint) instead, so answers are exactly numeric.c's either way.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { materializeNumerics, scaledColumnOf } from '../../common/pgtypes/numeric-column.ts';
import type { MixedScaledVec, ScaledVec, Sel, Vec } from './vector-types.ts';
import { selCount } from './vector-types.ts';

const EXACT = 2 ** 53;
const MAX_UNSCALED = BigInt(EXACT - 1);
const NUMERIC_DSCALE_MAX = 0x3fff;
const POW10 = Array.from({ length: 16 }, (_v, k) => 10 ** k);

/** a numeric constant as an exact double, or null (NULL, NaN, ±Infinity, too many digits) */
export function scaledConst(v: unknown): { u: number; scale: number } | null {
  if (!Numeric.isNumeric(v) || !v.isFinite()) return null;
  const u = v.unscaled;
  if (u > MAX_UNSCALED || u < -MAX_UNSCALED) return null;
  return { u: Number(u), scale: v.scale };
}

/** `vec` as a ScaledVec over the rows of `sel`, or null when one row does not fit (or it is not numeric) */
export function toScaled(vec: Vec, sel: Sel, n: number): ScaledVec | null {
  if (vec.tag === 'scaled') return vec;
  if (vec.tag === 'mixed') return mixedAsScaled(vec, sel, n);
  const f = new Float64Array(n);
  if (vec.tag === 'const') {
    if (vec.c === null) return { tag: 'scaled', f, scale: 0, nul: new Uint8Array(n).fill(1) };
    const k = scaledConst(vec.c);
    if (k === null) return null;
    f.fill(k.u);
    return { tag: 'scaled', f, scale: k.scale, nul: null };
  }
  const v = vec.v;
  let nul: Uint8Array | null = null;
  const m = selCount(sel, n);
  const att = scaledColumnOf(v);
  if (att !== undefined) {
    // the decoder's doubles: only the NULLs to mark (none when the decoder saw no validity bitmap)
    if (att.noNulls === true) { /* nothing to mark */ } else if (sel === null) { for (let i = 0; i < n; i++) if (v[i] == null) (nul ??= new Uint8Array(n))[i] = 1; }
    else for (let j = 0; j < m; j++) { const i = sel[j]!; if (v[i] == null) (nul ??= new Uint8Array(n))[i] = 1; }
    return { tag: 'scaled', f: att.f, scale: att.scale, nul, src: v };
  }
  let scale = -1;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = v[i] as Numeric | null | undefined;
    if (x === null || x === undefined) { (nul ??= new Uint8Array(n))[i] = 1; continue; }
    // a numeric column holds Numeric values (pgtypes/values.ts); anything else (a record's field...) falls back
    if (x.kind !== 0 || typeof x.unscaled !== 'bigint') return null;
    if (x.scale !== scale) { if (scale >= 0) return null; scale = x.scale; }
    // one conversion: a double at or past 2^53 means the bigint was (rounding is monotone)
    const d = Number(x.unscaled);
    if (d >= EXACT || d <= -EXACT) return null;
    f[i] = d;
  }
  return { tag: 'scaled', f, scale: scale < 0 ? 0 : scale, nul, src: v };
}

/** the rows of `sel` as Numeric values (NULL where `nul`) */
export function scaledToValues(s: ScaledVec, sel: Sel, n: number): readonly unknown[] {
  if (s.src !== undefined) { materializeNumerics(s.src); return s.src; }
  const out = new Array<unknown>(n).fill(null);
  const { f, scale, nul } = s;
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    if (nul === null || nul[i] === 0) out[i] = Numeric.of(BigInt(f[i]!), scale);
  }
  return out;
}

/** a mixed vector whose selected non-NULL rows share one display scale as a ScaledVec, else null */
function mixedAsScaled(v: MixedScaledVec, sel: Sel, n: number): ScaledVec | null {
  const { scales, nul } = v;
  let scale = -1;
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    if (nul !== null && nul[i] === 1) continue;
    if (scales[i] !== scale) { if (scale >= 0) return null; scale = scales[i]!; }
  }
  return { tag: 'scaled', f: v.f, scale: scale < 0 ? 0 : scale, nul };
}

/** the rows of `sel` of a mixed vector as Numeric values (NULL where `nul`) */
export function mixedToValues(v: MixedScaledVec, sel: Sel, n: number): readonly unknown[] {
  const out = new Array<unknown>(n).fill(null);
  const { f, scales, nul } = v;
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    if (nul === null || nul[i] === 0) out[i] = Numeric.of(BigInt(f[i]!), scales[i]!);
  }
  return out;
}

function orNulls(a: Uint8Array | null, b: Uint8Array | null, n: number): Uint8Array | null {
  if (a === null) return b;
  if (b === null) return a;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = a[i]! | b[i]!;
  return out;
}

/** numeric_add / numeric_sub / numeric_mul over scaled operands; null when a result leaves the exact range */
export function scaledArith(op: '+' | '-' | '*', a: ScaledVec, b: ScaledVec, sel: Sel, n: number): ScaledVec | null {
  const nul = orNulls(a.nul, b.nul, n);
  const f = new Float64Array(n);
  const af = a.f, bf = b.f;
  const m = selCount(sel, n);
  let scale: number;
  if (op === '*') {
    scale = a.scale + b.scale;
    if (scale > NUMERIC_DSCALE_MAX) return null;
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      const r = af[i]! * bf[i]!;
      if (r >= EXACT || r <= -EXACT) { if (nul === null || nul[i] === 0) return null; continue; }
      f[i] = r;
    }
    return { tag: 'scaled', f, scale, nul };
  }
  scale = Math.max(a.scale, b.scale);
  const pa = POW10[scale - a.scale], pb = POW10[scale - b.scale];
  if (pa === undefined || pb === undefined) return null;
  const sign = op === '+' ? 1 : -1;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = af[i]! * pa, y = bf[i]! * pb;
    const r = x + sign * y;
    if (x >= EXACT || x <= -EXACT || y >= EXACT || y <= -EXACT || r >= EXACT || r <= -EXACT) {
      if (nul === null || nul[i] === 0) return null;
      continue;
    }
    f[i] = r;
  }
  return { tag: 'scaled', f, scale, nul };
}

export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * scaledArith with one constant operand (`1 - l_discount`, `x * 0.5`): the constant `k` is not spread into an
 * array, and with `kLeft` it is the left operand; null when a result leaves the exact range
 */
export function scaledArithConst(op: '+' | '-' | '*', x: ScaledVec, k: { u: number; scale: number }, kLeft: boolean, sel: Sel, n: number): ScaledVec | null {
  const f = new Float64Array(n);
  const xf = x.f, nul = x.nul, ku = k.u;
  const m = selCount(sel, n);
  if (op === '*') {
    const scale = x.scale + k.scale;
    if (scale > NUMERIC_DSCALE_MAX) return null;
    for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      const r = xf[i]! * ku;
      if (r >= EXACT || r <= -EXACT) { if (nul === null || nul[i] === 0) return null; continue; }
      f[i] = r;
    }
    return { tag: 'scaled', f, scale, nul };
  }
  const scale = Math.max(x.scale, k.scale);
  const px = POW10[scale - x.scale], pk = POW10[scale - k.scale];
  if (px === undefined || pk === undefined) return null;
  const kk = ku * pk;
  if (kk >= EXACT || kk <= -EXACT) return null;
  // x ± k, or k ± x: r = s·kk + t·(x·px)
  const s = kLeft ? 1 : op === '+' ? 1 : -1, t = kLeft && op === '-' ? -1 : 1;
  const c = s * kk;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const y = xf[i]! * px;
    const r = c + t * y;
    if (y >= EXACT || y <= -EXACT || r >= EXACT || r <= -EXACT) { if (nul === null || nul[i] === 0) return null; continue; }
    f[i] = r;
  }
  return { tag: 'scaled', f, scale, nul };
}

/** numeric comparison of scaled operands into booleans (NULL where either is NULL); null when not exact */
export function scaledCompare(op: CmpOp, a: ScaledVec, b: ScaledVec, sel: Sel, n: number): unknown[] | null {
  const scale = Math.max(a.scale, b.scale);
  const pa = POW10[scale - a.scale], pb = POW10[scale - b.scale];
  if (pa === undefined || pb === undefined) return null;
  const out = new Array<unknown>(n).fill(null);
  const af = a.f, bf = b.f, an = a.nul, bn = b.nul;
  const lt = op === '<' || op === '<=' || op === '<>', eq = op === '=' || op === '<=' || op === '>=', gt = op === '>' || op === '>=' || op === '<>';
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    if ((an !== null && an[i] === 1) || (bn !== null && bn[i] === 1)) continue;
    const x = af[i]! * pa, y = bf[i]! * pb;
    if (x >= EXACT || x <= -EXACT || y >= EXACT || y <= -EXACT) return null;
    out[i] = x < y ? lt : x > y ? gt : eq;
  }
  return out;
}
