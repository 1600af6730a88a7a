/**
 * Array functions and operators (PostgreSQL 15 array.c / array_userfuncs.c semantics) over PgArray:
 * bounds and dimensions, append/prepend/cat, position(s), remove/replace, array_to_string, array_fill,
 * containment (@> <@ &&), concatenation (||), comparison; plus arraySubscript / arraySlice helpers for
 * the executor's subscript syntax. unnest and generate_subscripts live in set-returning-functions.ts.
 * @see https://www.postgresql.org/docs/15/functions-array.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid, type SqlType } from '../common/pgtypes/oids.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';
import { isPgArray, type PgArray } from '../common/pgtypes/values.ts';
import type { EvalContext, OperatorDef, RoutineDef, ScalarFunctionDef } from './registry-types.ts';
import { textOutput } from './text-io.ts';
import { compareValues } from './compare-values.ts';
import { textOut } from '../common/pgtypes/index.ts';

const { int4: INT4, text: TEXT, bool: BOOL, anyarray: ANYARRAY, anyelement: ANYELEMENT, anycompatible: ANYC, anycompatiblearray: ANYCA, _int4: INT4ARR } = Oid;

export function makeArray(elementOid: number, dims: readonly number[], lowerBounds: readonly number[], values: readonly unknown[]): PgArray {
  if (values.length === 0) return { kind: 'array', elementOid, dims: [], lowerBounds: [], values: [] };
  return { kind: 'array', elementOid, dims, lowerBounds, values };
}

function oneDim(elementOid: number, values: readonly unknown[], lower = 1): PgArray {
  return makeArray(elementOid, [values.length], [lower], values);
}

function elemOf(t: SqlType | undefined, fallback: number): number {
  return (t && elementTypeOf(t.oid)) || fallback;
}

function elementsEqual(elementOid: number, a: unknown, b: unknown): boolean {
  if (a === null || b === null) return false;
  return compareValues(elementOid, a, b) === 0;
}

// ---- subscripts -------------------------------------------------------------------------------------

/** arr[i][j]...: NULL when out of range or when the subscript count differs from the array's dimensions. */
export function arraySubscript(arr: PgArray, indexes: readonly number[]): unknown {
  if (indexes.length !== arr.dims.length || arr.dims.length === 0) return null;
  let offset = 0;
  for (let d = 0; d < indexes.length; d++) {
    const i = indexes[d]! - arr.lowerBounds[d]!;
    if (i < 0 || i >= arr.dims[d]!) return null;
    offset = offset * arr.dims[d]! + i;
  }
  return arr.values[offset] ?? null;
}

/** arr[l1:u1][l2:u2]...: a null bound means the dimension's own bound; the result is 1-based. */
export function arraySlice(arr: PgArray, lowers: readonly (number | null)[], uppers: readonly (number | null)[]): PgArray {
  const nd = arr.dims.length;
  if (nd === 0 || lowers.length > nd) return makeArray(arr.elementOid, [], [], []);
  const lo: number[] = [], hi: number[] = [];
  for (let d = 0; d < nd; d++) {
    const lb = arr.lowerBounds[d]!, ub = lb + arr.dims[d]! - 1;
    lo.push(Math.max(d < lowers.length ? (lowers[d] ?? lb) : lb, lb));
    hi.push(Math.min(d < uppers.length ? (uppers[d] ?? ub) : ub, ub));
    if (lo[d]! > hi[d]!) return makeArray(arr.elementOid, [], [], []);
  }
  const dims = lo.map((l, d) => hi[d]! - l + 1);
  const out: unknown[] = [];
  const idx = [...lo];
  for (;;) {
    out.push(arraySubscript(arr, idx));
    let d = nd - 1;
    while (d >= 0 && idx[d] === hi[d]) { idx[d] = lo[d]!; d--; }
    if (d < 0) break;
    idx[d]!++;
  }
  return makeArray(arr.elementOid, dims, dims.map(() => 1), out);
}

// ---- scalar functions -------------------------------------------------------------------------------

function dimLength(a: PgArray, dim: number): number | null {
  return dim >= 1 && dim <= a.dims.length ? a.dims[dim - 1]! : null;
}

function arrayDims(a: PgArray): string | null {
  if (a.dims.length === 0) return null;
  return a.dims.map((n, d) => `[${a.lowerBounds[d]}:${a.lowerBounds[d]! + n - 1}]`).join('');
}

function requireOneDim(a: PgArray, what: string): void {
  if (a.dims.length > 1) throw pgError(SqlState.feature_not_supported, `${what} in multidimensional arrays is not supported`);
}

function append(a: PgArray | null, e: unknown, elementOid: number): PgArray {
  if (a === null || a.dims.length === 0) return oneDim(elementOid, [e]);
  if (a.dims.length !== 1) throw pgError(SqlState.data_exception, 'argument must be empty or one-dimensional array');
  return makeArray(a.elementOid, [a.dims[0]! + 1], a.lowerBounds, [...a.values, e]);
}

function prepend(e: unknown, a: PgArray | null, elementOid: number): PgArray {
  if (a === null || a.dims.length === 0) return oneDim(elementOid, [e]);
  if (a.dims.length !== 1) throw pgError(SqlState.data_exception, 'argument must be empty or one-dimensional array');
  return makeArray(a.elementOid, [a.dims[0]! + 1], a.lowerBounds, [e, ...a.values]);
}

/** array_cat: same dimensions stack along the first; N-1 dimensional arrays append as one slice. */
export function arrayCat(a: PgArray | null, b: PgArray | null): PgArray | null {
  if (a === null || a.dims.length === 0) return b;
  if (b === null || b.dims.length === 0) return a;
  const incompatible = (detail: string): Error => pgError(SqlState.array_subscript_error, 'cannot concatenate incompatible arrays', { detail });
  if (a.dims.length === b.dims.length) {
    for (let d = 1; d < a.dims.length; d++) {
      if (a.dims[d] !== b.dims[d]) throw incompatible('Arrays with differing element dimensions are not compatible for concatenation.');
    }
    return makeArray(a.elementOid, [a.dims[0]! + b.dims[0]!, ...a.dims.slice(1)], a.lowerBounds, [...a.values, ...b.values]);
  }
  if (a.dims.length === b.dims.length + 1) {
    if (a.dims.slice(1).some((n, d) => n !== b.dims[d])) throw incompatible('Arrays with differing dimensions are not compatible for concatenation.');
    return makeArray(a.elementOid, [a.dims[0]! + 1, ...a.dims.slice(1)], a.lowerBounds, [...a.values, ...b.values]);
  }
  if (b.dims.length === a.dims.length + 1) {
    if (b.dims.slice(1).some((n, d) => n !== a.dims[d])) throw incompatible('Arrays with differing dimensions are not compatible for concatenation.');
    return makeArray(b.elementOid, [b.dims[0]! + 1, ...b.dims.slice(1)], b.lowerBounds, [...a.values, ...b.values]);
  }
  throw incompatible(`Arrays of ${a.dims.length} and ${b.dims.length} dimensions are not compatible for concatenation.`);
}

function position(a: PgArray, e: unknown, start: number | null): number | null {
  requireOneDim(a, 'searching for elements');
  if (a.dims.length === 0) return null;
  const lb = a.lowerBounds[0]!;
  const from = start === null ? 0 : Math.max(0, start - lb);
  for (let i = from; i < a.values.length; i++) {
    const v = a.values[i];
    if (e === null ? v === null : elementsEqual(a.elementOid, v, e)) return i + lb;
  }
  return null;
}

function positions(a: PgArray, e: unknown): PgArray {
  requireOneDim(a, 'searching for elements');
  const out: number[] = [];
  const lb = a.lowerBounds[0] ?? 1;
  a.values.forEach((v, i) => { if (e === null ? v === null : elementsEqual(a.elementOid, v, e)) out.push(i + lb); });
  return makeArray(INT4, [out.length], [1], out);
}

function remove(a: PgArray, e: unknown): PgArray {
  if (a.dims.length > 1) throw pgError(SqlState.feature_not_supported, 'removing elements from multidimensional arrays is not supported');
  const kept = a.values.filter((v) => !(e === null ? v === null : elementsEqual(a.elementOid, v, e)));
  return kept.length === a.values.length ? a : makeArray(a.elementOid, [kept.length], a.lowerBounds, kept);
}

function replace(a: PgArray, from: unknown, to: unknown): PgArray {
  const values = a.values.map((v) => ((from === null ? v === null : elementsEqual(a.elementOid, v, from)) ? to : v));
  return makeArray(a.elementOid, a.dims, a.lowerBounds, values);
}

/** An element's text form, as the element type's output function writes it. */
export function elementText(elementOid: number, v: unknown, ctx?: EvalContext): string {
  return ctx === undefined ? textOut(elementOid, v) : textOutput(elementOid, v, ctx);
}

function arrayToString(a: PgArray, delim: string, nullString: string | null, ctx: EvalContext): string {
  const parts: string[] = [];
  for (const v of a.values) {
    if (v === null) { if (nullString !== null) parts.push(nullString); }
    else parts.push(elementText(a.elementOid, v, ctx));
  }
  return parts.join(delim);
}

function arrayFill(value: unknown, dimsArr: PgArray | null, lbArr: PgArray | null, elementOid: number): PgArray {
  if (dimsArr === null) {
    throw pgError(SqlState.null_value_not_allowed, 'dimension array or low bound array cannot be null');
  }
  if (dimsArr.dims.length > 1) throw pgError(SqlState.array_subscript_error, 'wrong number of array subscripts', { detail: 'Dimension array must be one dimensional.' });
  if (dimsArr.values.some((v) => v === null)) throw pgError(SqlState.null_value_not_allowed, 'dimension values cannot be null');
  const dims = dimsArr.values as number[];
  let lbs = dims.map(() => 1);
  if (lbArr !== null) {
    if (lbArr.values.length !== dims.length) throw pgError(SqlState.array_subscript_error, 'wrong number of array subscripts', { detail: 'Low bound array has different size than dimensions array.' });
    if (lbArr.values.some((v) => v === null)) throw pgError(SqlState.null_value_not_allowed, 'dimension values cannot be null');
    lbs = lbArr.values as number[];
  }
  if (dims.length === 0) return makeArray(elementOid, [], [], []);
  const total = dims.reduce((x, y) => x * Math.max(y, 0), 1);
  if (total === 0) return makeArray(elementOid, [], [], []);
  return makeArray(elementOid, dims, lbs, new Array<unknown>(total).fill(value));
}

type Impl = ScalarFunctionDef['impl'];
const fn = (name: string, args: number[], returns: number, impl: Impl, extra: Partial<ScalarFunctionDef> = {}): ScalarFunctionDef =>
  ({ kind: 'scalar', name, args, returns, impl, volatility: 'i', ...extra });
const A = (v: unknown): PgArray => v as PgArray;

export const arrayFunctions: readonly RoutineDef[] = [
  fn('array_length', [ANYARRAY, INT4], INT4, (a) => dimLength(A(a[0]), a[1] as number), { oid: 2176 }),
  fn('array_upper', [ANYARRAY, INT4], INT4, (a) => { const d = a[1] as number, x = A(a[0]); const n = dimLength(x, d); return n === null ? null : x.lowerBounds[d - 1]! + n - 1; }, { oid: 2092 }),
  fn('array_lower', [ANYARRAY, INT4], INT4, (a) => { const d = a[1] as number, x = A(a[0]); return dimLength(x, d) === null ? null : x.lowerBounds[d - 1]!; }, { oid: 2091 }),
  fn('array_ndims', [ANYARRAY], INT4, (a) => (A(a[0]).dims.length === 0 ? null : A(a[0]).dims.length), { oid: 748 }),
  fn('array_dims', [ANYARRAY], TEXT, (a) => arrayDims(A(a[0])), { oid: 747 }),
  fn('cardinality', [ANYARRAY], INT4, (a) => A(a[0]).values.length, { oid: 3179 }),
  fn('array_append', [ANYCA, ANYC], ANYCA, (a, _c, _t, rt) => append(a[0] as PgArray | null, a[1], elemOf(rt, INT4)), { strict: false, oid: 378 }),
  fn('array_prepend', [ANYC, ANYCA], ANYCA, (a, _c, _t, rt) => prepend(a[0], a[1] as PgArray | null, elemOf(rt, INT4)), { strict: false, oid: 379 }),
  fn('array_cat', [ANYCA, ANYCA], ANYCA, (a) => arrayCat(a[0] as PgArray | null, a[1] as PgArray | null), { strict: false, oid: 383 }),
  fn('array_position', [ANYCA, ANYC], INT4, (a) => (a[0] === null ? null : position(A(a[0]), a[1], null)), { strict: false, oid: 3277 }),
  fn('array_position', [ANYCA, ANYC, INT4], INT4, (a) => {
    if (a[0] === null) return null;
    if (a[2] === null) throw pgError(SqlState.null_value_not_allowed, 'initial position must not be null');
    return position(A(a[0]), a[1], a[2] as number);
  }, { strict: false, oid: 3278 }),
  fn('array_positions', [ANYCA, ANYC], INT4ARR, (a) => (a[0] === null ? null : positions(A(a[0]), a[1])), { strict: false, oid: 3279 }),
  fn('array_remove', [ANYCA, ANYC], ANYCA, (a) => (a[0] === null ? null : remove(A(a[0]), a[1])), { strict: false, oid: 3167 }),
  fn('array_replace', [ANYCA, ANYC, ANYC], ANYCA, (a) => (a[0] === null ? null : replace(A(a[0]), a[1], a[2])), { strict: false, oid: 3168 }),
  fn('array_to_string', [ANYARRAY, TEXT], TEXT, (a, ctx) => arrayToString(A(a[0]), a[1] as string, null, ctx), { oid: 395 }),
  fn('array_to_string', [ANYARRAY, TEXT, TEXT], TEXT, (a, ctx) => (a[0] === null || a[1] === null ? null : arrayToString(A(a[0]), a[1] as string, a[2] as string | null, ctx)), { strict: false, oid: 384 }),
  fn('array_fill', [ANYELEMENT, INT4ARR], ANYARRAY, (a, _c, t) => arrayFill(a[0], a[1] as PgArray | null, null, t[0]?.oid ?? INT4), { strict: false, oid: 1193 }),
  fn('array_fill', [ANYELEMENT, INT4ARR, INT4ARR], ANYARRAY, (a, _c, t) => {
    if (a[1] === null || a[2] === null) throw pgError(SqlState.null_value_not_allowed, 'dimension array or low bound array cannot be null');
    return arrayFill(a[0], a[1] as PgArray, a[2] as PgArray, t[0]?.oid ?? INT4);
  }, { strict: false, oid: 1286 }),
];

// ---- operators --------------------------------------------------------------------------------------

/** arraycontained-style test: every non-null element of `inner` equals some element of `outer`; NULLs never match. */
export function arrayContains(outer: PgArray, inner: PgArray): boolean {
  for (const v of inner.values) {
    if (v === null) return false;
    if (!outer.values.some((w) => elementsEqual(outer.elementOid, w, v))) return false;
  }
  return true;
}

export function arrayOverlaps(a: PgArray, b: PgArray): boolean {
  return a.values.some((v) => v !== null && b.values.some((w) => elementsEqual(a.elementOid, v, w)));
}

const cmp = (l: unknown, r: unknown, lt: SqlType): number => compareValues(lt.oid, l, r);
const op = (name: string, left: number, right: number, returns: number, impl: OperatorDef['impl'], procName: string, oid: number, extra: Partial<OperatorDef> = {}): OperatorDef =>
  ({ name, left, right, returns, impl, procName, oid, ...extra });

export const arrayOperators: readonly OperatorDef[] = [
  op('@>', ANYARRAY, ANYARRAY, BOOL, (l, r) => arrayContains(A(l), A(r)), 'arraycontains', 2751, { commutator: '<@' }),
  op('<@', ANYARRAY, ANYARRAY, BOOL, (l, r) => arrayContains(A(r), A(l)), 'arraycontained', 2752, { commutator: '@>' }),
  op('&&', ANYARRAY, ANYARRAY, BOOL, (l, r) => arrayOverlaps(A(l), A(r)), 'arrayoverlap', 2750, { commutator: '&&' }),
  op('=', ANYARRAY, ANYARRAY, BOOL, (l, r, _c, lt) => cmp(l, r, lt) === 0, 'array_eq', 1070, { commutator: '=', negator: '<>' }),
  op('<>', ANYARRAY, ANYARRAY, BOOL, (l, r, _c, lt) => cmp(l, r, lt) !== 0, 'array_ne', 1071, { commutator: '<>', negator: '=' }),
  op('<', ANYARRAY, ANYARRAY, BOOL, (l, r, _c, lt) => cmp(l, r, lt) < 0, 'array_lt', 1072, { commutator: '>', negator: '>=' }),
  op('>', ANYARRAY, ANYARRAY, BOOL, (l, r, _c, lt) => cmp(l, r, lt) > 0, 'array_gt', 1073, { commutator: '<', negator: '<=' }),
  op('<=', ANYARRAY, ANYARRAY, BOOL, (l, r, _c, lt) => cmp(l, r, lt) <= 0, 'array_le', 1074, { commutator: '>=', negator: '>' }),
  op('>=', ANYARRAY, ANYARRAY, BOOL, (l, r, _c, lt) => cmp(l, r, lt) >= 0, 'array_ge', 1075, { commutator: '<=', negator: '<' }),
  // array_cat / array_append / array_prepend are not strict: a NULL array is treated as empty
  op('||', ANYCA, ANYCA, ANYCA, (l, r) => (l === null && r === null ? null : arrayCat(l as PgArray | null, r as PgArray | null)), 'array_cat', 375, { strict: false }),
  op('||', ANYCA, ANYC, ANYCA, (l, r, _c, lt) => append(l as PgArray | null, r, elemOf(lt, (l as PgArray | null)?.elementOid ?? 0)), 'array_append', 349, { strict: false }),
  op('||', ANYC, ANYCA, ANYCA, (l, r, _c, _lt, rt) => prepend(l, r as PgArray | null, elemOf(rt, (r as PgArray | null)?.elementOid ?? 0)), 'array_prepend', 374, { strict: false }),
];

export { isPgArray };
