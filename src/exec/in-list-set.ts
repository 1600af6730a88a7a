/**
 * `x = ANY(<constant array>)` (IN list) and `x <> ALL(<constant array>)` (NOT IN list) as one hash-set probe per
 * row instead of one operator call per element: the runtime key filter (runtime-key-filter.ts) hands a hash
 * join's built keys — hundreds of part keys at TPC-H SF 1 — to the right side's scan this way, also inside the
 * scan workers, and the vector kernel (expr/vector-row-kernels.ts) probes short lists such as TPC-H q22's
 * `substring(c_phone from 1 for 2) in ('13', '31', …)` the same way. Only for the types whose valueKey()
 * equality is their `=` (integers, date, text, varchar, bpchar, numeric); NULL semantics as ANY / ALL: a NULL x
 * gives NULL, a hit decides, a miss gives NULL when the array holds a NULL.
 * @see https://www.postgresql.org/docs/15/functions-comparisons.html#id-1.5.8.30.16
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { isPgArray } from '../common/pgtypes/values.ts';
import { valueKey } from '../functions/index.ts';
import { intKeyListRepr } from '../iceberg/scan/int-key-list.ts';
import type { Expr } from '../sql/index.ts';
import type { Cols, RowFn } from './expr/compile-expr.ts';

const HASHABLE = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.date, Oid.text, Oid.varchar, Oid.bpchar, Oid.numeric]);
const INTS = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);
/** shorter arrays keep the element loop (the same answers; not worth a set) */
const MIN_ELEMENTS = 16;

type ScalarArrayOp = Extract<Expr, { kind: 'ScalarArrayOp' }>;

/**
 * the sets of integer key lists (iceberg/scan/int-key-list.ts: marked arrays never change); valueKey of an integer
 * does not depend on its type, so one set serves every operand type
 */
const keySets = new WeakMap<readonly unknown[], ReadonlySet<unknown>>();

/**
 * the answer of `e` for one non-NULL left value, or null when `e` is not an IN / NOT IN list of a hashable type
 * with at least `minElements` elements
 */
export function anyEqSet(e: ScalarArrayOp, values: readonly unknown[], minElements = 2): ((x: unknown) => boolean | null) | null {
  const { name, leftType, rightType } = e.op;
  const inList = e.useOr && name === '=';
  if ((!inList && !(!e.useOr && name === '<>')) || leftType === null || values.length < minElements) return null;
  const lt = leftType.oid, rt = rightType.oid;
  if (!HASHABLE.has(lt) || !(lt === rt || (INTS.has(lt) && INTS.has(rt)))) return null;
  let set = keySets.get(values);
  let sawNull = false;
  if (set === undefined) {
    const built = new Set<unknown>();
    for (const v of values) {
      if (v === null || v === undefined) sawNull = true;
      else built.add(valueKey(rt, v));
    }
    set = built;
    // a runtime key filter's list (integers, no NULL; the same array for every task of a scan worker and every run
    // of the query: iceberg/parallel/key-list-wire.ts): its set is kept on the array, not rebuilt per Filter compile
    if (intKeyListRepr(values) !== undefined) keySets.set(values, set);
  }
  const miss = sawNull ? null : !inList;
  return (x) => (set.has(valueKey(lt, x)) ? inList : miss);
}

/** the row function of `e`, or null when it is not a long constant `= ANY` list over a hashable type */
export function hashedAnyEq(e: Expr, compile: (x: Expr) => RowFn): RowFn | null {
  if (e.kind !== 'ScalarArrayOp' || !e.useOr || e.op.left === null) return null;
  const arr = e.op.right;
  if (arr.kind !== 'Literal') return null;
  const values = Array.isArray(arr.value) ? (arr.value as unknown[]) : isPgArray(arr.value) ? arr.value.values : null;
  const probe = values === null ? null : anyEqSet(e, values, MIN_ELEMENTS);
  if (probe === null) return null;
  const l = compile(e.op.left);
  return (cols: Cols, i: number) => {
    const v = l(cols, i);
    return v === null || v === undefined ? null : probe(v);
  };
}
