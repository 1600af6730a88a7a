/**
 * `x = ANY(<constant array>)` over a long array as one hash-set probe per row instead of one `=` call per
 * element: the runtime key filter (runtime-key-filter.ts) hands a hash join's built keys — hundreds of part
 * keys at TPC-H SF 1 — to the right side's scan this way, also inside the scan workers. Only for the types
 * whose valueKey() equality is their `=` (integers, date, text, varchar, bpchar, numeric); NULL semantics as
 * ANY's: a NULL x gives NULL, a miss gives NULL when the array holds a NULL, else false.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { isPgArray } from '../common/pgtypes/values.ts';
import { valueKey } from '../functions/index.ts';
import type { Expr } from '../sql/index.ts';
import type { Cols, RowFn } from './expr/compile-expr.ts';

const HASHABLE = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.date, Oid.text, Oid.varchar, Oid.bpchar, Oid.numeric]);
const INTS = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);
/** shorter arrays keep the element loop (the same answers; not worth a set) */
const MIN_ELEMENTS = 16;

/** the row function of `e`, or null when it is not a long constant `= ANY` over a hashable type */
export function hashedAnyEq(e: Expr, compile: (x: Expr) => RowFn): RowFn | null {
  if (e.kind !== 'ScalarArrayOp' || !e.useOr || e.op.name !== '=' || e.op.left === null || e.op.leftType === null) return null;
  const arr = e.op.right;
  const lt = e.op.leftType.oid;
  const rt = e.op.rightType.oid;
  if (arr.kind !== 'Literal' || !HASHABLE.has(lt) || !(lt === rt || (INTS.has(lt) && INTS.has(rt)))) return null;
  const values = Array.isArray(arr.value) ? (arr.value as unknown[]) : isPgArray(arr.value) ? arr.value.values : null;
  if (values === null || values.length < MIN_ELEMENTS) return null;
  const set = new Set<unknown>();
  let sawNull = false;
  for (const v of values) {
    if (v === null || v === undefined) sawNull = true;
    else set.add(valueKey(rt, v));
  }
  const l = compile(e.op.left);
  return (cols: Cols, i: number) => {
    const v = l(cols, i);
    if (v === null || v === undefined) return null;
    return set.has(valueKey(lt, v)) ? true : sawNull ? null : false;
  };
}
