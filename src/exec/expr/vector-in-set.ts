/**
 * `x = ANY (constant array)` (IN list) and `x <> ALL (constant array)` (NOT IN list) for the vector kernel
 * (vector-row-kernels.ts scalarArrayOpKernel): one Set probe per row instead of one `=` call per element
 * (TPC-H q22's `substring(c_phone from 1 for 2) in ('13', '31', …)`, q16's size and brand lists). Only for
 * types whose valueKey() equality is their `=` (the types of exec/in-list-set.ts); NULL semantics as ANY/ALL:
 * a hit decides, a miss is NULL when the array holds a NULL.
 * @see https://www.postgresql.org/docs/15/functions-comparisons.html#id-1.5.8.30.16
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { valueKey } from '../../functions/index.ts';
import type { Expr } from '../../sql/index.ts';

const HASHABLE = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.date, Oid.text, Oid.varchar, Oid.bpchar, Oid.numeric]);
const INTS = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);

/** the answer for one non-NULL left value, or null when `e` is not a hashable IN / NOT IN list */
export function anyEqSet(e: Extract<Expr, { kind: 'ScalarArrayOp' }>, values: readonly unknown[]): ((x: unknown) => boolean | null) | null {
  const { name, leftType, rightType } = e.op;
  const inList = e.useOr && name === '=';
  const notInList = !e.useOr && name === '<>';
  if ((!inList && !notInList) || leftType === null || values.length < 2) return null;
  const lt = leftType.oid, rt = rightType.oid;
  if (!HASHABLE.has(lt) || !(lt === rt || (INTS.has(lt) && INTS.has(rt)))) return null;
  const set = new Set<unknown>();
  let sawNull = false;
  for (const v of values) {
    if (v === null || v === undefined) sawNull = true;
    else set.add(valueKey(rt, v));
  }
  const miss = sawNull ? null : !inList;
  return (x) => (set.has(valueKey(lt, x)) ? inList : miss);
}
