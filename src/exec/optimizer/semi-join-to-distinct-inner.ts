/**
 * semi_join_to_distinct_inner: a semi join whose right input is much smaller than its left becomes an inner
 * join with the right input's distinct keys — PostgreSQL's "unique-ified inner" path for semi joins
 * (JOIN_UNIQUE_INNER). TPC-H Q20's `ps_partkey IN (SELECT p_partkey FROM part WHERE p_name LIKE 'forest%')`
 * and Q18's `o_orderkey IN (SELECT l_orderkey … HAVING sum(l_quantity) > 300)` keep a hash table of the few
 * keys and stream the whole big side through it; as an inner join, choose_build_side builds those keys on the
 * left and hands them to the big side's scan as a runtime key filter, so the scan materializes only matching rows.
 *
 * Exact when the condition is a conjunction of `l = r` with `l` reading only the left input and `r` only the
 * right, over one type whose `=` is the identity DISTINCT uses (integers, date): a left row then matches at
 * most one distinct right key tuple, and it matches one iff some right row makes every `=` TRUE — the semi
 * join's test. NULL keys match nothing either way. A Projection keeps the left columns only.
 * Runs before choose_build_side (which makes the swap) and only where the estimates (row-estimate.ts) say the
 * right side is at most a quarter of the left; semi joins that will build their (small) left input stay.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { conjunctsOf, someExpr, type Expr, type Join, type LogicalPlan, type OpExpr } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { shiftColumns, transformPlanUp } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';

export const semiJoinToDistinctInner: OptimizerRule = {
  name: 'semi_join_to_distinct_inner',
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === 'Join' ? rewrite(p) ?? p : p)),
};

/** the left input must be at least this big, and this many times the right, for the runtime filter to pay */
const MIN_LEFT_ROWS = 1000;
const MIN_RATIO = 4;

/** types whose `=` agrees with DISTINCT's notion of "the same value" (no collations, scales or -0/NaN) */
const IDENTITY_EQ_TYPES: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8, Oid.date]);


/** columns of this level an expression reads; null when it may not be moved (subquery, outer or volatile) */
function columnsRead(e: Expr): number[] | null {
  const out: number[] = [];
  const bad = someExpr(e, (x) => {
    if (x.kind === 'ColumnRef') {
      if (x.levelsUp !== 0) return true;
      out.push(x.index);
    }
    return x.kind === 'Subquery' || x.kind === 'Aggregate' || x.kind === 'WindowFunc' || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v');
  });
  return bad ? null : out;
}

interface KeyPair {
  readonly op: OpExpr;
  /** reads the left input only */
  readonly left: Expr;
  /** reads the right input only (still over the join's row) */
  readonly right: Expr;
  readonly leftFirst: boolean;
}

function keyPair(c: Expr, lw: number): KeyPair | null {
  if (c.kind !== 'Op' || c.name !== '=' || c.left === null || c.type.oid !== Oid.bool) return null;
  if (c.leftType === null || c.leftType.oid !== c.rightType.oid || !IDENTITY_EQ_TYPES.has(c.rightType.oid)) return null;
  const a = columnsRead(c.left);
  const b = columnsRead(c.right);
  if (a === null || b === null) return null;
  const onlyLeft = (cols: number[]): boolean => cols.every((i) => i < lw);
  const onlyRight = (cols: number[]): boolean => cols.length > 0 && cols.every((i) => i >= lw);
  if (onlyLeft(a) && onlyRight(b)) return { op: c, left: c.left, right: c.right, leftFirst: true };
  if (onlyRight(a) && onlyLeft(b)) return { op: c, left: c.right, right: c.left, leftFirst: false };
  return null;
}


/** the inner join over the right input's distinct keys, or null when the rewrite does not apply or pay */
export function rewrite(j: Join): LogicalPlan | null {
  if (j.joinType !== 'semi' || j.lateral || j.condition === null || j.buildSide === 'left') return null;
  const lw = j.left.columns.length;
  const pairs = conjunctsOf(j.condition).map((c) => keyPair(c, lw));
  if (pairs.length === 0 || pairs.some((p) => p === null)) return null;
  const l = estimate(j.left);
  const r = estimate(j.right);
  if (l === undefined || r === undefined || l.rows < MIN_LEFT_ROWS || r.rows * MIN_RATIO > l.rows) return null;
  const keys = pairs as KeyPair[];
  const keyExprs = keys.map((k) => shiftColumns(k.right, -lw));
  const projected: LogicalPlan = {
    kind: 'Projection',
    input: j.right,
    exprs: keyExprs,
    columns: keyExprs.map((e, i) => ({ name: e.kind === 'ColumnRef' ? e.name : `key${i + 1}`, type: e.type })),
  };
  const distinct: LogicalPlan = { kind: 'Distinct', input: projected, on: null, columns: projected.columns };
  const condArgs: Expr[] = keys.map((k, i) => {
    const ref: Expr = { kind: 'ColumnRef', index: lw + i, levelsUp: 0, type: keyExprs[i]!.type, name: distinct.columns[i]!.name };
    return k.leftFirst ? { ...k.op, left: k.left, right: ref } : { ...k.op, left: ref, right: k.left };
  });
  const condition: Expr = condArgs.length === 1 ? condArgs[0]! : { kind: 'BoolOp', op: 'and', args: condArgs, type: j.condition.type };
  const inner: Join = { kind: 'Join', joinType: 'inner', left: j.left, right: distinct, condition, lateral: false, columns: [...j.left.columns, ...distinct.columns] };
  return {
    kind: 'Projection',
    input: inner,
    exprs: j.left.columns.map((c, i) => ({ kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name })),
    columns: j.columns,
  };
}
