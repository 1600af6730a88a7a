/**
 * WHERE → plan, with two rewrites PostgreSQL's planner makes before anything else (prepqual.c,
 * subselect.c), so that TPC-H-shaped queries do not run a subquery per row or a cross join:
 *
 * - OR arms that share conjuncts have them pulled out (process_duplicate_ors):
 *   `(a AND b) OR (a AND c)` → `a AND (b OR c)`, which exposes join keys written inside every arm (Q19).
 * - Correlated subqueries in top-level conjuncts become joins (convert_EXISTS_sublink_to_join and the
 *   aggregate pull-up): `[NOT] EXISTS (SELECT … WHERE corr AND local)` → a semi (anti) join on `corr`, and
 *   `(SELECT agg(…) FROM x WHERE inner = outer AND local)` → a left join with x grouped by `inner`. Only
 *   aggregates that give NULL over no rows qualify (not count), so an unmatched outer row sees exactly what
 *   the subquery would have returned. Anything else is left to the per-row subquery runner.
 *
 * The result has the input's columns (a Projection drops the joined aggregate columns).
 * One difference remains with the per-row form: an aggregate's argument is now evaluated for every group of
 * x, also groups no outer row asks for, so an error there (division by zero) surfaces where PostgreSQL, which
 * keeps such subqueries as SubPlans, would not raise it.
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { andOf, conjunctsOf, exprEquals, someExpr, transformExpr, type BoolOpExpr, type ColumnRefExpr, type Expr, type OpExpr, type SubqueryExpr } from '../logical/expr.ts';
import type { Aggregate, Filter, LogicalPlan, Projection } from '../logical/plan.ts';
import type { PlanColumn } from '../logical/plan-column.ts';
import { mapExprDeep, mapPlanExprs } from '../logical/tree.ts';

/** the plan of `input WHERE predicate` */
export function planWhere(input: LogicalPlan, predicate: Expr): LogicalPlan {
  const conjuncts = conjunctsOf(factorOrs(predicate));
  const plain: Expr[] = [];
  const withSubquery: Expr[] = [];
  for (const c of conjuncts) (hasCorrelatedSubquery(c) ? withSubquery : plain).push(c);
  if (withSubquery.length === 0) return { kind: 'Filter', input, predicate: andOf(conjuncts), columns: input.columns };

  let plan: LogicalPlan = plain.length === 0 ? input : { kind: 'Filter', input, predicate: andOf(plain), columns: input.columns };
  const rest: Expr[] = [];
  for (const c of withSubquery) {
    const negated = c.kind === 'BoolOp' && c.op === 'not' && c.args[0]?.kind === 'Subquery';
    const sub = negated ? (c as BoolOpExpr).args[0] as SubqueryExpr : c;
    if (sub.kind === 'Subquery' && sub.subKind === 'exists') {
      const joined = existsJoin(plan, sub, negated);
      if (joined !== null) {
        plan = joined;
        continue;
      }
    }
    rest.push(c);
  }
  const rewritten = rest.map((c) => transformExpr(c, (x) => {
    if (x.kind !== 'Subquery' || x.subKind !== 'scalar' || !x.correlated) return undefined;
    const joined = scalarAggregateJoin(plan, x);
    if (joined === null) return x;
    plan = joined.plan;
    return joined.value;
  }));
  if (rewritten.length > 0) plan = { kind: 'Filter', input: plan, predicate: andOf(rewritten), columns: plan.columns };
  if (plan.columns.length === input.columns.length) return plan;
  return { kind: 'Projection', input: plan, exprs: input.columns.map((c, i) => colRef(i, c, 0)), columns: input.columns };
}



function colRef(index: number, c: { readonly name: string; readonly type: SqlType }, levelsUp: number): ColumnRefExpr {
  return { kind: 'ColumnRef', index, levelsUp, type: c.type, name: c.name };
}

/** process_duplicate_ors, bottom-up: conjuncts every OR arm has are pulled in front of the OR */
function factorOrs(e: Expr): Expr {
  return transformExpr(e, (x) => {
    if (x.kind !== 'BoolOp' || x.op !== 'or') return undefined;
    const arms = x.args.map((a) => conjunctsOf(factorOrs(a)));
    const common = arms[0]!.filter((c) => arms.every((arm) => arm.some((d) => exprEquals(c, d))));
    if (common.length === 0) return { ...x, args: arms.map(andOf) };
    const left = arms.map((arm) => arm.filter((d) => !common.some((c) => exprEquals(c, d))));
    // an arm left empty is implied by the common part: (a) OR (a AND b) = a
    if (left.some((arm) => arm.length === 0)) return andOf(common);
    return andOf([...common, { ...x, args: left.map(andOf) }]);
  });
}

function hasCorrelatedSubquery(e: Expr): boolean {
  return someExpr(e, (x) => x.kind === 'Subquery' && x.correlated);
}

/**
 * true when `e` (at query depth 0) reaches a query level at or above `level` counted from its own:
 * level 1 = the query the WHERE belongs to, as seen from inside a subquery
 */
function reaches(e: Expr, level: number): boolean {
  let found = false;
  mapExprDeep(e, (x, depth) => {
    if (x.kind === 'ColumnRef' && x.levelsUp - depth >= level) found = true;
    return undefined;
  }, 0);
  return found;
}

/** true when a plan reads no row of an enclosing query */
function selfContained(p: LogicalPlan): boolean {
  let found = false;
  mapPlanExprs(p, (x, depth) => {
    if (x.kind === 'ColumnRef' && x.levelsUp > depth) found = true;
    return undefined;
  });
  return found === false;
}

interface Split {
  /** conjuncts over the subquery's row and the outer row (level 1 only, no subqueries) */
  readonly corr: Expr[];
  /** the subquery's input with its uncorrelated conjuncts applied */
  readonly input: LogicalPlan;
}

/** WHERE of a subquery block (Filter over a self-contained FROM) split into correlated / local conjuncts */
function splitFilter(f: LogicalPlan): Split | null {
  if (f.kind !== 'Filter' || !selfContained(f.input)) return null;
  const corr: Expr[] = [];
  const local: Expr[] = [];
  for (const c of conjunctsOf(f.predicate)) {
    if (!reaches(c, 1)) local.push(c);
    else if (!reaches(c, 2) && !someExpr(c, (x) => x.kind === 'Subquery')) corr.push(c);
    else return null;
  }
  if (corr.length === 0) return null;
  const input: LogicalPlan = local.length === 0 ? f.input : { kind: 'Filter', input: f.input, predicate: andOf(local), columns: f.input.columns } satisfies Filter;
  return { corr, input };
}

/** a correlated conjunct moved into a join condition: outer refs → left columns, inner refs → right columns */
function toJoinCondition(e: Expr, leftWidth: number): Expr {
  return transformExpr(e, (x) => {
    if (x.kind !== 'ColumnRef') return undefined;
    return x.levelsUp === 1 ? { ...x, levelsUp: 0 } : { ...x, index: x.index + leftWidth };
  });
}

/** [NOT] EXISTS (SELECT … FROM x WHERE corr AND local) → left semi (anti) join x' ON corr */
function existsJoin(left: LogicalPlan, sub: SubqueryExpr, negated: boolean): LogicalPlan | null {
  const body = sub.plan.kind === 'Projection' ? sub.plan.input : sub.plan;
  const split = splitFilter(body);
  if (split === null) return null;
  const w = left.columns.length;
  return {
    kind: 'Join', joinType: negated ? 'anti' : 'semi', left, right: split.input,
    condition: andOf(split.corr.map((c) => toJoinCondition(c, w))), lateral: false, columns: left.columns,
  };
}

/** aggregates whose value over no rows is NULL: a left join's NULLs then equal the subquery's answer */
const NOT_NULL_ON_EMPTY = new Set(['count', 'regr_count']);

/**
 * (SELECT f(agg(…)) FROM x WHERE inner_1 = outer_1 AND … AND local) →
 * left ⟕ (SELECT inner_1, …, f(agg(…)) FROM x WHERE local GROUP BY inner_1, …) ON inner_i = outer_i
 */
function scalarAggregateJoin(left: LogicalPlan, sub: SubqueryExpr): { plan: LogicalPlan; value: Expr } | null {
  const proj = sub.plan;
  if (proj.kind !== 'Projection' || proj.exprs.length !== 1) return null;
  const agg = proj.input;
  if (agg.kind !== 'Aggregate' || agg.groupKeys.length !== 0 || agg.groupingSets !== null) return null;
  if (agg.aggregates.some((a) => NOT_NULL_ON_EMPTY.has(a.name) || reaches(a, 1))) return null;
  if (proj.exprs.some((e) => reaches(e, 1) || someExpr(e, (x) => x.kind === 'Subquery'))) return null;
  const split = splitFilter(agg.input);
  if (split === null) return null;
  const inner: Expr[] = [];
  const ops: OpExpr[] = [];
  const outer: Expr[] = [];
  for (const c of split.corr) {
    if (c.kind !== 'Op' || c.name !== '=' || c.left === null || c.leftType === null || c.leftType.oid !== c.rightType.oid) return null;
    const lOuter = reaches(c.left, 1);
    const rOuter = reaches(c.right, 1);
    const outerOnly = (e: Expr): boolean => !someExpr(e, (x) => x.kind === 'ColumnRef' && x.levelsUp === 0);
    if (lOuter === rOuter) return null;
    const [i, o] = lOuter ? [c.right, c.left] : [c.left, c.right];
    if (!outerOnly(o)) return null;
    inner.push(i);
    outer.push(transformExpr(o, (x) => (x.kind === 'ColumnRef' ? { ...x, levelsUp: 0 } : undefined)));
    ops.push(c);
  }
  const k = inner.length;
  const keyCols: PlanColumn[] = inner.map((e, i) => ({ name: `key${i + 1}`, type: e.type }));
  const grouped: Aggregate = { ...agg, input: split.input, groupKeys: inner, columns: [...keyCols, ...agg.columns] };
  const shift = (e: Expr): Expr => transformExpr(e, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index + k } : undefined));
  const right: Projection = {
    kind: 'Projection', input: grouped, exprs: [...keyCols.map((c, i) => colRef(i, c, 0)), ...proj.exprs.map(shift)],
    columns: [...keyCols, ...proj.columns],
  };
  const w = left.columns.length;
  const condition = andOf(ops.map((op, i) => {
    const key = colRef(w + i, keyCols[i]!, 0);
    return op.left === inner[i] ? { ...op, left: key, right: outer[i]! } : { ...op, left: outer[i]!, right: key };
  }));
  const plan: LogicalPlan = { kind: 'Join', joinType: 'left', left, right, condition, lateral: false, columns: [...left.columns, ...right.columns] };
  return { plan, value: colRef(w + k, { name: proj.columns[0]!.name, type: sub.type }, 0) };
}
