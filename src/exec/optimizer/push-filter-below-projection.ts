/**
 * push_filter_below_projection: WHERE over a FROM-clause subquery moves below its projection where it reads
 * pass-through columns only (the rewrite of ../filter-pushdown.ts, which the planner used to apply while
 * building operators), so the subquery's expensive expressions run for the kept rows only.
 */
import { pushFilterBelowProjection } from '../filter-pushdown.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanDown } from './plan-rewrite.ts';

export const pushFilterBelowProjectionRule: OptimizerRule = {
  name: 'push_filter_below_projection',
  apply: (plan) => transformPlanDown(plan, (p) => (p.kind === 'Filter' ? pushFilterBelowProjection(p) : null)),
};
