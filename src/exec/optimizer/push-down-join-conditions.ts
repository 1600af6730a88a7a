/**
 * push_down_join_conditions: a conjunct of a join's ON condition that reads one input only becomes a Filter
 * on that input, where PostgreSQL evaluates it too (distribute_qual_to_rels puts such a qual on the base
 * relation's scan): for inner and semi joins both inputs, for left / anti joins the right (nullable, subquery)
 * input, for right joins the left. Each row of that input is then tested once — also the
 * rows no join partner would meet, so `ON c.k = o.k AND 10/(c.k - 77) < 0` raises 22012 for c.k = 77 as it
 * does in PostgreSQL, instead of going unevaluated for a key without a match — and the hash join builds and
 * probes only the rows that pass. Conjuncts over the preserved input of an outer join stay in the join
 * (they decide matching, not which rows appear), as do conjuncts with subqueries (their plans read the join's
 * row by position). WHERE conjuncts over inner joins are reorder_inner_joins' business; this handles ON.
 */
import { andOf, conjunctsOf, someExpr, transformExpr, type Expr, type Join, type LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';

export const pushDownJoinConditions: OptimizerRule = {
  name: 'push_down_join_conditions',
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === 'Join' ? pushJoinConditions(p) : p)),
};



/** which inputs a conjunct reads: 'left', 'right', 'both', 'none', or null when it must stay (subquery) */
function sideOf(e: Expr, lw: number): 'left' | 'right' | 'both' | 'none' | null {
  let left = false;
  let right = false;
  let movable = true;
  someExpr(e, (x) => {
    if (x.kind === 'Subquery') movable = false;
    else if (x.kind === 'ColumnRef' && x.levelsUp === 0) {
      if (x.index < lw) left = true;
      else right = true;
    }
    return !movable;
  });
  if (!movable) return null;
  return left && right ? 'both' : left ? 'left' : right ? 'right' : 'none';
}

/** `input` filtered by `extra` too (merged into the Filter it already is) */
function filtered(input: LogicalPlan, extra: readonly Expr[]): LogicalPlan {
  if (extra.length === 0) return input;
  if (input.kind === 'Filter') return { ...input, predicate: andOf([...conjunctsOf(input.predicate), ...extra]) };
  return { kind: 'Filter', input, predicate: andOf(extra), columns: input.columns };
}

/** the join with its one-input ON conjuncts moved into Filters on the inputs that may take them */
export function pushJoinConditions(j: Join): Join {
  if (j.lateral || j.condition === null || j.joinType === 'full') return j;
  const lw = j.left.columns.length;
  const intoLeft = j.joinType === 'inner' || j.joinType === 'right' || j.joinType === 'semi';
  const intoRight = j.joinType !== 'right';
  const toLeft: Expr[] = [];
  const toRight: Expr[] = [];
  const kept: Expr[] = [];
  for (const c of conjunctsOf(j.condition)) {
    const side = sideOf(c, lw);
    if (side === 'left' && intoLeft) toLeft.push(c);
    else if (side === 'right' && intoRight) toRight.push(transformExpr(c, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index - lw } : undefined)));
    else kept.push(c);
  }
  if (toLeft.length === 0 && toRight.length === 0) return j;
  // an inner join without a condition left is a cross join; other kinds keep their (rare) one-input condition
  if (kept.length === 0 && j.joinType !== 'inner') return j;
  return { ...j, left: filtered(j.left, toLeft), right: filtered(j.right, toRight), condition: kept.length === 0 ? null : andOf(kept) };
}
