/**
 * reorder_inner_joins: WHERE over a tree of inner / cross joins becomes per-leaf filters and a greedy join
 * order along the equalities (../join-order.ts; the planner used to apply it while building operators).
 * Runs after push_filter_below_projection, so a WHERE that moved into a FROM subquery is reordered there.
 */
import { reorderInnerJoins } from '../join-order.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanDown } from './plan-rewrite.ts';

export const reorderInnerJoinsRule: OptimizerRule = {
  name: 'reorder_inner_joins',
  apply: (plan) => transformPlanDown(plan, (p) => (p.kind === 'Filter' ? reorderInnerJoins(p) : null)),
};
