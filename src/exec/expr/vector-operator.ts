/**
 * The vector kernel of an operator (vector-expr.ts): a strict binary operator evaluates its right operand
 * only where the left one is not NULL (the row closure never evaluates it there). Numeric + − × and
 * comparisons run on exact doubles when the batch allows it (vector-numeric.ts); date vs timestamp constant
 * (TPC-H's `l_shipdate <= date '…' - interval '…'`) compares day numbers without a bigint per row.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import type { Expr } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import { likeMatcher } from './like-matcher.ts';
import { scaledArith, scaledArithConst, scaledCompare, scaledConst, toScaled, type CmpOp } from './vector-numeric.ts';
import { EMPTY, mapNonNull, notNullRows, valuesOf } from './vector-values.ts';
import { selCount, type ConstVec, type Sel, type VecFn } from './vector-types.ts';

const NUMERIC_ARITH: Record<number, '+' | '-' | '*'> = { 1758: '+', 1759: '-', 1760: '*' };
const CMP = new Set<string>(['=', '<>', '<', '<=', '>', '>=']);
/** LIKE / NOT LIKE / ILIKE / NOT ILIKE over text, bpchar, name (functions/string-operators.ts): [case-insensitive, negated] */
const LIKE_OPS: Record<number, readonly [boolean, boolean]> = {
  1209: [false, false], 1211: [false, false], 1207: [false, false], 1210: [false, true], 1212: [false, true], 1208: [false, true],
  1627: [true, false], 1629: [true, false], 1625: [true, false], 1628: [true, true], 1630: [true, true], 1626: [true, true],
};

/** `l` is null for a prefix operator */
export function opKernel(e: Extract<Expr, { kind: 'Op' }>, l: VecFn | null, r: VecFn, ctx: ExecContext): VecFn {
  const { def, leftType, rightType } = e;
  const lt = leftType ?? rightType;
  if (l === null) return mapNonNull(r, (y) => def.impl(null, y, ctx, lt, rightType));
  if (def.strict === false) {
    return (cols, n, sel) => {
      const lv = valuesOf(l(cols, n, sel), sel, n), rv = valuesOf(r(cols, n, sel), sel, n);
      const out = new Array<unknown>(n).fill(null);
      const m = selCount(sel, n);
      for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; out[i] = def.impl(lv[i] ?? null, rv[i] ?? null, ctx, lt, rightType) ?? null; }
      return { tag: 'values', v: out };
    };
  }
  const numArith = lt.oid === Oid.numeric && rightType.oid === Oid.numeric && def.oid !== undefined ? NUMERIC_ARITH[def.oid] : undefined;
  const dateTs = lt.oid === Oid.date && rightType.oid === Oid.timestamp && def.returns === Oid.bool && CMP.has(def.name) ? def.name as CmpOp : undefined;
  const numCmp = lt.oid === Oid.numeric && rightType.oid === Oid.numeric && def.returns === Oid.bool && CMP.has(def.name) ? def.name as CmpOp : undefined;
  const likeOp = def.oid === undefined ? undefined : LIKE_OPS[def.oid];
  return (cols, n, sel) => {
    const lvec = l(cols, n, sel);
    // the right operand only where the left one is not NULL (the row closure never evaluates it there)
    const lvals = lvec.tag === 'values' ? lvec.v : null;
    const rsel = lvals === null ? (lvec.tag === 'const' && lvec.c === null ? EMPTY : sel) : notNullRows(lvals, sel, n);
    const rvec = r(cols, n, rsel);
    if (dateTs !== undefined && rvec.tag === 'const' && typeof rvec.c === 'bigint') {
      return { tag: 'values', v: dateVsTimestamp(dateTs, valuesOf(lvec, rsel, n), rvec.c, rsel, n, (x, y) => def.impl(x, y, ctx, lt, rightType)) };
    }
    if (likeOp !== undefined && rvec.tag === 'const' && typeof rvec.c === 'string') {
      return { tag: 'values', v: likeConst(valuesOf(lvec, rsel, n), rvec.c, likeOp[0], likeOp[1], rsel, n) };
    }
    if (numArith !== undefined || numCmp !== undefined) {
      // a non-NULL constant operand of + − ×: not spread into an array
      if (numArith !== undefined && (lvec.tag === 'const') !== (rvec.tag === 'const')) {
        const kLeft = lvec.tag === 'const';
        const k = scaledConst(kLeft ? (lvec as ConstVec).c : (rvec as ConstVec).c);
        const x = k === null ? null : toScaled(kLeft ? rvec : lvec, kLeft ? rsel : sel, n);
        if (k !== null && x !== null) { const s = scaledArithConst(numArith, x, k, kLeft, rsel, n); if (s !== null) return s; }
      }
      // left NULL rows (outside rsel) stay NULL through a's null marks
      const a = toScaled(lvec, sel, n);
      const b = a === null ? null : toScaled(rvec, rsel, n);
      if (a !== null && b !== null) {
        if (numArith !== undefined) { const s = scaledArith(numArith, a, b, rsel, n); if (s !== null) return s; }
        else { const c = scaledCompare(numCmp!, a, b, rsel, n); if (c !== null) return { tag: 'values', v: c }; }
      }
    }
    const lv = valuesOf(lvec, rsel, n), rv = valuesOf(rvec, rsel, n);
    const out = new Array<unknown>(n).fill(null);
    const m = selCount(rsel, n);
    for (let j = 0; j < m; j++) {
      const i = rsel === null ? j : rsel[j]!;
      const x = lv[i], y = rv[i];
      if (x === null || x === undefined || y === null || y === undefined) continue;
      out[i] = def.impl(x, y, ctx, lt, rightType) ?? null;
    }
    return { tag: 'values', v: out };
  };
}

/** the answer of each comparison for a left side less than, equal to, greater than the right */
export const OUTCOMES: Record<CmpOp, readonly [boolean, boolean, boolean]> = {
  '=': [false, true, false], '<>': [true, false, true], '<': [true, false, false],
  '<=': [true, true, false], '>': [false, false, true], '>=': [false, true, true],
};
const USECS_PER_DAY = 86_400_000_000n;
/** dates farther from 1970 than this (or ±infinity) compare through the operator itself (range errors) */
const PLAIN_DAYS = 10_000_000;

/**
 * date <op> timestamp constant, as date_cmp_timestamp (the date at midnight) without a bigint per row:
 * with T = q days + r µs (0 ≤ r < a day), d < q ⇒ less, d > q ⇒ greater, d = q ⇒ equal iff r = 0, else less
 */
function dateVsTimestamp(op: CmpOp, v: readonly unknown[], t: bigint, sel: Sel, n: number, slow: (d: unknown, t: bigint) => unknown): unknown[] {
  let q = t / USECS_PER_DAY;
  let r = t % USECS_PER_DAY;
  if (r < 0n) { q -= 1n; r += USECS_PER_DAY; }
  const qd = Number(q);
  const exact = r === 0n;
  const [lt, eq, gt] = OUTCOMES[op];
  const out = new Array<unknown>(n).fill(null);
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const d = v[i];
    if (d === null || d === undefined) continue;
    if (!(typeof d === 'number' && d < PLAIN_DAYS && d > -PLAIN_DAYS)) { out[i] = slow(d, t) ?? null; continue; }
    out[i] = d < qd ? lt : d > qd ? gt : exact ? eq : lt;
  }
  return out;
}

/**
 * x [NOT] [I]LIKE 'constant pattern': the operator's like() (functions/like.ts) with the pattern's RegExp looked up
 * once per batch instead of once per row (its cache key is a new string each time)
 */
function likeConst(v: readonly unknown[], pattern: string, ci: boolean, negate: boolean, sel: Sel, n: number): unknown[] {
  const match = likeMatcher(pattern, ci);
  const out = new Array<unknown>(n).fill(null);
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = v[i];
    if (x === null || x === undefined) continue;
    const hit = match(x as string);
    out[i] = negate ? !hit : hit;
  }
  return out;
}
