/**
 * The optimizer: an ordered list of named rules over the LogicalPlan, each timed and each switchable off
 * with `SET lakegate.disabled_optimizer_rules = 'rule_a,rule_b'` (rule-names.ts). Runs once per execution
 * (executePlan), with that execution's context, so constant folding sees the statement's settings.
 *
 * Order matters: constants are folded first (so `date '1994-01-01' + interval '1 year'` is a Literal the
 * pushdown rules can use), IN lists over computed expressions become `= ANY` (or_equalities_to_any), WHERE
 * moves below FROM-subquery projections, `x IN (SELECT …)` becomes a semi join on x's table, a GROUP BY of
 * unfiltered dimensions over a fact's measures sums the fact per join key first (eager_aggregation), a GROUP BY over a
 * LEFT JOIN's preserved side counts / sums the nullable side per key first (aggregate_below_left_join), WHERE goes into
 * per-leaf filters of inner joins, ON conjuncts over one input into Filters on it (push_down_join_conditions),
 * OR join conditions add per-input filters, dimensions are joined into bushy branches before the fact table
 * (join_dimension_branches), semi joins with few keys become inner joins over the distinct keys
 * (semi_join_to_distinct_inner, so choose_build_side can hand them to the big scan), stacked semi / anti joins
 * keep the more selective first (order_filtering_joins), an EXISTS / NOT EXISTS pair over one table by key and `<>` becomes
 * one per-key min/max aggregate joined back (exists_pair_to_key_min_max), then filters, limits and
 * finally the needed columns are recorded on the scans, build sides are chosen (choose_build_side) and revisited for
 * joins whose input a runtime key filter from above will cut (build_side_under_key_filters); plain conjuncts go below those with subqueries
 * (split_subquery_filters), a decorrelated per-key aggregate of a table the outer side joins by that key reads the outer
 * side's rows (correlated_aggregate_from_join), a GROUP BY over rows unique on some of its keys becomes a Projection
 * (aggregate_over_unique_rows), a top-N's wide columns of a keyed table are read for the kept rows only
 * (key_columns_after_limit), the joins' unread output columns are marked (prune_join_columns), and last the
 * subtrees that occur more than once (a CTE read twice) are marked to run once (share_repeated_subplans).
 */
import type { LogicalPlan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { DISABLED_RULES_SETTING, parseDisabledRules, type OptimizerRuleName } from './rule-names.ts';
import { simplifyExpressions } from './simplify-expressions.ts';
import { orEqualitiesToAny } from './or-equalities-to-any.ts';
import { pushFilterBelowProjectionRule } from './push-filter-below-projection.ts';
import { eagerAggregation } from './eager-aggregation.ts';
import { leftJoinAggregatePerRow } from './left-join-aggregate-per-row.ts';
import { aggregateBelowLeftJoin } from './aggregate-below-left-join.ts';
import { reorderInnerJoinsRule } from './reorder-inner-joins.ts';
import { pushDownJoinConditions } from './push-down-join-conditions.ts';
import { subqueryToSemiJoin } from './subquery-to-semi-join.ts';
import { deriveOrFilters } from './derive-or-filters.ts';
import { joinDimensionBranches } from './join-dimension-branches.ts';
import { semiJoinToDistinctInner } from './semi-join-to-distinct-inner.ts';
import { orderFilteringJoins } from './order-filtering-joins.ts';
import { existsPairToKeyMinMax } from './exists-pair-to-key-min-max.ts';
import { pushDownFilter } from './push-down-filter.ts';
import { splitSubqueryFilters } from './split-subquery-filters.ts';
import { correlatedAggregateFromJoin } from './correlated-aggregate-from-join.ts';
import { aggregateOverUniqueRows } from './aggregate-over-unique-rows.ts';
import { keyColumnsAfterLimit } from './key-columns-after-limit.ts';
import { pushDownLimit } from './push-down-limit.ts';
import { pushDownProjection } from './push-down-projection.ts';
import { chooseBuildSide } from './choose-build-side.ts';
import { buildSideUnderKeyFilters } from './build-side-under-key-filters.ts';
import { wideProbeKeyFilters } from './wide-probe-key-filters.ts';
import { buildFilteredFactSide } from './build-filtered-fact-side.ts';
import { aggregateFromMetadata } from './aggregate-from-metadata.ts';
import { partialAggregateRule } from '../partial/partial-aggregate-rule.ts';
import { pruneJoinColumns } from './prune-join-columns.ts';
import { shareRepeatedSubplans } from './share-repeated-subplans.ts';

export const OPTIMIZER_RULES: readonly OptimizerRule[] = [
  simplifyExpressions,
  orEqualitiesToAny,
  pushFilterBelowProjectionRule,
  subqueryToSemiJoin,
  eagerAggregation,
  leftJoinAggregatePerRow,
  aggregateBelowLeftJoin,
  reorderInnerJoinsRule,
  pushDownJoinConditions,
  deriveOrFilters,
  joinDimensionBranches,
  semiJoinToDistinctInner,
  orderFilteringJoins,
  // after order_filtering_joins, which stacks the EXISTS / NOT EXISTS pair either way round
  existsPairToKeyMinMax,
  pushDownFilter,
  splitSubqueryFilters,
  // after push_down_filter (the outer side's filters on its leaves), before the scans' columns and build sides
  correlatedAggregateFromJoin,
  // after the rewrites that shape joins and aggregates, before the scans' columns are recorded
  aggregateOverUniqueRows,
  // after aggregate_over_unique_rows (Q10's top-N then sits on the joins), before the scans' columns are recorded
  keyColumnsAfterLimit,
  pushDownLimit,
  pushDownProjection,
  chooseBuildSide,
  // after choose_build_side: it revisits the joins below a runtime key filter with their scans' scaled estimates
  buildSideUnderKeyFilters,
  // after build_side_under_key_filters: a filtered fact side is built instead of a whole table it joins
  buildFilteredFactSide,
  // after the build sides are final: probe scans reading strings may take denser key filters
  wideProbeKeyFilters,
  partialAggregateRule,
  // last: the Aggregate aggregate_from_metadata keeps as its fallback then carries partial_aggregate's mark
  aggregateFromMetadata,
  // after every rewrite: it marks the joins of the plan that runs
  pruneJoinColumns,
  // after prune_join_columns, whose marks are part of what makes two subtrees equal
  shareRepeatedSubplans,
];

export interface RuleTiming {
  readonly name: OptimizerRuleName;
  /** false when switched off by the setting */
  readonly applied: boolean;
  readonly ms: number;
}

export interface OptimizedPlan {
  readonly plan: LogicalPlan;
  readonly rules: readonly RuleTiming[];
  readonly ms: number;
}

/** the rules the session switched off (the setting was validated when SET) */
export function disabledRules(ctx: ExecContext): ReadonlySet<string> {
  const text = ctx.session.getSetting(DISABLED_RULES_SETTING, true);
  return new Set(text === null || text === '' ? [] : parseDisabledRules(text));
}

export function optimizePlan(plan: LogicalPlan, ctx: ExecContext, disabled: ReadonlySet<string> = disabledRules(ctx)): OptimizedPlan {
  const start = performance.now();
  const rules: RuleTiming[] = [];
  let p = plan;
  for (const rule of OPTIMIZER_RULES) {
    if (disabled.has(rule.name)) {
      rules.push({ name: rule.name, applied: false, ms: 0 });
      continue;
    }
    const t = performance.now();
    p = rule.apply(p, ctx);
    rules.push({ name: rule.name, applied: true, ms: performance.now() - t });
  }
  return { plan: p, rules, ms: performance.now() - start };
}
